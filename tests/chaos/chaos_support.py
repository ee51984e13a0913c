"""The chaos suite's players: random bots (SubmitAction or Play) and spectators on real gateways.

Every bot and spectator has its own SDK client over all the stack's gateways (each starting on a
different one), so a killed gateway sends it to another. Each records what its stream received
(a `Trace`) and each move it was told is committed (the `Ledger`). A bot that gets UNAVAILABLE or
DEADLINE_EXCEEDED retries with the same request id (the SDK does, for SubmitAction; `play_bot`
re-sends on a reopened Play stream); a bot that gets ABORTED (the game moved since its prompt)
or NOT_YOUR_TURN waits for its next prompt.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc

from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.app.lineage import parse_etag
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, FlotillaError, Seat
from flotilla_client.client import RETRYABLE
from ledger import Kept, Ledger
from support import UNPACED, Stack, assert_gapless, assert_stored_state_replays, choose, scrape

# Short games of every kind, for random bots (see docs/games.md; navegador has no length option,
# so its bots buy a knight whenever they may: the game ends when the 15th is sold).
COUNTER = ("counter", 2, {"moves": "40"})
SAIL_AWAY = ("sail_away", 2, {"max_rounds": "3"})
PORT_ROYAL = ("port_royal", 2, {"mode": "base"})
PIRATES = ("pirates_of_nassau", 2, {})
NAVEGADOR = ("navegador", 2, {})
Spec = tuple[str, int, Mapping[str, str]]
T = TypeVar("T")

STALL_S = 20.0  # no move confirmed and no event delivered anywhere for this long: the games are stuck
WAIT_FOR_NEXT_PROMPT = ("ERROR_REASON_STALE_GAME_VERSION", "ERROR_REASON_NOT_YOUR_TURN")

# Bots here move as fast as their games let them (often past a user's default submit rate).
CHAOS_ENV = UNPACED


@dataclass
class Trace:
    """What one watch or Play stream delivered, in order: event ids (a negative number is a full
    view covering the ids up to it, as `support.assert_gapless` expects), and when views and
    prompts came (monotonic seconds)."""

    who: str
    ids: list[int] = field(default_factory=list)
    views: list[float] = field(default_factory=list)
    prompts: list[float] = field(default_factory=list)
    doing: tuple[str, float] = ("", 0.0)  # what the bot is at, since when (for a stall's report)
    waits: list[float] = field(default_factory=list)  # a bot's confirmed moves: seconds from submit to OK
    etags: list[str] = field(default_factory=list)  # every etag the stream named (each a version it was shown)

    def at(self, doing: str) -> None:
        self.doing = (doing, time.monotonic())

    def summary(self) -> str:
        """For a stall's report: the last ids, and how long ago the last view and prompt came."""
        now = time.monotonic()
        ago = [f"{now - t[-1]:.1f} s ago" if t else "never" for t in (self.views, self.prompts)]
        doing = f", {self.doing[0]} for {now - self.doing[1]:.1f} s" if self.doing[0] else ""
        return f"{self.who}: ... {self.ids[-4:]}, {len(self.views)} views (last {ago[0]}), prompt {ago[1]}{doing}"

    def note(self, update: game_service_pb2.WatchGameResponse) -> None:
        if update.HasField("view"):
            self.ids.append(-update.view.through_event_id)
            self.views.append(time.monotonic())
        self.ids.extend(e.event_id for e in update.events)
        if update.etag:
            self.etags.append(update.etag)
        if update.HasField("prompt"):
            self.prompts.append(time.monotonic())


def _acceptable(error: FlotillaError) -> bool:
    """The game moved on since the prompt: the next prompt decides."""
    return error.code == grpc.StatusCode.ABORTED or error.reason in WAIT_FOR_NEXT_PROMPT


