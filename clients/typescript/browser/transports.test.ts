/**
 * The client over the browsers' transports: Connect (binary and JSON) and gRPC-Web on HTTP/1.1, as
 * a page's fetch speaks them, against the gateway's browser listener at FLOTILLA_BROWSER
 * (tests/typescript starts one). Run with `node --test dist/browser/`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";

import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";

import { Code, ErrorReason, FlotillaClient, FlotillaError, type TransportFactory } from "../src/index.js";

const ADDRESS = process.env.FLOTILLA_BROWSER ?? "";
const TRANSPORTS: Record<string, TransportFactory> = {
  "connect binary": (baseUrl) => ({
    transport: createConnectTransport({ baseUrl, httpVersion: "1.1" }),
    close: () => {},
  }),
  "connect json": (baseUrl) => ({
    transport: createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: false }),
    close: () => {},
  }),
  "grpc-web": (baseUrl) => ({
    transport: createGrpcWebTransport({ baseUrl, httpVersion: "1.1" }),
    close: () => {},
  }),
};

describe("the browsers' transports", { skip: ADDRESS ? false : "set FLOTILLA_BROWSER to a browser listener" }, () => {
  for (const [name, transport] of Object.entries(TRANSPORTS)) {
    it(`${name}: signs in, creates a game, watches it from event 0, gets typed errors`, { timeout: 20_000 }, async () => {
      const client = new FlotillaClient(ADDRESS, { transport, backoffMs: 20 });
      try {
        await client.signIn(`web ${name}`);
        const game = await client.createGame("counter", 2);
        const stop = new AbortController();
        for await (const update of client.watch(game.name, { signal: stop.signal })) {
          assert.equal(update.view?.game, game.name);
          stop.abort();
        }
        await assert.rejects(client.getGame(`games/${randomUUID().replaceAll("-", "")}`), (error: unknown) => {
          assert.ok(error instanceof FlotillaError, `not a FlotillaError: ${String(error)}`);
          assert.equal(error.code, Code.NotFound, error.message);
          assert.ok(error.is(ErrorReason.GAME_NOT_FOUND), error.reason);
          return true;
        });
        await assert.rejects(client.createGame("chess", 2), (error: unknown) => {
          assert.ok(error instanceof FlotillaError && error.is(ErrorReason.UNKNOWN_GAME_KIND), String(error));
          return true;
        });
      } finally {
        client.close();
      }
    });
  }
});
