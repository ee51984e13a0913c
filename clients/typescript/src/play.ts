/** PlayStream: GameService.Play for one seat, reopened by itself after retryable failures. */

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CallOptions } from "@connectrpc/connect";

import type { FlotillaClient, Seat } from "./client.js";
import { Code, FlotillaError, retryDelay } from "./errors.js";
import type { Action } from "./gen/flotilla/api/game/v1/game_pb.js";
import type {
  PlayRequestSchema,
  PlayResponse,
  SubmitActionRequestSchema,
  WatchGameResponse,
} from "./gen/flotilla/api/game/v1/game_service_pb.js";
import { AsyncQueue } from "./queue.js";
import { bearer } from "./tokens.js";
import { endsGame } from "./updates.js";

/** Where a Play stream starts and on which gateway. */
export interface PlayOptions {
  /** Resume after this event (0: start with a full view). */
  afterEventId?: bigint;
  /** Resume after the version this etag names (preferred over afterEventId). */
  afterEtag?: string;
  /** Open on this gateway (an index into the client's addresses); default: the one in use. */
  gateway?: number;
}

/** How a submission was answered: accepted (by the update carrying its events, or by an outcome
 * when an earlier attempt of its request id was applied). */
export interface Answer {
  readonly requestId: string;
  /** The game's version after the action. */
  readonly etag: string;
  /** The last event the action produced (or the update's last event). */
  readonly throughEventId: bigint;
  /** The update that carried the action's events; absent when an outcome answered it. */
  readonly update?: WatchGameResponse;
}

type SubmitInit = MessageInitShape<typeof SubmitActionRequestSchema>;

interface Pending {
  readonly request: SubmitInit;
  /** Refusals retried so far (rate limits, an overloaded gateway). */
  retries: number;
  resolve?: (answer: Answer) => void;
  reject?: (error: FlotillaError) => void;
}

/**
 * One seat's Play stream. Iterate it to receive `PlayResponse`s (updates and outcomes); `send`
 * or `submit` actions meanwhile (the stream runs from the first of these; responses are kept for
 * the iteration, so awaiting `submit` inside it is fine). After a retryable failure it reopens on the next gateway from the
 * last etag received and sends the unanswered submissions again with their request ids (applied
 * once), so iteration sees every event exactly once. The iteration ends when the game is over
 * (the server closes the stream) or after `close()`.
 */
