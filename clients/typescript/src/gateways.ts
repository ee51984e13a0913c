/** The gateway addresses a client fails over between, each with its own HTTP/2 connection. */
import { type Client, type Transport, createClient } from "@connectrpc/connect";

import { CatalogService } from "./gen/flotilla/api/catalog/v1/catalog_service_pb.js";
import { AuthService, GameService } from "./gen/flotilla/api/game/v1/game_service_pb.js";
import { LobbyService } from "./gen/flotilla/api/lobby/v1/lobby_service_pb.js";
import { MatchmakingService, RatingService } from "./gen/flotilla/api/matchmaking/v1/matchmaking_service_pb.js";

/** The generated service clients of one gateway. */
export interface Stubs {
  readonly address: string;
  readonly auth: Client<typeof AuthService>;
  readonly catalog: Client<typeof CatalogService>;
  readonly games: Client<typeof GameService>;
  readonly lobby: Client<typeof LobbyService>;
  readonly matchmaking: Client<typeof MatchmakingService>;
  readonly ratings: Client<typeof RatingService>;
}

/** How to reach one address: a transport (gRPC over HTTP/2 in Node: `grpcTransport`; connect-web's
 * Connect or gRPC-Web in a browser) and how to close what it runs on. */
export type TransportFactory = (baseUrl: string) => { transport: Transport; close(): void };

/** "127.0.0.1:50051" becomes "http://127.0.0.1:50051"; an http:// or https:// URL stays as it is. */
export function baseUrl(address: string): string {
  return /^https?:\/\//.test(address) ? address : `http://${address}`;
}

/** Round-robin failover over a fixed list of addresses; connections are made on first use. */
export class Gateways {
  private readonly made = new Map<number, { stubs: Stubs; close(): void }>();
  private index = 0;

  constructor(
    readonly addresses: readonly string[],
    private readonly factory: TransportFactory,
  ) {
    if (addresses.length === 0) throw new Error("give at least one gateway address, e.g. 127.0.0.1:50051");
  }

  /** The stubs of the address in use now (or of address `index`, modulo the list). */
  stubs(index: number = this.index): Stubs {
    const at = ((index % this.addresses.length) + this.addresses.length) % this.addresses.length;
    let entry = this.made.get(at);
    if (!entry) {
      const address = this.addresses[at] as string;
      const { transport, close } = this.factory(baseUrl(address));
      const stubs: Stubs = {
        address,
        auth: createClient(AuthService, transport),
        catalog: createClient(CatalogService, transport),
        games: createClient(GameService, transport),
        lobby: createClient(LobbyService, transport),
        matchmaking: createClient(MatchmakingService, transport),
        ratings: createClient(RatingService, transport),
      };
      entry = { stubs, close };
      this.made.set(at, entry);
    }
    return entry.stubs;
  }

  /** The index of the address in use now. */
  get current(): number {
    return this.index;
  }

  /**
   * Moves to the next address if `from` (the index `current` gave when the failed call began) is
   * still the one in use: calls that fail together (a watch and a submit when their gateway dies)
   * move on once, not once each, which with two addresses would take them back to the dead one.
   * A no-op with one address.
   */
  failover(from: number): void {
    if (from === this.index) this.index = (this.index + 1) % this.addresses.length;
  }

  /** Closes every connection (calls still running on them fail). */
  close(): void {
    for (const entry of this.made.values()) entry.close();
    this.made.clear();
  }
}

