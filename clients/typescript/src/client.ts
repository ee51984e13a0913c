/** FlotillaClient: typed calls over the generated services, with tokens, retries and failover. */

import { type MessageInitShape, create } from "@bufbuild/protobuf";
import type { CallOptions } from "@connectrpc/connect";

import { Code, FlotillaError, retryDelay, retryPauseMs } from "./errors.js";
import { Gateways, type Stubs, type TransportFactory } from "./gateways.js";
import { type Action, type ClockSchema, type Game, GameState } from "./gen/flotilla/api/game/v1/game_pb.js";
import type {
  GetGameRecordResponse,
  GetViewAtResponse,
  GetViewResponse,
  ListGamesResponse,
  SignInAsGuestResponse,
  SubmitActionResponse,
  WatchGameResponse,
} from "./gen/flotilla/api/game/v1/game_service_pb.js";
import { Lobby } from "./lobby.js";
import { Matchmaking, Ratings } from "./matchmaking.js";
import { PlayStream, type PlayOptions } from "./play.js";
import { required } from "./replies.js";
import { sleep } from "./sleep.js";
import { bearer, needsRefresh } from "./tokens.js";
import { endsGame } from "./updates.js";

/** A seat taken in a game: its index and the token that acts for it. */
export interface Seat {
  readonly game: string;
  readonly seat: number;
  /** The seat token as JoinGame returned it; the client uses its latest refresh. */
  readonly token: string;
}

/** Options of a FlotillaClient. */
export interface ClientOptions {
  /** Retries of a call that failed retryably (default 8). */
  retries?: number;
  /** Base of the exponential backoff between retries, in ms (default 200). */
  backoffMs?: number;
  /** Cap of the backoff, in ms (default 10000). */
  maxBackoffMs?: number;
  /** Deadline of each unary call, in ms (default 30000). */
  timeoutMs?: number;
  /** How to reach an address (the Node entry's default: gRPC over HTTP/2, plaintext for
   * host:port; the browser entry has no default: pass connect-web's transport). */
  transport?: TransportFactory;
  /** Called before each retry (for logs and metrics): the failure and the retry's number. */
  onRetry?: (error: FlotillaError, attempt: number) => void;
}

/** How a call may be retried. */
export interface CallPolicy {
  /** The token to send (refreshed first when it nears its expiry); "" sends none. */
  token?: string;
  /** The call carries a request id or only reads: retrying after an unknown outcome is safe. */
  idempotent: boolean;
}

/** Options of a watch. */
export interface WatchOptions {
  /** Watch as this seat (its redacted view and prompts); absent: the caller's session (a spectator). */
  seat?: Seat;
  /** Resume after this event (0: start with a full view). */
  afterEventId?: bigint;
  /** Resume after the version this etag names (preferred over afterEventId). */
  afterEtag?: string;
  /** A private room's join code, for a spectator. */
  joinCode?: string;
  /** Stops the watch. */
  signal?: AbortSignal;
  /** Reconnections in a row before the watch gives up (default: the client's retries); a page
   * that shows "Reconnecting…" may pass Infinity. */
  retries?: number;
  /** Called before each reconnection (after the client's own onRetry): the failure and its number. */
  onRetry?: (error: FlotillaError, attempt: number) => void;
}

/**
 * A client of one Flotilla deployment, reached at one or more gateway addresses. Calls that fail
 * retryably are retried (with the same request id) on the next address after the server's
 * `RetryInfo` delay and a jittered backoff; other failures throw a {@link FlotillaError}.
 */
export class FlotillaClient {
  /** The gateways, for calls this class does not wrap ({@link FlotillaClient.call}). */
  readonly gateways: Gateways;
  /** The session token of the signed-in user ("" before signing in). */
  sessionToken = "";
  /** The signed-in user, users/{id}. */
  user = "";
  /** LobbyService: rooms. */
  readonly lobby: Lobby = new Lobby(this);
  /** MatchmakingService: tickets and parties. */
  readonly matchmaking: Matchmaking = new Matchmaking(this);
  /** RatingService: leaderboards and ratings. */
  readonly ratings: Ratings = new Ratings(this);
  private apiKey = "";
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly timeoutMs: number;
  private readonly onRetry: ((error: FlotillaError, attempt: number) => void) | undefined;
  private readonly latest = new Map<string, string>();
  private readonly refreshing = new Map<string, Promise<string>>();
  private readonly refused = new Map<string, number>(); // token -> until when not to ask again (ms)

