/**
 * Tests of @flotilla/client: units first, then calls against a real server at the gateways in
 * FLOTILLA_GATEWAYS (two or more; pytest's tests/typescript starts them). Run with
 * `node --test dist/test/`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, it } from "node:test";

import { create } from "@bufbuild/protobuf";
import { anyPack, DurationSchema } from "@bufbuild/protobuf/wkt";
import { ConnectError } from "@connectrpc/connect";

import {
  type Action,
  ActionSchema,
  Code,
  ErrorReason,
  FlotillaClient,
  FlotillaError,
  GameState,
  KEEPALIVE,
  PromptSchema,
  type Seat,
  type WatchGameResponse,
  counter,
  defaultAction,
  needsRefresh,
  retryDelay,
  tokenTimes,
  verifySeedCommitment,
} from "../src/index.js";
import { ErrorInfoSchema, RetryInfoSchema } from "../src/gen/google/rpc/error_details_pb.js";
import { StatusSchema } from "../src/gen/google/rpc/status_pb.js";

const GATEWAYS = (process.env.FLOTILLA_GATEWAYS ?? "").split(",").filter(Boolean);
const DEAD = "127.0.0.1:1"; // nothing listens on port 1: connections are refused at once

function add(n: number): Action {
  return create(ActionSchema, { game: { case: "counter", value: { kind: { case: "add", value: { n: BigInt(n) } } } } });
}

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256" })}.${part(claims)}.sig`;
}

async function rejects(call: Promise<unknown>, code: Code, reason: ErrorReason): Promise<FlotillaError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof FlotillaError, `not a FlotillaError: ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.ok(error.is(reason), `reason ${error.reason}, wanted ${ErrorReason[reason]}`);
    assert.ok(error.rawMessage.length > 0 && error.rawMessage.length <= 200, "a short message to act on");
    return error;
  }
  assert.fail(`no error; wanted ${ErrorReason[reason]}`);
}

describe("units", () => {
  it("reads ErrorInfo and RetryInfo from a google.rpc.Status (Play's ActionOutcome)", () => {
    const status = create(StatusSchema, {
      code: Code.ResourceExhausted,
      message: "slow down",
      details: [
        anyPack(ErrorInfoSchema, create(ErrorInfoSchema, { reason: "ERROR_REASON_RATE_LIMITED", domain: "flotilla.dev", metadata: { limit: "submit_per_user" } })),
        anyPack(RetryInfoSchema, create(RetryInfoSchema, { retryDelay: create(DurationSchema, { seconds: 1n, nanos: 250_000_000 }) })),
      ],
    });
    const error = FlotillaError.fromStatus(status);
    assert.ok(error);
    assert.equal(error.code, Code.ResourceExhausted);
    assert.ok(error.is(ErrorReason.RATE_LIMITED));
    assert.equal(error.metadata.limit, "submit_per_user");
    assert.equal(error.retryDelayMs, 1250);
    assert.equal(retryDelay(error, false), 1250, "nothing was done: retried even without a request id");
    assert.equal(FlotillaError.fromStatus(create(StatusSchema, { code: 0 })), undefined);
  });

  it("counts a browser's failed fetch and a cut Connect stream as transport failures", () => {
    const fetchFailed = FlotillaError.from(new ConnectError("Failed to fetch", Code.Unknown, undefined, undefined, new TypeError("Failed to fetch")));
    assert.ok(fetchFailed.transport);
    assert.equal(retryDelay(fetchFailed, true), 0, "an idempotent call is retried");
    assert.equal(retryDelay(fetchFailed, false), undefined, "the outcome is unknown: not without a request id");
    const cut = FlotillaError.from(ConnectError.from("missing EndStreamResponse"));
    assert.ok(cut.transport, "connect-web's stream that ended before its end message");
    const bug = FlotillaError.from(new ConnectError("x is not a function", Code.Unknown, undefined, undefined, new TypeError("x is not a function")));
    assert.equal(bug.transport, false, "another TypeError is no transport failure");
  });

  it("pings its gateway so a dead connection is noticed within 15 s, no more often than the gateway allows", () => {
    // The gateway's floor: grpc.http2.min_ping_interval_without_data_ms, 5 s (gateway/server.py).
    assert.ok(KEEPALIVE.pingIntervalMs >= 2 * 5_000, "twice the gateway's floor: room for timer jitter");
    assert.ok(KEEPALIVE.pingIntervalMs + KEEPALIVE.pingTimeoutMs <= 15_000, "a dead connection closes within 15 s");
    assert.equal(KEEPALIVE.pingIdleConnection, true, "an idle connection is checked too");
  });

  it("retries what may be retried, and only that", () => {
    const error = (code: Code, reason = "", delay?: number) => new FlotillaError(code, "m", reason, {}, delay);
    assert.equal(retryDelay(error(Code.Unavailable), true), 0);
    assert.equal(retryDelay(error(Code.Unavailable), false), undefined, "unknown outcome, no request id");
    assert.equal(retryDelay(error(Code.DeadlineExceeded, "ERROR_REASON_NO_WORKER_ANSWER"), true), 0);
    assert.equal(retryDelay(error(Code.ResourceExhausted, "ERROR_REASON_OVERLOADED", 300), false), 300);
    assert.equal(retryDelay(error(Code.ResourceExhausted, "ERROR_REASON_RATE_LIMITED", 60_000), true), undefined);
    assert.equal(retryDelay(error(Code.ResourceExhausted, "ERROR_REASON_QUOTA_EXCEEDED"), true), undefined);
    assert.equal(retryDelay(error(Code.Aborted, "ERROR_REASON_STALE_GAME_VERSION"), true), undefined);
    assert.equal(retryDelay(error(Code.FailedPrecondition, "ERROR_REASON_ILLEGAL_ACTION"), true), undefined);
  });

  it("refreshes a token once less than a third of its lifetime is left", () => {
    const token = jwt({ iss: "flotilla", iat: 1000, exp: 1900 });
    assert.deepEqual(tokenTimes(token), { issuedAt: 1000, expiresAt: 1900 });
    assert.equal(needsRefresh(token, 1500_000), false);
    assert.equal(needsRefresh(token, 1700_000), true);
    assert.equal(tokenTimes(jwt({ iss: "someone-else", iat: 1, exp: 2 })), undefined);
    assert.equal(tokenTimes("not a jwt"), undefined);
    assert.equal(needsRefresh("not a jwt"), false, "an external token is refreshed with its issuer");
  });

  it("falls back to the prompt's default action, else its first legal action", () => {
    const legalActions = [add(1), add(2)];
    assert.equal(defaultAction(create(PromptSchema, { legalActions, defaultActionIndex: 1 })), legalActions[1]);
    assert.equal(defaultAction(create(PromptSchema, { legalActions })), legalActions[0]); // an older server
    assert.equal(defaultAction(create(PromptSchema, { legalActions, defaultActionIndex: 5 })), legalActions[0]);
    assert.equal(defaultAction(create(PromptSchema, {})), undefined);
  });

  it("checks a seed against its commitment", () => {
    const seed = "000102030405060708090a0b0c0d0e0f";
    const sha = "be45cb2605bf36bebde684841a28f0fd43c69850a3dce5fedba69928ee3a8991"; // of those 16 bytes
    assert.equal(verifySeedCommitment(seed, sha), true);
    assert.equal(verifySeedCommitment(seed.replace("0f", "10"), sha), false);
    assert.equal(verifySeedCommitment("not hex", sha), false);
  });
});

describe("against a server", { skip: GATEWAYS.length < 2 ? "set FLOTILLA_GATEWAYS to two gateways" : false }, () => {
  const clients: FlotillaClient[] = [];
  const client = (addresses: readonly string[] = GATEWAYS) => {
    const made = new FlotillaClient(addresses, { backoffMs: 20 });
    clients.push(made);
    return made;
  };
  const signedIn = async (name: string, addresses: readonly string[] = GATEWAYS) => {
    const made = client(addresses);
    await made.signIn(name);
    return made;
  };
  after(() => {
    for (const made of clients.splice(0)) made.close();
  });
  const newGame = async (host: FlotillaClient, moves: number) => host.createGame("counter", 2, { options: { moves: String(moves) } });

  it("plays a game: create, list, join on two gateways, Play with a resume on the other gateway, watch, record", { timeout: 20_000 }, async () => {
    const [first, second] = GATEWAYS as [string, string];
    const alice = await signedIn("alice", [first, second]);
    const bob = await signedIn("bob", [second, first]);
    const game = await newGame(alice, 8);
    assert.equal(game.state, GameState.WAITING);
    let listed = false;
    for await (const g of alice.allGames({ kind: "counter", state: GameState.WAITING, pageSize: 20 })) {
      if (g.name === game.name) {
        listed = true;
        break;
      }
    }
    assert.ok(listed, "ListGames lists the new game");
    const seats = [await alice.join(game.name), await bob.join(game.name)] as [Seat, Seat];
    assert.deepEqual(seats.map((s) => s.seat), [0, 1]);

    // Seat 0 plays on Play, seat 1 with SubmitAction while it watches; a spectator watches too.
    const seen: bigint[][] = [[], [], []];
    const record = (who: number, update: WatchGameResponse) => {
      if (update.view) seen[who]?.push(-update.view.throughEventId);
      for (const event of update.events) seen[who]?.push(event.eventId);
    };
    const playSeat0 = async () => {
      let stream = alice.play(seats[0], { gateway: 0 });
      let resumed = false;
      for (;;) {
        let reopen = false;
        for await (const response of stream) {
          if (response.kind.case !== "update") continue;
          record(0, response.kind.value);
          const prompt = response.kind.value.prompt;
          if (!prompt) continue;
          if (!resumed && stream.throughEventId >= 3n) {
            resumed = true;
            reopen = true; // at a prompt: the resume must prompt again
            break;
          }
          assert.equal(prompt.defaultActionIndex, 0, "the counter's default, Add(1), is its first legal action");
          const answer = await stream.submit(defaultAction(prompt) as Action, { etag: prompt.etag });
          assert.ok(answer.update, "an accepted submission is answered by the update with its events");
        }
        if (!reopen) return;
        stream.close();
        stream = alice.play(seats[0], { gateway: 1, afterEventId: stream.throughEventId });
        assert.equal(stream.address, second);
      }
    };
    const playSeat1 = async () => {
      for await (const update of bob.watch(game.name, { seat: seats[1] })) {
        record(1, update);
        if (update.prompt) await bob.submit(seats[1], update.prompt.legalActions[1] as Action, { etag: update.prompt.etag });
      }
    };
    const spectate = async () => {
      const viewer = await signedIn("viewer", [second]);
      for await (const update of viewer.watch(game.name)) record(2, update);
    };
    await Promise.all([playSeat0(), playSeat1(), spectate()]);

    const finished = await alice.getGame(game.name);
    assert.equal(finished.state, GameState.FINISHED);
    assert.deepEqual(finished.result?.scores, [12n, 12n], "the total, 4 x 1 + 4 x 2, for both seats");
    for (const ids of seen) {
      const start = -(ids[0] ?? 0n);
      assert.ok(start >= 1n, "every stream from 0 starts with a view");
      assert.deepEqual(ids.slice(1), Array.from({ length: Number(finished.lastEventId - start) }, (_, i) => start + 1n + BigInt(i)));
    }
    const log = await alice.getGameRecord(game.name);
    assert.equal(log.actions.length, 8);
    assert.ok(verifySeedCommitment(log.seed, game.seedSha256), "the revealed seed hashes to the commitment");
    const third = log.actions[2]?.throughEventId ?? 0n;
    const replayed = (await alice.getViewAt(game.name, third)).view; // alice's seat, after the third action
    assert.equal(replayed?.throughEventId, third);
    assert.equal(replayed?.view.case === "counter" ? replayed.view.value.total : -1n, 4n, "1 + 2 + 1");
  });

  it("answers bad input with its ErrorInfo reason and changes nothing", { timeout: 20_000 }, async () => {
    const host = await signedIn("errors");
    await rejects(host.getGame(`games/${"0".repeat(32)}`), Code.NotFound, ErrorReason.GAME_NOT_FOUND);
    await rejects(host.getGame("chess"), Code.InvalidArgument, ErrorReason.INVALID_REQUEST);
    await rejects(host.createGame("chess", 2), Code.InvalidArgument, ErrorReason.UNKNOWN_GAME_KIND);
    await rejects(host.createGame("counter", 7), Code.InvalidArgument, ErrorReason.INVALID_CONFIG);
    const game = await newGame(host, 4);
    const seat0 = await host.join(game.name);
    const other = await signedIn("errors-2");
    const seat1 = await other.join(game.name);
    assert.equal((await other.join(game.name)).seat, seat1.seat, "joining again returns the seat held");
    await rejects((await signedIn("errors-3")).join(game.name), Code.FailedPrecondition, ErrorReason.GAME_FULL);
    const moved = await host.submit(seat0, add(1)); // seat 1 is to act now; game.etag is stale
    const sessionAsSeat = { ...seat1, token: (await signedIn("not-seated")).sessionToken };
    await rejects(host.submit(sessionAsSeat, add(1)), Code.PermissionDenied, ErrorReason.SEAT_TOKEN_REQUIRED);
    await rejects(host.submit(seat0, add(1)), Code.FailedPrecondition, ErrorReason.NOT_YOUR_TURN);
    await rejects(other.submit(seat1, add(1), { etag: "1.x" }), Code.InvalidArgument, ErrorReason.INVALID_REQUEST);
    await rejects(other.submit(seat1, add(1), { etag: game.etag }), Code.Aborted, ErrorReason.STALE_GAME_VERSION);
    await rejects(other.submit(seat1, add(2_000_000)), Code.InvalidArgument, ErrorReason.INVALID_ACTION);
    await rejects(other.submit(seat1, create(ActionSchema)), Code.InvalidArgument, ErrorReason.INVALID_ACTION);
    const after = await host.getGame(game.name);
    assert.equal(after.etag, moved.etag, "no refused call moved the game");
    assert.equal(after.state, GameState.ACTIVE);
  });

  it("applies a retried submission once (the same request id, by SubmitAction and on Play)", { timeout: 20_000 }, async () => {
    const host = await signedIn("idempotent");
    const game = await newGame(host, 4);
    const seat = await host.join(game.name);
    await host.join(game.name);
    const requestId = randomUUID();
    const firstTry = await host.submit(seat, add(2), { requestId });
    const again = await host.submit(seat, add(2), { requestId });
    assert.equal(again.etag, firstTry.etag);
    assert.equal(again.throughEventId, firstTry.throughEventId);
    assert.equal((await host.getGame(game.name)).lastEventId, firstTry.throughEventId, "applied once");

    const stream = host.play(seat);
    const replayed = stream.submit(add(2), { requestId }); // its first attempt was applied: an outcome answers
    const settled = replayed.finally(() => stream.close());
    for await (const _ of stream) {
      // iterating the stream settles its submissions
    }
    const answer = await settled;
    assert.equal(answer.update, undefined, "answered by an outcome, not by an update");
    assert.equal(answer.etag, firstTry.etag);
    assert.equal((await host.getGame(game.name)).lastEventId, firstTry.throughEventId, "still applied once");
  });

  it("answers a refused Play submission with an outcome carrying its ErrorInfo", { timeout: 20_000 }, async () => {
    const host = await signedIn("play-refusal");
    const game = await newGame(host, 4);
    const seat0 = await host.join(game.name);
    const other = await signedIn("play-refusal-2");
    const seat1 = await other.join(game.name);
    await host.submit(seat0, add(1)); // seat 1 is to act now
    const stream = other.play(seat1);
    const refused = stream.submit(add(1), { etag: game.etag }).then(
      () => assert.fail("a stale etag was accepted"),
      (error: unknown) => error,
    );
    const settled = refused.finally(() => stream.close());
    for await (const _ of stream) {
      // iterating the stream settles its submissions
    }
    const error = await settled;
    assert.ok(error instanceof FlotillaError, String(error));
    assert.equal(error.code, Code.Aborted);
    assert.ok(error.is(ErrorReason.STALE_GAME_VERSION), error.reason);
  });

  it("fails over from an address that refuses connections, even for JoinGame", { timeout: 20_000 }, async () => {
    const retried: FlotillaError[] = [];
    const made = new FlotillaClient([DEAD, GATEWAYS[0] as string], { backoffMs: 10, onRetry: (error) => retried.push(error) });
    clients.push(made);
    await made.signIn("failover");
    assert.equal(retried.length, 1);
    assert.equal(retried[0]?.code, Code.Unavailable);
    const game = await newGame(made, 2);
    made.gateways.failover(made.gateways.current); // back to the dead address: JoinGame has no request id, yet nothing was sent
    const seat = await made.join(game.name);
    assert.equal(seat.seat, 0);
    assert.equal(retried.length, 2);
  });

  it("moves on once when calls fail together, not once each", { timeout: 20_000 }, async () => {
    const made = new FlotillaClient([DEAD, GATEWAYS[0] as string], { backoffMs: 10, retries: 2 });
    clients.push(made);
    await made.signIn("together"); // fails over: on the live gateway now
    made.gateways.failover(made.gateways.current); // back on the dead one, as a crash would leave it
    const games = await Promise.all(Array.from({ length: 8 }, () => newGame(made, 2)));
    assert.equal(new Set(games.map((g) => g.name)).size, 8);
    assert.equal(made.gateways.current % 2, 1, "eight failures moved it on once: to the live gateway, not back");
  });

  it("waits out a rate limit for its RetryInfo delay", { timeout: 20_000 }, async () => {
    const eager = new FlotillaClient(GATEWAYS, { retries: 0 });
    clients.push(eager);
    await eager.signIn("rate-limited");
    let limited: FlotillaError | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      await eager.createGame("counter", 2).catch((error: unknown) => {
        assert.ok(error instanceof FlotillaError, String(error));
        limited = error;
      });
    }
    assert.ok(limited, "30 CreateGame calls in a row passed create_game_per_user");
    assert.equal(limited.code, Code.ResourceExhausted);
    assert.ok(limited.is(ErrorReason.RATE_LIMITED), limited.reason);
    assert.ok((limited.retryDelayMs ?? 0) > 0, "a RetryInfo delay");
    const retried: FlotillaError[] = [];
    const patient = new FlotillaClient(GATEWAYS, { backoffMs: 10, onRetry: (error) => retried.push(error) });
    clients.push(patient);
    patient.useToken(eager.sessionToken);
    // The bucket is empty now; should a stall have refilled it, the second call meets the limit.
    for (let i = 0; i < 2 && retried.length === 0; i++) {
      const started = Date.now();
      await patient.createGame("counter", 2);
      if (retried.length > 0) assert.ok(Date.now() - started >= (limited.retryDelayMs ?? 0), "waited the delay out");
    }
    assert.ok(retried.some((error) => error.is(ErrorReason.RATE_LIMITED)), "retried after the rate limit");
  });
});
