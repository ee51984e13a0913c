/** The Node transport: gRPC over HTTP/2 with node's http2 module (the browser entry has none). */
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";

import type { TransportFactory } from "./gateways.js";

/**
 * HTTP/2 keepalive (as the Python SDK's): a connection that answers nothing (a gateway gone, a
 * black-holed path) is closed `pingIntervalMs + pingTimeoutMs` after it last received anything, so
 * its calls fail (UNAVAILABLE) and move to the next gateway. The gateway accepts pings this often.
 */
export const KEEPALIVE = { pingIntervalMs: 10_000, pingTimeoutMs: 5_000, pingIdleConnection: true } as const;

/** Plaintext (http://) or TLS (https://) gRPC over HTTP/2 with node's http2 module. */
export const grpcTransport: TransportFactory = (baseUrl) => {
  const sessionManager = new Http2SessionManager(baseUrl, { connectTimeoutMs: 5000, ...KEEPALIVE });
  return {
    transport: createGrpcTransport({ baseUrl, sessionManager }),
    close: () => sessionManager.abort(),
  };
};
