/** Lobby: typed LobbyService calls (rooms), reached as `client.lobby`. */

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CallOptions } from "@connectrpc/connect";

import type { FlotillaClient } from "./client.js";
import type { Stubs } from "./gateways.js";
import type { ClockSchema } from "./gen/flotilla/api/game/v1/game_pb.js";
import {
  type GetRoomResponse,
  type ListRoomsResponse,
  type Room,
  RoomVisibility,
  type StartRoomResponse,
  type WatchRoomResponse,
} from "./gen/flotilla/api/lobby/v1/lobby_service_pb.js";
import { required } from "./replies.js";
import { resumed } from "./streams.js";

/** Options of a new room. */
export interface RoomOptions {
  /** The game's options (docs/games.md). */
  options?: Record<string, string>;
  /** Public (listed; the default) or private (joined with its `joinCode`). */
  visibility?: RoomVisibility;
  /** The room's name as people see it (1-40 characters). */
  displayName?: string;
  /** The turn clock of the room's game (as CreateGame's); absent: none. */
  clock?: MessageInitShape<typeof ClockSchema>;
  /** Makes the call safe to retry: the same id finds the same room (default: a fresh UUID). */
  requestId?: string;
}

/**
 * Rooms: a host opens one (seat 0 is theirs), others join and say ready, the host starts it and
 * everyone gets a seat token. Every call goes with the session token; reads and calls with a
 * request id are retried after an unknown outcome, the rest only when nothing was sent.
 */
export class Lobby {
  constructor(private readonly client: FlotillaClient) {}

  /** Opens a room you host; a private one answers with its `joinCode`. */
  async createRoom(kind: string, seatCount: number, options: RoomOptions = {}): Promise<Room> {
    const request = {
      kind,
      seatCount,
      options: options.options ?? {},
      visibility: options.visibility ?? RoomVisibility.PUBLIC,
      displayName: options.displayName ?? "",
      requestId: options.requestId ?? crypto.randomUUID(),
      ...(options.clock ? { clock: options.clock } : {}),
    };
    const reply = await this.run((s, o) => s.lobby.createRoom(request, o), true);
    return required(reply.room, "CreateRoom");
  }

  /** One page of open public rooms (of `kind`, with at least `minOpenSeats`, with these `options`). */
  listRooms(
    filter: { kind?: string; minOpenSeats?: number; options?: Record<string, string>; pageSize?: number; pageToken?: string } = {},
  ): Promise<ListRoomsResponse> {
    return this.run((s, o) => s.lobby.listRooms(filter, o), true);
  }

  /** The room, and your seat token once it started. */
  getRoom(name: string, options: { joinCode?: string } = {}): Promise<GetRoomResponse> {
    return this.run((s, o) => s.lobby.getRoom({ room: name, joinCode: options.joinCode ?? "" }, o), true);
  }

  /** Takes a seat (the lowest open one, or `seat`); a private room needs its join code (`name` "": the room of that code). */
  async joinRoom(name: string, options: { joinCode?: string; seat?: number } = {}): Promise<Room> {
    const request = { room: name, joinCode: options.joinCode ?? "", ...(options.seat === undefined ? {} : { seat: options.seat }) };
    const reply = await this.run((s, o) => s.lobby.joinRoom(request, o), false);
    return required(reply.room, "JoinRoom");
  }

  /** Gives up your seat (the host's leaving hands the room on). */
  async leaveRoom(name: string): Promise<Room> {
    const reply = await this.run((s, o) => s.lobby.leaveRoom({ room: name }, o), false);
    return required(reply.room, "LeaveRoom");
  }

  /** Says you are (or are no longer) ready to start. */
  async setReady(name: string, ready = true): Promise<Room> {
    const reply = await this.run((s, o) => s.lobby.setReady({ room: name, ready }, o), true);
    return required(reply.room, "SetReady");
  }

  /** The host frees a seat. */
  async kickSeat(name: string, seat: number): Promise<Room> {
    const reply = await this.run((s, o) => s.lobby.kickSeat({ room: name, seat }, o), false);
    return required(reply.room, "KickSeat");
  }

  /** The host hands the room to a seated `user` (users/{id}). */
  async transferHost(name: string, user: string): Promise<Room> {
    const reply = await this.run((s, o) => s.lobby.transferHost({ room: name, user }, o), false);
    return required(reply.room, "TransferHost");
  }

  /** The host seats a server bot (at `seat`, or the lowest open one; `policy`: the server's default). */
  async addBot(name: string, options: { seat?: number; policy?: string } = {}): Promise<Room> {
    const request = { room: name, policy: options.policy ?? "", ...(options.seat === undefined ? {} : { seat: options.seat }) };
    const reply = await this.run((s, o) => s.lobby.addBot(request, o), false);
    return required(reply.room, "AddBot");
  }

  /** The host starts the game (every seat taken and ready); the reply has the host's seat token. */
  startRoom(name: string): Promise<StartRoomResponse> {
    return this.run((s, o) => s.lobby.startRoom({ room: name }, o), false);
  }

  /**
   * The room now, then every change; reopened by itself (failing over) after the last version
   * received. A started room's update carries your seat token; the stream ends once it started.
   */
  async *watchRoom(
    name: string,
    options: { afterVersion?: bigint; joinCode?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<WatchRoomResponse> {
    let afterVersion = options.afterVersion ?? 0n;
    const joinCode = options.joinCode ?? "";
    const open = (s: Stubs, o: CallOptions) => s.lobby.watchRoom({ room: name, afterVersion, joinCode }, o);
    for await (const update of resumed(this.client, open, this.client.sessionToken, options.signal)) {
      if (update.room) afterVersion = update.room.version;
      yield update;
    }
  }

  private run<T>(fn: (stubs: Stubs, options: CallOptions) => Promise<T>, idempotent: boolean): Promise<T> {
    return this.client.call(fn, { token: this.client.sessionToken, idempotent });
  }
}