  constructor(addresses: string | readonly string[], options: ClientOptions = {}) {
    if (!options.transport) throw new Error("give a transport (in a browser: connect-web's createConnectTransport)");
    this.gateways = new Gateways(typeof addresses === "string" ? [addresses] : addresses, options.transport);
    this.retries = options.retries ?? 8;
    this.backoffMs = options.backoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.onRetry = options.onRetry;
  }

  /** Closes every connection. */
  close(): void {
    this.gateways.close();
  }

  // --- plumbing ------------------------------------------------------------------------------

  /** The latest refresh of `token` (itself if it was never refreshed). */
  current(token: string): string {
    return this.latest.get(token) ?? token;
  }

  /** `token` (by its first value), refreshed first once less than a third of its lifetime is left. */
  async fresh(token: string): Promise<string> {
    const now = this.current(token);
    if (!needsRefresh(now) || Date.now() < (this.refused.get(now) ?? 0)) return now;
    let pending = this.refreshing.get(token);
    if (!pending) {
      pending = this.refresh(token, now).finally(() => this.refreshing.delete(token));
      this.refreshing.set(token, pending);
    }
    return pending;
  }

  private async refresh(token: string, now: string): Promise<string> {
    try {
      const reply = await this.call((s, o) => s.auth.refreshToken({ token: now }, o), { idempotent: true });
      this.latest.set(token, reply.token);
      return reply.token;
    } catch (error) {
      const failure = FlotillaError.from(error);
      if (failure.reason === "ERROR_REASON_TOKEN_EXPIRED" && this.apiKey && token === this.sessionToken) {
        await this.signInWithApiKey(this.apiKey); // asleep past the expiry: sign in again
        this.latest.set(token, this.sessionToken);
        return this.sessionToken;
      }
      if (this.refused.size > 1000) this.refused.clear();
      this.refused.set(now, Date.now() + 30_000);
      return now; // not refreshable (the seat left, an external token): let the server say why on use
    }
  }

  /** Reports retry `attempt` of a call that failed with `error` and pauses before it (at least the
   * server's `atLeastMs`, plus jittered backoff). */
  pause(attempt: number, atLeastMs: number, error: FlotillaError, signal?: AbortSignal): Promise<void> {
    this.onRetry?.(error, attempt);
    return sleep(retryPauseMs(attempt, atLeastMs, this.backoffMs, this.maxBackoffMs), signal);
  }

  /** The retries of a call (for streams that retry by themselves). */
  get maxRetries(): number {
    return this.retries;
  }