export class PlayStream implements AsyncIterable<PlayResponse> {
  /** The etag of the last update received (resume with it). */
  etag: string;
  /** The last event id received. */
  throughEventId: bigint;
  /** Refused submissions sent again after their RetryInfo delay (rate limits, overload). */
  resent = 0;
  /** Times the stream was reopened after a failure. */
  reopened = 0;
  private gateway: number;
  private requests: AsyncQueue<MessageInitShape<typeof PlayRequestSchema>> | undefined;
  private controller: AbortController | undefined;
  private closed = false;
  private started = false;
  private iterated = false;
  private failure: FlotillaError | undefined;
  private readonly inbox = new AsyncQueue<PlayResponse>();
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly client: FlotillaClient,
    readonly seat: Seat,
    options: PlayOptions = {},
  ) {
    this.etag = options.afterEtag ?? "";
    this.throughEventId = options.afterEventId ?? 0n;
    this.gateway = options.gateway ?? client.gateways.current;
  }

  /** The address of the gateway the stream runs on. */
  get address(): string {
    return this.client.gateways.stubs(this.gateway).address;
  }

  /** Sends `action` (with a prompt's `etag` to be refused if the game moved) and returns its
   * request id; its answer arrives on the iteration. */
  send(action: Action, options: { etag?: string; requestId?: string } = {}): string {
    const requestId = this.enqueue(action, options, {});
    this.start();
    return requestId;
  }

  /** Sends `action` and resolves when it is answered; rejects with the FlotillaError of a refused
   * submission (after resending it while its refusal was a rate limit with a RetryInfo delay). */
  submit(action: Action, options: { etag?: string; requestId?: string } = {}): Promise<Answer> {
    const answer = new Promise<Answer>((resolve, reject) => {
      this.enqueue(action, options, { resolve, reject });
    });
    this.start();
    return answer;
  }

  /** Submissions sent and not answered yet, by request id. */
  get unanswered(): string[] {
    return [...this.pending.keys()];
  }

  /** Ends the stream (cancels the call): the iteration ends; unanswered submissions are rejected. */
  close(): void {
    this.closed = true;
    this.requests?.close();
    this.controller?.abort();
    this.failPending(new FlotillaError(Code.Canceled, "the Play stream was closed before the answer"));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<PlayResponse> {
    if (this.iterated) throw new Error("a PlayStream is iterated once");
    this.iterated = true;
    this.start();
    try {
      yield* this.inbox;
      if (this.failure) throw this.failure;
    } finally {
      this.close();
    }
  }

  /** Runs the stream in the background (once): responses wait in the inbox for the iteration, so
   * an `await submit()` inside the iteration does not block its own answer. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    void (async () => {
      try {
        for await (const response of this.run()) this.inbox.push(response);
      } catch (error) {
        this.failure = FlotillaError.from(error);
      } finally {
        this.inbox.close();
      }
    })();
  }

  private enqueue(action: Action, options: { etag?: string; requestId?: string }, entry: Pick<Pending, "resolve" | "reject">): string {
    const requestId = options.requestId ?? crypto.randomUUID();
    const request: SubmitInit = { game: this.seat.game, action, etag: options.etag ?? "", requestId };
    this.pending.set(requestId, { request, retries: 0, ...entry });
    this.requests?.push({ kind: { case: "submit", value: request } });
    return requestId;
  }

  private async *run(): AsyncGenerator<PlayResponse> {
    let over = false;
    for (let attempt = 0; !this.closed; ) {
      const used = await this.client.fresh(this.seat.token);
      const requests = new AsyncQueue<MessageInitShape<typeof PlayRequestSchema>>();
      const open = { game: this.seat.game, afterEventId: this.throughEventId, afterEtag: this.etag };
      requests.push({ kind: { case: "open", value: open } });
      for (const { request } of this.pending.values()) requests.push({ kind: { case: "submit", value: request } });
      const controller = new AbortController();
      this.requests = requests;
      this.controller = controller;
      const options: CallOptions = { headers: bearer(used), signal: controller.signal };
      try {
        for await (const response of this.client.gateways.stubs(this.gateway).games.play(requests, options)) {
          attempt = 0;
          this.take(response);
          yield response;
          if (response.kind.case === "update") over ||= endsGame(response.kind.value);
        }
        if (over || (await this.client.isOver(this.seat.game))) return;
        throw new FlotillaError(Code.Unavailable, "the Play stream ended before the game did");
      } catch (error) {
        if (this.closed) return;
        const failure = FlotillaError.from(error);
        if (failure.reason === "ERROR_REASON_TOKEN_EXPIRED" && (await this.client.fresh(this.seat.token)) !== used) {
          this.reopened++;
          continue;
        }
        const delay = retryDelay(failure, true);
        if (delay === undefined || attempt >= this.client.maxRetries) {
          this.failPending(failure);
          throw failure;
        }
        attempt++;
        this.gateway++;
        this.reopened++;
        await this.client.pause(attempt, delay, failure);
      } finally {
        requests.close();
      }
    }
  }

  private take(response: PlayResponse): void {
    if (response.kind.case === "update") {
      const update = response.kind.value;
      this.etag = update.etag;
      this.throughEventId = update.throughEventId;
      for (const requestId of update.answeredRequestIds) {
        this.settle(requestId, { requestId, etag: update.etag, throughEventId: update.throughEventId, update });
      }
    } else if (response.kind.case === "outcome") {
      const outcome = response.kind.value;
      const error = FlotillaError.fromStatus(outcome.status);
      if (error) {
        if (!this.retryLater(outcome.requestId, error)) this.settle(outcome.requestId, error);
      } else this.settle(outcome.requestId, { requestId: outcome.requestId, etag: outcome.etag, throughEventId: outcome.throughEventId });
    }
  }

  /** Sends a refused submission again after its RetryInfo delay, when the refusal is retryable
   * (nothing was done) and retries are left; false when it must be answered as refused. */
  private retryLater(requestId: string, error: FlotillaError): boolean {
    const entry = this.pending.get(requestId);
    const delay = retryDelay(error, true); // the request id makes a resend safe
    if (!entry || delay === undefined || entry.retries >= this.client.maxRetries) return false;
    entry.retries++;
    this.resent++;
    void this.client.pause(entry.retries, delay, error).then(() => {
      if (this.pending.get(requestId) === entry) this.requests?.push({ kind: { case: "submit", value: entry.request } });
    });
    return true;
  }

  private settle(requestId: string, result: Answer | FlotillaError): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    if (result instanceof FlotillaError) entry.reject?.(result);
    else entry.resolve?.(result);
  }

  private failPending(error: FlotillaError): void {
    for (const [requestId, entry] of this.pending) {
      this.pending.delete(requestId);
      entry.reject?.(error);
    }
  }
}
