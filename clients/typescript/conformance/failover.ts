/**
 * Streams survive a gateway that dies: two seats play a counter game on Play streams and a
 * spectator watches, all on the second gateway of FLOTILLA_GATEWAYS. Mid-game this prints
 * "kill gateway 1" and stops moving until the runner has killed that gateway; every stream must
 * then reopen on the other gateway by itself and carry on from where it was, each event exactly
 * once, to the end of the game.
 *
 *   FLOTILLA_GATEWAYS=a,b node dist/conformance/failover.js   (the runner kills b when told)
 */
import { type Action, FlotillaClient, GameState, type WatchGameResponse } from "../src/index.js";

const MOVES = 120;
const KILL_AT_EVENT = 40n;
const TIMEOUT_MS = 60_000;

const addresses = (process.env.FLOTILLA_GATEWAYS ?? "").split(",").filter(Boolean);
if (addresses.length < 2) throw new Error("set FLOTILLA_GATEWAYS to two gateway addresses");
const [first, second] = addresses as [string, string];
const timer = setTimeout(() => {
  console.error(`failover: not done after ${TIMEOUT_MS} ms`);
  process.exit(1);
}, TIMEOUT_MS);

let killRequested = false;
const retries: string[] = [];
const made = (order: string[]) => {
  const client = new FlotillaClient(order, { backoffMs: 20, onRetry: (error) => retries.push(error.message) });
  return client;
};

/** Checks gapless, exactly-once delivery; returns whether the update ended the game. */
function tracker(who: string) {
  let last = -1n;
  return (update: WatchGameResponse): bigint => {
    if (update.view) {
      if (last !== -1n) throw new Error(`${who}: a full view mid-game after event ${last}`);
      last = update.view.throughEventId;
    }
    for (const event of update.events) {
      if (event.eventId !== last + 1n) throw new Error(`${who}: event ${event.eventId} after ${last}`);
      last = event.eventId;
    }
    return last;
  };
}

const host = made([second, first]);
await host.signIn("failover-host");
const game = await host.createGame("counter", 2, { options: { moves: String(MOVES) } });
const players = [made([second, first]), made([second, first])];
const seats = [];
for (const [i, player] of players.entries()) {
  await player.signIn(`failover-${i}`);
  seats.push(await player.join(game.name));
}

const reopened: number[] = [];
await Promise.all([
  ...seats.map(async (seat, i) => {
    const stream = (players[i] as FlotillaClient).play(seat, { gateway: 0 }); // the second address
    const take = tracker(`seat ${seat.seat}`);
    for await (const response of stream) {
      if (response.kind.case !== "update") continue;
      const last = take(response.kind.value);
      if (last >= KILL_AT_EVENT && !killRequested) {
        killRequested = true;
        console.log("kill gateway 1");
      }
      const prompt = response.kind.value.prompt;
      // Once the kill is asked for, no move until this stream has reopened elsewhere: the game
      // waits for the prompt that the resume on the other gateway ends with.
      if (prompt && (!killRequested || stream.reopened > 0)) {
        stream.send(prompt.legalActions[0] as Action, { etag: prompt.etag });
      }
    }
    reopened.push(stream.reopened);
    if (stream.address !== first) throw new Error(`seat ${seat.seat} ended on ${stream.address}, not ${first}`);
  }),
  (async () => {
    const take = tracker("spectator");
    for await (const update of host.watch(game.name)) take(update);
  })(),
]);

const finished = await host.getGame(game.name);
if (finished.state !== GameState.FINISHED) throw new Error(`the game is in state ${finished.state}`);
if (!killRequested || reopened.some((n) => n < 1)) throw new Error(`streams reopened ${reopened.join(",")} times`);
console.log(`failover: ${finished.lastEventId} events, streams reopened ${reopened.join(",")}, retries: ${retries.length}`);
for (const client of [host, ...players]) client.close();
clearTimeout(timer);