async def watch_bot(
    client: FlotillaClient, seat: Seat, ledger: Ledger, rng: random.Random, trace: Trace, *, pace_s: float = 0.0
) -> None:
    """WatchGame + SubmitAction until the game ends (each move `pace_s` after its prompt)."""
    trace.at("watching")
    async for update in client.watch(seat.game, seat):
        trace.note(update)
        if not (update.HasField("prompt") and update.prompt.legal_actions):
            continue
        action, request_id = choose(rng, update.prompt.legal_actions), uuid.uuid4().hex
        await asyncio.sleep(pace_s)
        trace.at(f"submitting with etag {update.prompt.etag}")
        sent = time.monotonic()
        try:
            reply = await client.submit(seat.game, seat, action, etag=update.prompt.etag, request_id=request_id)
        except FlotillaError as error:
            if not _acceptable(error):
                raise
            continue
        finally:
            trace.at("watching")
        trace.waits.append(time.monotonic() - sent)
        ledger.confirm(seat.game, seat.seat, request_id, reply.etag)


async def play_bot(
    client: FlotillaClient, seat: Seat, ledger: Ledger, rng: random.Random, trace: Trace, *, pace_s: float = 0.0
) -> None:
    """One Play stream until the game ends; reopened from the last etag when it breaks,
    re-sending (same request id, same etag) the submits whose outcome it never heard. Each move
    `pace_s` after its prompt."""
    after, unanswered, failures = "", dict[str, tuple[game_pb2.Action, str, float]](), 0
    while True:
        trace.at(f"playing from {after or 'the start'}")
        stream = client.play(seat, after_etag=after)
        for request_id, (action, etag, _sent) in unanswered.items():
            stream.send(action, etag=etag, request_id=request_id)
        try:
            async for response in stream:
                failures = 0
                if response.HasField("outcome"):
                    outcome = response.outcome
                    if outcome.status.code == grpc.StatusCode.OK.value[0]:
                        if (sent_move := unanswered.pop(outcome.request_id, None)) is not None:
                            trace.waits.append(time.monotonic() - sent_move[2])
                        ledger.confirm(seat.game, seat.seat, outcome.request_id, outcome.etag)
                        continue
                    error = FlotillaError.from_status(outcome.status)
                    if error.code in RETRYABLE and outcome.request_id in unanswered:
                        action, etag, _sent = unanswered[outcome.request_id]
                        stream.send(action, etag=etag, request_id=outcome.request_id)
                        continue
                    unanswered.pop(outcome.request_id, None)
                    if not _acceptable(error):
                        raise error
                    continue
                update = response.update
                trace.note(update)
                after = update.etag
                for answered in update.answered_request_ids:  # accepted: the update is its outcome
                    if (sent_move := unanswered.pop(answered, None)) is not None:
                        trace.waits.append(time.monotonic() - sent_move[2])
                    ledger.confirm(seat.game, seat.seat, answered, update.etag)
                if update.HasField("prompt") and update.prompt.legal_actions:
                    action = choose(rng, update.prompt.legal_actions)
                    await asyncio.sleep(pace_s)
                    request_id = stream.send(action, etag=update.prompt.etag)
                    unanswered[request_id] = (action, update.prompt.etag, time.monotonic())
            stream.close()
            return
        except FlotillaError as error:
            stream.close()
            if error.code not in RETRYABLE or failures >= client.retries:
                raise
            trace.at(f"reopening after {error.code.name}")
            failures += 1
            client._failover(on=stream._channel)  # the channel it broke on: moved on from already, or now
            await asyncio.sleep(client.backoff_s * 2 ** min(failures, 5))


async def spectate(client: FlotillaClient, game: str, trace: Trace) -> None:
    async for update in client.watch(game):
        trace.note(update)


@dataclass
class ChaosGame:
    """One game of a scenario, its bots' and spectators' traces."""

    name: str
    kind: str
    seats: int
    bots: list[Trace]
    spectators: list[Trace]
    final_version: int = 0


