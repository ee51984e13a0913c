/**
 * @flotilla/client: a TypeScript client of the Flotilla game server, generated from its proto/
 * contract. `FlotillaClient` wraps the services; the generated messages are re-exported (the
 * envelopes flat, each game's messages under its name). This is the Node entry; `browser.ts` is the
 * browsers' (no node: modules, no default transport).
 */
import { type ClientOptions, FlotillaClient as ClientCore } from "./client.js";
import { KEEPALIVE, grpcTransport } from "./grpc.js";

/** {@link ClientCore} with gRPC over HTTP/2 (node's http2) as its default transport. */
export class FlotillaClient extends ClientCore {
  constructor(addresses: string | readonly string[], options: ClientOptions = {}) {
    super(addresses, { ...options, transport: options.transport ?? grpcTransport });
  }
}
// Everything the browsers' entry exports, but its FlotillaClient (a local export shadows `export *`).
export * from "./browser.js";
export { KEEPALIVE, grpcTransport };
export { verifySeedCommitment } from "./verify.js";
