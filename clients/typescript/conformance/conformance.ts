/**
 * Node conformance client: plays every game kind and mode to the end over two gateways with
 * random legal actions (a Navegador knight whenever one is for sale), written from proto/, the README and docs/ alone.
 *
 * Every seat plays on its own Play stream, starting on gateway `seat % 2`, and once mid-game
 * closes it and resumes on the other gateway with `after_event_id`; a spectator watches with
 * WatchGame and resumes on the other gateway too. Each of them must see every event exactly once,
 * in order; the game must finish with a result for every seat, and the revealed seed must match
 * the commitment published at creation.
 *
 *   FLOTILLA_GATEWAYS=127.0.0.1:50051,127.0.0.1:50052 node dist/conformance/conformance.js
 *
 * FLOTILLA_CONFORMANCE_SEED fixes the random choices (printed at the start);
 * FLOTILLA_CONFORMANCE_GAMES=counter,navegador plays only the named cases;
 * FLOTILLA_CONFORMANCE_TIMEOUT_S bounds the whole run (default 150).
 */
import {
  type Action,
  Code,
  type Game,
  GameState,
  FlotillaClient,
  FlotillaError,
  type Seat,
  type WatchGameResponse,
  verifySeedCommitment,
} from "../src/index.js";

/** One game to play: kind, seat count and creation options (docs/games.md). */
interface Case {
  readonly name: string;
  readonly kind: string;
  readonly seats: number;
  readonly options: Record<string, string>;
}

/** Every kind and mode, with seat counts and options chosen to keep the run short. */
export const CASES: readonly Case[] = [
  { name: "counter", kind: "counter", seats: 2, options: { moves: "20" } },
  { name: "port_royal/base", kind: "port_royal", seats: 2, options: { mode: "base" } },
  { name: "port_royal/base_plus", kind: "port_royal", seats: 2, options: { mode: "base_plus" } },
  { name: "port_royal/contract_comp", kind: "port_royal", seats: 2, options: { mode: "contract_comp" } },
  { name: "port_royal/contract_coop", kind: "port_royal", seats: 2, options: { mode: "contract_coop" } },
  { name: "sail_away", kind: "sail_away", seats: 3, options: {} },
  { name: "pirates_of_nassau", kind: "pirates_of_nassau", seats: 3, options: {} },
  { name: "navegador", kind: "navegador", seats: 2, options: {} },
];

/** Submissions one seat may make in one game before the run counts it as stuck. */
const MAX_SUBMISSIONS_PER_SEAT = 5000;

/** Refusals expected when several seats decide at once or a prompt went stale. */
const EXPECTED_REFUSALS = new Set([
  "ERROR_REASON_STALE_GAME_VERSION",
  "ERROR_REASON_NOT_YOUR_TURN",
  "ERROR_REASON_GAME_FINISHED",
]);

/** A small seeded PRNG (mulberry32), so a failing run can be replayed with its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class ConformanceFailure extends Error {}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ConformanceFailure(message);
}

/**
 * Tracks what one viewer received: every event must be the next id, a view (only at the start of
 * a stream from 0) covers the ids up to its through_event_id, and a resume carries on.
 */
export class EventLog {
  last = -1n; // nothing received yet
  events = 0;
  finished = false;
  finalScores: bigint[] = [];

  constructor(readonly who: string) {}

  take(update: WatchGameResponse): void {
    if (update.view) {
      check(this.last === -1n, `${this.who}: a full view mid-game (resync ${update.resyncReason}) after event ${this.last}`);
      check(update.view.throughEventId >= 1n, `${this.who}: the first view covers no event`);
      this.last = update.view.throughEventId;
    }
    check(this.last !== -1n, `${this.who}: the first message of a stream from 0 is not a view`);
    for (const event of update.events) {
      check(!this.finished, `${this.who}: event ${event.eventId} after GameFinished`);
      check(event.eventId === this.last + 1n, `${this.who}: event ${event.eventId} after ${this.last} (not gapless, or twice)`);
      this.last = event.eventId;
      this.events++;
      if (event.event.case === "gameFinished") {
        this.finished = true;
        this.finalScores = [...(event.event.value.result?.scores ?? [])];
      }
    }
    check(update.throughEventId === this.last, `${this.who}: through_event_id ${update.throughEventId}, last event ${this.last}`);
  }
}

/** What the seats of one game did. */
interface Counts {
  submissions: number;
  refusals: number;
  resumes: number;
  /** Submissions refused with a RetryInfo delay (rate limits) and sent again by the client. */
  resent: number;
}