class Table:
    """Creates games, seats bots and spectators on the stack's gateways, and plays them out."""

    def __init__(
        self,
        targets: Sequence[str],
        ledger: Ledger,
        *,
        seed: int = 0,
        play_stream_every: int = 0,
        pace_s: float = 0.0,
    ) -> None:
        """`play_stream_every` = n: seat 1 of every n-th game plays through a Play stream; the bots
        move `pace_s` after each prompt (0: as fast as they can)."""
        self.targets = list(targets)
        self.ledger = ledger
        self.play_stream_every = play_stream_every
        self.pace_s = pace_s
        self.games: list[ChaosGame] = []
        self.rng = random.Random(seed)
        self.clients: list[FlotillaClient] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.traces: list[Trace] = []
        self.started = time.monotonic()

    def client(self) -> FlotillaClient:
        """A client over every gateway, each new one starting on the next gateway."""
        first = len(self.clients) % len(self.targets)
        client = FlotillaClient(*self.targets[first:], *self.targets[:first])
        self.clients.append(client)
        return client

    async def start(self, spec: Spec, *, spectators: int = 1) -> ChaosGame:
        """Create and fill one game; its bots (Play or SubmitAction) and spectators run as tasks
        from now on."""
        kind, seats, options = spec
        every = self.play_stream_every
        play_seats = (1,) if every and len(self.games) % every == every - 1 else ()
        if not self.tasks:
            self.started = time.monotonic()
        host = self.client()
        await host.sign_in("host")
        created = await host.create_game(kind, seats, options)
        game = ChaosGame(created.name, kind, seats, [], [])
        self.games.append(game)
        for i in range(seats):
            client = self.client()
            await client.sign_in(f"bot{i}")
            seat = await client.join(created.name)
            bot = play_bot if seat.seat in play_seats else watch_bot
            trace = Trace(f"{created.name} seat {seat.seat} ({'Play' if bot is play_bot else 'SubmitAction'})")
            game.bots.append(trace)
            self.traces.append(trace)
            rng = random.Random(self.rng.random())
            self.tasks.append(asyncio.create_task(bot(client, seat, self.ledger, rng, trace, pace_s=self.pace_s)))
        for i in range(spectators):
            game.spectators.append(self.spectator(created.name, f"{created.name} spectator {i}"))
        return game

    def spectator(self, game: str, who: str) -> Trace:
        """A spectator of `game` from event 0, from now on."""
        client = self.client()
        trace = Trace(who)
        self.traces.append(trace)
        self.tasks.append(asyncio.create_task(spectate(client, game, trace)))
        return trace

    def progress(self) -> int:
        """Moves confirmed and events delivered so far: a stall is when this stops growing."""
        return len(self.ledger.moves) + sum(len(t.ids) for t in self.traces)

    async def finish(self, games: Sequence[ChaosGame], within_s: float, *, stall_s: float = STALL_S) -> None:
        """Wait until every bot and spectator is done (every game over): at most `within_s` from
        the start of the first game, and never `stall_s` without a move confirmed or an event
        delivered anywhere (then the games are stuck: fail now, not at the deadline)."""
        deadline = self.started + within_s
        seen, moved_at = -1, time.monotonic()
        while (pending := [t for t in self.tasks if not t.done()]) and time.monotonic() < min(
            deadline, moved_at + stall_s
        ):
            await asyncio.wait(pending, timeout=1.0)  # (tasks started meanwhile join the next round)
            for task in self.tasks:
                if task.done():
                    task.result()  # a bot's or spectator's failure fails the scenario
            if self.progress() != seen:
                seen, moved_at = self.progress(), time.monotonic()
        checker = self.clients[0]
        infos = [await checker.get_game(game.name) for game in games]
        unfinished = [
            f"{g.kind} {g.name} at event {i.last_event_id}, to act {list(i.to_act)}: "
            + "; ".join(t.summary() for t in [*g.bots, *g.spectators])
            for g, i in zip(games, infos, strict=True)
            if i.state != game_pb2.GAME_STATE_FINISHED
        ]
        assert not unfinished, f"stalled: {unfinished} not finished (no progress for {stall_s} s, or {within_s} s)"
        assert not pending, f"{len(pending)} streams did not end after the games"
        for game, info in zip(games, infos, strict=True):
            game.final_version = info.last_event_id

    def failed_over(self) -> int:
        """How many clients moved to another gateway (the SDK's target index moved on)."""
        return sum(1 for client in self.clients if client._index > 0)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(client.close() for client in self.clients))


