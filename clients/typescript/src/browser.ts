/**
 * @flotilla/client/browser: a TypeScript client of the Flotilla game server, generated from its proto/
 * contract. `FlotillaClient` wraps the services; the generated messages are re-exported (the
 * envelopes flat, each game's messages under its name). This is the browsers' entry: no node:
 * modules, no default transport (pass connect-web's as `transport`), no verifySeedCommitment
 * (node:crypto; browsers have crypto.subtle.digest).
 */
export { FlotillaClient, create } from "./client.js";
export type { CallPolicy, ClientOptions, Seat, WatchOptions } from "./client.js";
export { Code, FlotillaError, MAX_RATE_LIMIT_WAIT_MS, retryDelay, retryPauseMs } from "./errors.js";
export { Gateways, baseUrl } from "./gateways.js";
export type { Stubs, TransportFactory } from "./gateways.js";
export { Lobby } from "./lobby.js";
export type { RoomOptions } from "./lobby.js";
export { Matchmaking, Ratings } from "./matchmaking.js";
export type { TicketOptions } from "./matchmaking.js";
export { PlayStream } from "./play.js";
export type { Answer, PlayOptions } from "./play.js";
export { bearer, needsRefresh, tokenTimes } from "./tokens.js";
export { resumed } from "./streams.js";
export { defaultAction, endsGame } from "./updates.js";

export * from "./gen/flotilla/api/game/v1/error_reason_pb.js";
export * from "./gen/flotilla/api/game/v1/game_pb.js";
export * from "./gen/flotilla/api/game/v1/game_service_pb.js";
export * as catalog from "./gen/flotilla/api/catalog/v1/catalog_service_pb.js";
export * as counter from "./gen/flotilla/api/counter/v1/counter_pb.js";
export * as lobby from "./gen/flotilla/api/lobby/v1/lobby_service_pb.js";
export * as matchmaking from "./gen/flotilla/api/matchmaking/v1/matchmaking_service_pb.js";
export * as navegador from "./gen/flotilla/api/navegador/v1/navegador_pb.js";
export * as piratesOfNassau from "./gen/flotilla/api/pirates_of_nassau/v1/pirates_of_nassau_pb.js";
export * as portRoyal from "./gen/flotilla/api/port_royal/v1/port_royal_pb.js";
export * as sailAway from "./gen/flotilla/api/sail_away/v1/sail_away_pb.js";