  /**
   * Runs one unary call `fn` on the gateway in use, retrying it as `policy` allows and failing
   * over to the next gateway between attempts. Use it for the generated calls this class does not
   * wrap, e.g. `client.call((s, o) => s.games.listGames({}, o), { token: client.sessionToken,
   * idempotent: true })`.
   */
  async call<T>(fn: (stubs: Stubs, options: CallOptions) => Promise<T>, policy: CallPolicy): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let at = this.gateways.current;
      try {
        const token = policy.token ? await this.fresh(policy.token) : "";
        at = this.gateways.current; // the refresh may have failed over
        return await fn(this.gateways.stubs(at), { headers: bearer(token), timeoutMs: this.timeoutMs });
      } catch (error) {
        const failure = FlotillaError.from(error);
        const delay = retryDelay(failure, policy.idempotent);
        if (delay === undefined || attempt >= this.retries) throw failure;
        this.gateways.failover(at);
        await this.pause(attempt + 1, delay, failure);
      }
    }
  }

  // --- auth ----------------------------------------------------------------------------------

  /** Signs in as a guest; later calls use the session token. */
  async signIn(displayName: string): Promise<SignInAsGuestResponse> {
    const reply = await this.call((s, o) => s.auth.signInAsGuest({ displayName }, o), { idempotent: false });
    this.sessionToken = reply.sessionToken;
    this.user = reply.user;
    return reply;
  }

  /** Signs in with an operator-minted API key (a bot account); it signs in again when the session
   * expired unrefreshed. */
  async signInWithApiKey(apiKey: string): Promise<void> {
    const reply = await this.call((s, o) => s.auth.signInWithApiKey({ apiKey }, o), { idempotent: true });
    this.apiKey = apiKey;
    this.sessionToken = reply.sessionToken;
    this.user = reply.user;
  }

  /** Signs in with a token of the operator's identity provider (or one from elsewhere). */
  useToken(token: string): void {
    this.sessionToken = token;
  }

  // --- games ---------------------------------------------------------------------------------

  /** Creates a game with open seats; retried with one request id, so it is created once. */
  async createGame(
    kind: string,
    seatCount: number,
    options: {
      options?: Record<string, string>;
      clock?: MessageInitShape<typeof ClockSchema>;
      requestId?: string;
    } = {},
  ): Promise<Game> {
    const request = {
      kind,
      seatCount,
      options: options.options ?? {},
      requestId: options.requestId ?? crypto.randomUUID(),
      ...(options.clock ? { clock: options.clock } : {}),
    };
    const reply = await this.call((s, o) => s.games.createGame(request, o), {
      token: this.sessionToken,
      idempotent: true,
    });
    return required(reply.game, "CreateGame");
  }

  /** Takes a seat (the lowest open one, or `seat`) and returns it with its seat token. */
  async join(game: string, seat?: number): Promise<Seat> {
    const reply = await this.call((s, o) => s.games.joinGame(seat === undefined ? { game } : { game, seat }, o), {
      token: this.sessionToken,
      idempotent: false,
    });
    return { game, seat: reply.seat, token: reply.seatToken };
  }

  /** Leaves a game for good: the seat becomes absent and its tokens are revoked. */
  async leave(seat: Seat, requestId: string = crypto.randomUUID()): Promise<string> {
    const reply = await this.call((s, o) => s.games.leaveGame({ game: seat.game, requestId }, o), {
      token: seat.token,
      idempotent: true,
    });
    return reply.etag;
  }

  /** A game's public description (a private room's game: a seat in it or the room's `joinCode`). */
  async getGame(game: string, opts: { joinCode?: string } = {}): Promise<Game> {
    const reply = await this.call((s, o) => s.games.getGame({ game, joinCode: opts.joinCode ?? "" }, o), {
      token: this.sessionToken,
      idempotent: true,
    });
    return required(reply.game, "GetGame");
  }

  /** One page of games, newest first. */
  listGames(
    filter: { kind?: string; state?: GameState; pageSize?: number; pageToken?: string } = {},
  ): Promise<ListGamesResponse> {
    return this.call((s, o) => s.games.listGames(filter, o), { token: this.sessionToken, idempotent: true });
  }

  /** Every game matching `filter`, page by page. */
  async *allGames(filter: { kind?: string; state?: GameState; pageSize?: number } = {}): AsyncGenerator<Game> {
    let pageToken = "";
    do {
      const page = await this.listGames({ ...filter, pageToken });
      yield* page.games;
      pageToken = page.nextPageToken;
    } while (pageToken);
  }

  /** The caller's view now: the seat's with `seat`, otherwise the spectator's. */
  getView(game: string, options: { seat?: Seat; joinCode?: string } = {}): Promise<GetViewResponse> {
    return this.call((s, o) => s.games.getView({ game, joinCode: options.joinCode ?? "" }, o), {
      token: options.seat?.token ?? this.sessionToken,
      idempotent: true,
    });
  }

  /**
   * Submits one action for `seat` and waits for its outcome. Retries reuse the request id, so the
   * action is applied once; with `etag` (a prompt's) a game that moved meanwhile refuses it with
   * ABORTED / ERROR_REASON_STALE_GAME_VERSION.
   */
  submit(
    seat: Seat,
    action: Action,
    options: { etag?: string; requestId?: string } = {},
  ): Promise<SubmitActionResponse> {
    const request = {
      game: seat.game,
      action,
      etag: options.etag ?? "",
      requestId: options.requestId ?? crypto.randomUUID(),
    };
    return this.call((s, o) => s.games.submitAction(request, o), { token: seat.token, idempotent: true });
  }

  /** A finished game's seed and action log (a private room's game: a seat in it or the room's `joinCode`). */
  getGameRecord(game: string, opts: { joinCode?: string } = {}): Promise<GetGameRecordResponse> {
    return this.call((s, o) => s.games.getGameRecord({ game, joinCode: opts.joinCode ?? "" }, o), {
      token: this.sessionToken,
      idempotent: true,
    });
  }

  /**
   * A finished game's view at `eventId` (a RecordedAction's throughEventId; 1: the start), as the
   * caller could have seen it then: the seat's with `seat` (or a seated user's session), otherwise
   * the spectator's.
   */
  getViewAt(game: string, eventId: bigint, options: { seat?: Seat; joinCode?: string } = {}): Promise<GetViewAtResponse> {
    return this.call((s, o) => s.games.getViewAt({ game, eventId, joinCode: options.joinCode ?? "" }, o), {
      token: options.seat?.token ?? this.sessionToken,
      idempotent: true,
    });
  }

  /**
   * The caller's updates of `game`, from a resume point. Reconnects by itself (failing over, and
   * with a refreshed token when the one the stream was opened with expired) and resumes from the
   * last etag received, so every event arrives exactly once, in order. An update with a `view`
   * replaces everything known so far (mid-stream its `resyncReason` says why). Ends when the
   * game is over (the server closes the stream).
   */
  async *watch(game: string, options: WatchOptions = {}): AsyncGenerator<WatchGameResponse> {
    let afterEventId = options.afterEventId ?? 0n;
    let afterEtag = options.afterEtag ?? "";
    const token = options.seat?.token ?? this.sessionToken;
    let over = false;
    for (let attempt = 0; ; ) {
      const used = token ? await this.fresh(token) : "";
      const request = { game, afterEventId, afterEtag, joinCode: options.joinCode ?? "" };
      const call: CallOptions = { headers: bearer(used) };
      if (options.signal) call.signal = options.signal;
      const at = this.gateways.current;
      try {
        for await (const update of this.gateways.stubs(at).games.watchGame(request, call)) {
          attempt = 0;
          afterEventId = update.throughEventId;
          afterEtag = update.etag;
          yield update;
          over ||= endsGame(update);
        }
        if (over || (await this.isOver(game))) return;
        throw new FlotillaError(Code.Unavailable, "the watch ended before the game did");
      } catch (error) {
        if (options.signal?.aborted) return;
        const failure = FlotillaError.from(error);
        if (failure.reason === "ERROR_REASON_TOKEN_EXPIRED" && token && (await this.fresh(token)) !== used) continue;
        const delay = retryDelay(failure, true);
        if (delay === undefined || attempt >= (options.retries ?? this.retries)) throw failure;
        attempt++;
        this.gateways.failover(at);
        options.onRetry?.(failure, attempt);
        await this.pause(attempt, delay, failure, options.signal);
      }
    }
  }

  /** Whether `game` is over (finished or abandoned): a stream that ends before it was cut short
   * (a gateway shutting down) and resumes. */
  async isOver(game: string): Promise<boolean> {
    const state = (await this.getGame(game)).state;
    return state === GameState.FINISHED || state === GameState.ABANDONED;
  }

  /**
   * A bidirectional Play stream for `seat`: send actions, iterate updates and outcomes. It opens
   * on the gateway in use (or `options.gateway`, an index into the addresses) and reopens by
   * itself after a retryable failure, on the next gateway, from the last etag received.
   */
  play(seat: Seat, options: PlayOptions = {}): PlayStream {
    return new PlayStream(this, seat, options);
  }
}

/** Builds a message of a generated schema (re-exported for callers that build actions). */
export { create };