async def play_out(
    table: Table,
    specs: Sequence[Spec],
    within_s: float,
    chaos: Callable[[asyncio.Event], Awaitable[T]],
    **start: Any,
) -> tuple[list[ChaosGame], T]:
    """Start a game per spec (`Table.start` options in `start`), run `chaos(stop)` beside them
    until every game is over (`Table.finish`; then `stop` is set and chaos must end), close the
    table; returns the games and what `chaos` returned."""
    stop = asyncio.Event()
    running: asyncio.Task[T] | None = None
    try:
        games = [await table.start(spec, **start) for spec in specs]
        running = asyncio.create_task(chaos(stop))
        await table.finish(games, within_s)
    finally:
        stop.set()
        if running is not None:
            await asyncio.wait([running], timeout=30)
            running.cancel()  # (when done already, nothing happens)
        await table.close()
    assert not running.cancelled(), "the games ended before the chaos did"
    return games, running.result()


async def assert_sound(redis_url: str, ledger: Ledger, games: Sequence[ChaosGame]) -> Kept:
    """0 lost and 0 doubled confirmed moves, every stream gapless (one full view, then each
    event once, in order, to the end), every stored state the replay of its action log."""
    kept = await ledger.assert_kept(redis_url, [g.name for g in games])
    for game in games:
        for trace in [*game.bots, *game.spectators]:
            assert_gapless(trace.ids, game.final_version)
        await assert_stored_state_replays(redis_url, game.name)
    return kept


async def shown_but_rolled_back(redis_url: str, game: ChaosGame) -> list[str]:
    """The commits `game`'s bots and spectators were shown (every etag their streams named) that
    are not in its final history: commits a failover rolled back after a watcher saw them."""
    store = RedisStore.from_url(redis_url)
    try:
        history = {e.version: e.lineage for e in await store.entries_after(game.name.removeprefix("games/"), 0)}
    finally:
        await store.close()
    out = []
    for trace in [*game.bots, *game.spectators]:
        shown = sorted({parse_etag(etag) for etag in trace.etags})
        lost = [f"{v}.{lineage}" for v, lineage in shown if v and history.get(v) != lineage]
        if lost:
            out.append(f"{trace.who} was shown {len(lost)} commits not in the final history: {lost[:5]}")
    return out


async def every(period_s: float, stop: asyncio.Event, fault: Callable[[], Awaitable[None]], times: int) -> int:
    """Run `fault` every `period_s`, `times` times or until `stop` is set; returns how many times it ran."""
    count = 0
    while not stop.is_set() and count < times:
        try:
            await asyncio.wait_for(stop.wait(), period_s)
        except TimeoutError:
            await fault()
            count += 1
    return count


def assert_no_move_waited_for_the_deadline(stack: Stack) -> None:
    """No gateway of `stack` (started with metrics) answered a move DEADLINE_EXCEEDED for want of
    a worker's outcome: a move held by a killed worker is taken over, one queued before Redis
    was lost (maybe lost with it, or delivered in a reply lost with it) is queued again or
    re-read once Redis is back."""
    for process, port in stack.metrics:
        if process == "gateway":
            assert scrape(port)["flotilla_gateway_submit_deadlines_total{}"] == 0, "a move waited for the deadline"