interface Played {
  readonly game: Game;
  readonly logs: EventLog[];
  readonly submissions: number;
  readonly refusals: number;
  readonly resumes: number;
  readonly resent: number;
}

/** A uniformly random legal action, but a Navegador knight whenever one is for sale: random play
 * alone takes a Navegador game 1,000-2,000 decisions (the Python chaos tests choose the same way). */
function choose(legal: readonly Action[], random: () => number): Action {
  const knight = legal.find((a) => a.game.case === "navegador" && a.game.value.kind.case === "buyKnight");
  return knight ?? (legal[Math.floor(random() * legal.length)] as Action);
}

/** One seat: plays random legal actions on a Play stream and resumes once on the other gateway. */
async function playSeat(
  client: FlotillaClient,
  seat: Seat,
  log: EventLog,
  random: () => number,
  resumeAfterEvents: number,
  counts: Counts,
  failures: string[],
): Promise<void> {
  let gateway = seat.seat % client.gateways.addresses.length;
  let resumed = false;
  let submissions = 0;
  for (;;) {
    const stream = client.play(
      seat,
      log.last === -1n ? { gateway } : { gateway, afterEventId: log.last },
    );
    let outstanding = 0;
    let reopen = false;
    for await (const response of stream) {
      if (response.kind.case === "outcome") {
        // Answers of submissions this loop did not await (submit() settles them): nothing to do.
        continue;
      }
      if (response.kind.case !== "update") continue;
      const update = response.kind.value;
      log.take(update);
      if (!resumed && log.events >= resumeAfterEvents && outstanding === 0 && !log.finished) {
        resumed = true;
        reopen = true;
        stream.close();
        break;
      }
      const prompt = update.prompt;
      if (!prompt) continue;
      check(prompt.seat === seat.seat, `${log.who}: a prompt for seat ${prompt.seat}`);
      check(prompt.legalActions.length > 0, `${log.who}: a prompt without legal actions`);
      const action = choose(prompt.legalActions, random);
      submissions++;
      counts.submissions++;
      check(submissions <= MAX_SUBMISSIONS_PER_SEAT, `${log.who}: over ${MAX_SUBMISSIONS_PER_SEAT} submissions`);
      outstanding++;
      stream.submit(action, { etag: prompt.etag }).then(
        () => {
          outstanding--;
        },
        (error: unknown) => {
          outstanding--;
          const expected =
            error instanceof FlotillaError &&
            (EXPECTED_REFUSALS.has(error.reason) || (error.code === Code.Canceled && log.finished));
          if (expected) counts.refusals++;
          else failures.push(`${log.who}: submission refused: ${String(error)}`);
        },
      );
    }
    counts.resent += stream.resent;
    if (!reopen) break;
    gateway = (gateway + 1) % client.gateways.addresses.length;
    counts.resumes++;
  }
  check(log.finished, `${log.who}: the stream ended before GameFinished`);
}

/** A spectator: watches from 0 on gateway 1, stops mid-game and resumes on gateway 0. */
async function spectate(client: FlotillaClient, game: string, log: EventLog, resumeAfterEvents: number): Promise<number> {
  const first = new AbortController();
  let resumes = 0;
  for await (const update of client.watch(game, { signal: first.signal })) {
    log.take(update);
    if (log.events >= resumeAfterEvents && !log.finished) {
      first.abort();
      break;
    }
  }
  if (!log.finished) {
    client.gateways.failover(client.gateways.current); // resume on the other gateway
    resumes++;
    for await (const update of client.watch(game, { afterEventId: log.last })) log.take(update);
  }
  check(log.finished, `${log.who}: the watch ended before GameFinished`);
  return resumes;
}

