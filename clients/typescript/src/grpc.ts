/** The Node transport: gRPC over HTTP/2 with node's http2 module (the browser entry has none). */
import { Http2SessionManager, createGrpcTransport } from "@connectrpc/connect-node";

import type { TransportFactory } from "./gateways.js";

/** Plaintext (http://) or TLS (https://) gRPC over HTTP/2 with node's http2 module. */
export const grpcTransport: TransportFactory = (baseUrl) => {
  const sessionManager = new Http2SessionManager(baseUrl, { connectTimeoutMs: 5000, pingIntervalMs: 30_000 });
  return {
    transport: createGrpcTransport({ baseUrl, sessionManager }),
    close: () => sessionManager.abort(),
  };
};
