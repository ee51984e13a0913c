/** Errors of Flotilla calls: the gRPC code, the server's message and its `ErrorInfo` reason. */
import { anyUnpack } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";

import { ErrorReason } from "./gen/flotilla/api/game/v1/error_reason_pb.js";
import { ErrorInfoSchema, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import type { Status } from "./gen/google/rpc/status_pb.js";

export { Code };

/** A failed call. `reason` is the `ErrorReason` name (e.g. "ERROR_REASON_STALE_GAME_VERSION"). */
export class FlotillaError extends Error {
  override readonly name = "FlotillaError";

  constructor(
    /** The gRPC status code. */
    readonly code: Code,
    /** The server's message (at most 200 characters). */
    readonly rawMessage: string,
    /** The `google.rpc.ErrorInfo` reason, "" when the server sent none (e.g. a transport error). */
    readonly reason: string = "",
    /** The `ErrorInfo` metadata (e.g. `limit` of a RESOURCE_EXHAUSTED refusal). */
    readonly metadata: Readonly<Record<string, string>> = {},
    /** The `google.rpc.RetryInfo` delay in milliseconds, when the server sent one. */
    readonly retryDelayMs: number | undefined = undefined,
    options?: { cause?: unknown; transport?: boolean },
  ) {
    super(`[${Code[code] ?? code}${reason ? ` ${reason}` : ""}] ${rawMessage}`, options);
    this.transport = options?.transport ?? false;
  }

  /** True when the connection failed under the call (reset, refused, an HTTP/2 stream reset: a
   * gateway died or went away) rather than the server answering with this status. */
  readonly transport: boolean;

  /** True when the call never reached a server (the connection was refused or could not be made):
   * even a call without a request id may then be retried elsewhere. */
  get notSent(): boolean {
    let cause: unknown = this.cause;
    for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
      const code = (cause as { code?: unknown }).code;
      if (code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH") return true;
      cause = cause.cause;
    }
    return false;
  }

  /** The reason as the generated enum (`ErrorReason.UNSPECIFIED` when unknown to this client). */
  get reasonValue(): ErrorReason {
    const value = (ErrorReason as unknown as Record<string, number>)[this.reason.replace(/^ERROR_REASON_/, "")];
    return value ?? ErrorReason.UNSPECIFIED;
  }

  /** Whether the reason is `reason` (an `ErrorReason` value). */
  is(reason: ErrorReason): boolean {
    return this.reasonValue === reason && reason !== ErrorReason.UNSPECIFIED;
  }

  /** Converts whatever a connect call threw into a FlotillaError (kept as is when it is one). */
  static from(error: unknown): FlotillaError {
    if (error instanceof FlotillaError) return error;
    const connect = ConnectError.from(error);
    const info = connect.findDetails(ErrorInfoSchema)[0];
    const retry = connect.findDetails(RetryInfoSchema)[0];
    return new FlotillaError(
      connect.code,
      connect.rawMessage,
      info?.reason ?? "",
      info?.metadata ?? {},
      retry?.retryDelay ? durationMs(retry.retryDelay) : undefined,
      { cause: error, transport: info === undefined && fromTransport(connect) },
    );
  }

  /** The error carried by a `google.rpc.Status` (Play's `ActionOutcome.status`); undefined for OK. */
  static fromStatus(status: Status | undefined): FlotillaError | undefined {
    if (!status || status.code === 0) return undefined;
    let reason = "";
    let metadata: Record<string, string> = {};
    let retryDelayMs: number | undefined;
    for (const detail of status.details) {
      const info = anyUnpack(detail, ErrorInfoSchema);
      if (info) {
        reason = info.reason;
        metadata = info.metadata;
      }
      const retry = anyUnpack(detail, RetryInfoSchema);
      if (retry?.retryDelay) retryDelayMs = durationMs(retry.retryDelay);
    }
    return new FlotillaError(status.code as Code, status.message, reason, metadata, retryDelayMs);
  }
}

/** fetch's network failure in the browsers ("Failed to fetch", "NetworkError when attempting to
 * fetch resource.", "Load failed", a body cut short: "network error"), a TypeError. */
const FETCH_FAILED = /fetch|network|load failed/i;

/** Whether a connect error was made by this side's transport: a node error (ECONNRESET, EPIPE,
 * ERR_HTTP2_...) under it, an HTTP/2 stream reset, or in a browser a failed fetch or a Connect
 * stream cut before its end (connect-web's "missing EndStreamResponse": the gateway went away). */
function fromTransport(error: ConnectError): boolean {
  if (error.rawMessage.startsWith("http/2 stream closed with error code")) return true;
  if (error.code === Code.Unknown && error.cause === "missing EndStreamResponse") return true;
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (typeof (cause as { code?: unknown }).code === "string") return true;
    if (cause instanceof TypeError && FETCH_FAILED.test(cause.message)) return true;
    cause = cause.cause;
  }
  return false;
}

function durationMs(duration: { seconds: bigint; nanos: number }): number {
  return Number(duration.seconds) * 1000 + Math.floor(duration.nanos / 1e6);
}

/** Rate-limit waits longer than this are not retried (the caller decides). */
export const MAX_RATE_LIMIT_WAIT_MS = 5000;

/**
 * How long to wait at least before retrying a call that failed with `error`, or undefined when it
 * must not be retried. `idempotent`: the call carries a request id (or only reads), so a retry
 * after an unknown outcome is applied at most once.
 *
 * Retried: transport failures (whatever code they map to: a gateway that died resets its
 * connections), UNAVAILABLE, DEADLINE_EXCEEDED and CANCELLED that the caller did not ask for,
 * for idempotent calls only (the outcome is unknown) unless the connection was refused,
 * RESOURCE_EXHAUSTED with reason OVERLOADED or RATE_LIMITED (nothing was done) after its
 * `RetryInfo` delay (rate limits only up to MAX_RATE_LIMIT_WAIT_MS). QUOTA_EXCEEDED is not retried:
 * it lasts until the caller ends something it holds.
 */
export function retryDelay(error: FlotillaError, idempotent: boolean): number | undefined {
  if (error.transport) return idempotent || error.notSent ? 0 : undefined;
  switch (error.code) {
    case Code.Unavailable:
    case Code.DeadlineExceeded:
    case Code.Canceled: // not by the caller (who stops retrying once it cancels): a gateway died
      return idempotent || error.notSent ? 0 : undefined;
    case Code.ResourceExhausted:
      if (error.reason === "ERROR_REASON_OVERLOADED") return error.retryDelayMs ?? 0;
      if (error.reason === "ERROR_REASON_RATE_LIMITED") {
        const delay = error.retryDelayMs;
        return delay !== undefined && delay <= MAX_RATE_LIMIT_WAIT_MS ? delay : undefined;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The pause before retry `attempt` (1, 2, ...): the server's delay spread over [delay, 2 x delay],
 * plus exponential backoff with full jitter. */
export function retryPauseMs(attempt: number, atLeastMs: number, baseMs = 200, capMs = 10_000): number {
  return atLeastMs * (1 + Math.random()) + Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}