async function playCase(addresses: readonly string[], spec: Case, random: () => number): Promise<Played> {
  const clients: FlotillaClient[] = [];
  const client = (first: number): FlotillaClient => {
    const rotated = [...addresses.slice(first), ...addresses.slice(0, first)];
    const made = new FlotillaClient(rotated);
    clients.push(made);
    return made;
  };
  try {
    const host = client(0);
    await host.signIn("conformance-host");
    const created = await host.createGame(spec.kind, spec.seats, { options: spec.options });
    check(created.state === GameState.WAITING, `${spec.name}: a new game is in state ${created.state}`);
    check(/^[0-9a-f]{64}$/.test(created.seedSha256), `${spec.name}: seed_sha256 ${created.seedSha256} is not hex SHA-256`);
    const players: { client: FlotillaClient; seat: Seat }[] = [];
    for (let i = 0; i < spec.seats; i++) {
      const player = client(0);
      await player.signIn(`conformance-${i}`);
      players.push({ client: player, seat: await player.join(created.name) });
    }
    const counts: Counts = { submissions: 0, refusals: 0, resumes: 0, resent: 0 };
    const failures: string[] = []; // refusals of submissions the seats did not wait for
    const logs = players.map(({ seat }) => new EventLog(`${spec.name} seat ${seat.seat}`));
    const spectatorLog = new EventLog(`${spec.name} spectator`);
    const spectator = client(1);
    await spectator.signIn("conformance-spectator");
    const resumeAt = () => 3 + Math.floor(random() * 15);
    const [spectatorResumes] = await Promise.all([
      spectate(spectator, created.name, spectatorLog, resumeAt()),
      ...players.map(({ client: c, seat }, i) => playSeat(c, seat, logs[i] as EventLog, random, resumeAt(), counts, failures)),
    ]);
    counts.resumes += spectatorResumes;
    check(counts.resumes >= 1, `${spec.name}: nobody resumed on the other gateway`);
    check(failures.length === 0, failures.join("; "));
    const game = await host.getGame(created.name);
    check(game.state === GameState.FINISHED, `${spec.name}: GetGame says state ${game.state} after GameFinished`);
    const result = game.result;
    check(result !== undefined, `${spec.name}: a finished game without a result`);
    check(result.scores.length === spec.seats, `${spec.name}: ${result.scores.length} scores for ${spec.seats} seats`);
    check(result.ranks.length === spec.seats, `${spec.name}: ${result.ranks.length} ranks for ${spec.seats} seats`);
    for (const log of [...logs, spectatorLog]) {
      check(log.last === game.lastEventId, `${log.who}: last event ${log.last}, the game's ${game.lastEventId}`);
      check(
        log.finalScores.join() === result.scores.join(),
        `${log.who}: GameFinished scores ${log.finalScores.join()} differ from GetGame's ${result.scores.join()}`,
      );
    }
    const record = await host.getGameRecord(created.name);
    check(verifySeedCommitment(record.seed, created.seedSha256), `${spec.name}: seed ${record.seed} does not hash to seed_sha256`);
    check(record.actions.length > 0, `${spec.name}: an empty action log`);
    return { game, logs: [...logs, spectatorLog], ...counts };
  } finally {
    for (const made of clients) made.close();
  }
}

async function main(): Promise<void> {
  const addresses = (process.env.FLOTILLA_GATEWAYS ?? "").split(",").filter(Boolean);
  if (addresses.length < 2) throw new ConformanceFailure("set FLOTILLA_GATEWAYS to two or more gateway addresses");
  const seed = Number(process.env.FLOTILLA_CONFORMANCE_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const only = (process.env.FLOTILLA_CONFORMANCE_GAMES ?? "").split(",").filter(Boolean);
  const cases = only.length ? CASES.filter((c) => only.includes(c.name) || only.includes(c.kind)) : CASES;
  check(cases.length > 0, `no case named ${only.join(",")}`);
  const timeoutS = Number(process.env.FLOTILLA_CONFORMANCE_TIMEOUT_S ?? 150);
  console.log(`conformance: seed ${seed}, gateways ${addresses.join(" ")}, ${cases.length} games`);
  const timer = setTimeout(() => {
    console.error(`conformance: not done after ${timeoutS} s`);
    process.exit(1);
  }, timeoutS * 1000);
  const started = Date.now();
  const outcomes = await Promise.allSettled(
    cases.map(async (spec, i) => {
      const t0 = Date.now();
      const played = await playCase(addresses, spec, rng(seed + i));
      const finals = played.game.result?.scores.join("/") ?? "";
      console.log(
        `ok ${spec.name} seats=${spec.seats} events=${played.game.lastEventId} submissions=${played.submissions}` +
          ` refused=${played.refusals} resent=${played.resent} resumes=${played.resumes} scores=${finals} ${Date.now() - t0} ms`,
      );
    }),
  );
  clearTimeout(timer);
  outcomes.forEach((outcome, i) => {
    if (outcome.status === "rejected") {
      const reason: unknown = outcome.reason;
      const text = reason instanceof ConformanceFailure ? reason.message : reason instanceof Error ? (reason.stack ?? String(reason)) : String(reason);
      console.error(`FAIL ${cases[i]?.name}: ${text}`);
    }
  });
  const passed = outcomes.filter((o) => o.status === "fulfilled").length;
  console.log(`conformance: ${Date.now() - started} ms`);
  console.log(`${passed} passed, ${cases.length - passed} failed`);
  process.exitCode = passed === cases.length ? 0 : 1;
}

await main();
