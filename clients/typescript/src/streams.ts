/** Server streams that reopen by themselves: WatchRoom, WatchTicket (WatchGame and Play have their own). */
import type { CallOptions } from "@connectrpc/connect";

import type { FlotillaClient } from "./client.js";
import { FlotillaError, retryDelay } from "./errors.js";
import type { Stubs } from "./gateways.js";
import { bearer } from "./tokens.js";

/**
 * The messages of the stream `open` makes, reopened (failing over, with the token refreshed when
 * the one it was opened with expired) after each retryable failure until it ends. `open` is called
 * for every attempt: it reads the caller's resume point as it is then.
 */
export async function* resumed<T>(
  client: FlotillaClient,
  open: (stubs: Stubs, options: CallOptions) => AsyncIterable<T>,
  token: string,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  for (let attempt = 0; ; ) {
    const used = token ? await client.fresh(token) : "";
    const options: CallOptions = { headers: bearer(used) };
    if (signal) options.signal = signal;
    const at = client.gateways.current;
    try {
      for await (const message of open(client.gateways.stubs(at), options)) {
        attempt = 0;
        yield message;
      }
      return;
    } catch (error) {
      if (signal?.aborted) return;
      const failure = FlotillaError.from(error);
      if (failure.reason === "ERROR_REASON_TOKEN_EXPIRED" && token && (await client.fresh(token)) !== used) continue;
      const delay = retryDelay(failure, true);
      if (delay === undefined || attempt >= client.maxRetries) throw failure;
      attempt++;
      client.gateways.failover(at);
      await client.pause(attempt, delay, failure, signal);
    }
  }
}
