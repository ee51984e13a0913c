"""The client host's driver: games played through the gateways while a test breaks the network.

    ip netns exec <client-ns> python -m hosts.driver OUT_DIR REDIS_URL GATEWAY [GATEWAY ...]

Keeps `SLOTS` games going (counter and Sail Away; when one ends, another of its kind starts), each
played by random bots (`chaos.chaos_support`: SubmitAction, and a Play stream on some seats) and
watched by a spectator, every client over all gateways (the SDK's target list: it fails over).
Every move a client was told is committed goes in a ledger.

It writes `OUT_DIR/status.json` every `STATUS_S` (`Status`: per game its confirmed moves and the
time of the last, per client its failovers, the failures seen), for the test to wait on. Once the
file `OUT_DIR/stop` exists it starts no game, lets the running ones end (at most `FINISH_S`), and
checks from its host (Redis must be reachable by then): each confirmed move in its game's log once
(`ledger`), each stream gapless to the game's last event and never doubled and never shown a
commit that is not in the final history (rolled back), each stored state the replay of its log.
It writes all of it to `OUT_DIR/report.json` (`Report`) and exits 0.

Times are `time.monotonic()`: CLOCK_MONOTONIC, the same clock in every process of the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from chaos.chaos_support import COUNTER, SAIL_AWAY, ChaosGame, Spec, Table, Trace, shown_but_rolled_back
from flotilla.cli import _wait_for_gateway
from flotilla_client import FlotillaError
from ledger import Ledger
from support import assert_gapless, assert_stored_state_replays

SLOTS: tuple[Spec, ...] = ((COUNTER[0], COUNTER[1], {"moves": "80"}),) * 3 + (SAIL_AWAY,) * 3
PACE_S = 0.1  # bots think this long per move: steady progress (~10 moves/s in all) without burning the
# machine's cores (at 0.05 s the moves cost the hosts tests ~1.5 times the CPU; the faults' claims
# need moves in flight, not a count)
STATUS_S = 0.25
FINISH_S = 90.0  # after `stop`: the running games end within this (else reported unfinished)
START_S = 120.0  # the gateways serve within this


class TimedLedger(Ledger):
    """A ledger that also keeps when each move was confirmed, by game."""

    def __init__(self) -> None:
        super().__init__()
        self.times: dict[str, list[float]] = {}

    def confirm(self, game: str, seat: int, request_id: str, etag: str) -> None:
        super().confirm(game, seat, request_id, etag)
        self.times.setdefault(game, []).append(time.monotonic())


@dataclass
class GameStatus:
    kind: str
    started: float
    confirmed: int = 0
    last_confirmed: float = 0.0  # 0: none yet
    done: bool = False


@dataclass
class Status:
    now: float
    games: dict[str, GameStatus]
    failovers: list[int]  # per client: how many times it moved to another gateway
    targets: list[str]  # per client: the gateway it calls now
    active: list[int]  # the clients of games not over that call all along (bots, spectators)
    doing: dict[int, str]  # per active client: what it is at, for how long (a stall's report)
    watchers: list[int]  # of the active clients, the spectators (only a watch stream, no move in flight)
    opening: list[int]  # of the active clients, those whose stream has delivered nothing yet
    clients_of: dict[str, list[int]]  # per game not over: its bots' and spectators' clients
    failures: list[str]  # a bot's or spectator's error it did not retry
    errors: list[str]  # a clear error that made the driver try again (creating and joining a game)


@dataclass
class Report:
    confirmed: int
    logged: int
    lost: list[str]
    doubled: list[str]
    unsound: list[str]  # a stream not gapless, a stored state not the replay of its log
    unfinished: list[str]
    failures: list[str]
    errors: list[str]
    confirm_times: dict[str, list[float]]
    games: dict[str, GameStatus]
    failovers: list[int]
    checked_s: float = field(default=0.0)


class Driver:
    def __init__(self, out: Path, redis_url: str, targets: list[str]) -> None:
        self.out = out
        self.redis_url = redis_url
        self.ledger = TimedLedger()
        self.table = Table(targets, self.ledger, seed=24, play_stream_every=3, pace_s=PACE_S)
        self.games: list[ChaosGame] = []
        self.status: dict[str, GameStatus] = {}
        self.failures: list[str] = []
        self.errors: list[str] = []
        self.clients_of: dict[str, range] = {}  # game -> its bots' and spectators' clients
        self.traces: dict[int, Trace] = {}  # client -> its bot's or spectator's trace
        self.unfinished: list[str] = []
        self.stopping = asyncio.Event()
        self.starting = asyncio.Lock()  # one game starts at a time: its clients are consecutive

    async def slot(self, spec: Spec) -> None:
        """Games of one kind, one after another, until told to stop."""
        while not self.stopping.is_set():
            before = len(self.table.tasks)
            game = await self.start(spec)
            if game is None:
                await asyncio.sleep(1.0)
            else:
                await self.play(game, self.table.tasks[before:])

    async def start(self, spec: Spec) -> ChaosGame | None:
        """A new game of `spec`, its bots and spectator playing; None after a clear error (noted)."""
        async with self.starting:
            clients = len(self.table.clients)
            try:
                game = await self.table.start(spec, spectators=1)
            except FlotillaError as error:  # (the SDK retried first)
                self.errors.append(f"starting a {spec[0]} game: {error.code.name} {error.reason}")
                return None
            self.games.append(game)
            self.status[game.name] = GameStatus(game.kind, time.monotonic())
            self.clients_of[game.name] = range(clients + 1, len(self.table.clients))  # (the first: its creator)
            self.traces.update(zip(self.clients_of[game.name], [*game.bots, *game.spectators], strict=True))
            return game

    async def play(self, game: ChaosGame, tasks: list[asyncio.Task[None]]) -> None:
        """Until `game`'s bots and spectator are done; the first that fails is a failure, and
        the game is given up; a game still running `FINISH_S` after `stop` is unfinished."""
        pending: set[asyncio.Task[None]] = set(tasks)
        stop_at: float | None = None
        while pending:
            done, pending = await asyncio.wait(pending, timeout=1.0, return_when=asyncio.FIRST_EXCEPTION)
            broken = [t for t in done if t.exception() is not None]
            if broken:
                self.failures.append(f"{game.kind} {game.name}: {describe(broken[0].exception())}")
                break
            if self.stopping.is_set():
                stop_at = stop_at or time.monotonic()
                if time.monotonic() - stop_at > FINISH_S:
                    self.unfinished.append(f"{game.kind} {game.name}")
                    break
        for task in pending:
            task.cancel()
        self.status[game.name].done = not pending

    def snapshot(self) -> Status:
        for name, times in self.ledger.times.items():
            if name in self.status:
                self.status[name].confirmed, self.status[name].last_confirmed = len(times), times[-1]
        clients = self.table.clients
        active = [i for name, of in self.clients_of.items() if not self.status[name].done for i in of]
        now = time.monotonic()
        return Status(
            time.monotonic(),
            self.status,
            [client._index for client in clients],
            [client.target for client in clients],
            active,
            {i: f"{self.traces[i].doing[0]} for {now - self.traces[i].doing[1]:.1f} s" for i in active},
            [i for i in active if " spectator " in self.traces[i].who],
            [i for i in active if not self.traces[i].ids],
            {name: list(of) for name, of in self.clients_of.items() if not self.status[name].done},
            self.failures,
            self.errors,
        )

    def write(self, name: str, value: Status | Report) -> None:
        """`value` as OUT_DIR/`name`, replaced at once (never read half written)."""
        partial = self.out / f".{name}"
        partial.write_text(json.dumps(asdict(value)))
        partial.replace(self.out / name)

    async def report_status(self) -> None:
        while True:
            self.write("status.json", self.snapshot())
            if (self.out / "stop").exists():
                self.stopping.set()
            await asyncio.sleep(STATUS_S)

    async def check(self) -> Report:
        """The stored-state checks, from this host, once every game ended (or was given up)."""
        started = time.monotonic()
        names = [game.name for game in self.games]
        kept = await self.ledger.check(self.redis_url, names)
        unsound: list[str] = []
        for game in self.games:
            if not self.status[game.name].done:
                continue
            info = await self.table.clients[0].get_game(game.name)
            for trace in [*game.bots, *game.spectators]:
                try:
                    assert_gapless(trace.ids, info.last_event_id)
                except AssertionError as error:
                    unsound.append(f"{trace.who}: {error}")
            unsound += await shown_but_rolled_back(self.redis_url, game)
            try:
                await assert_stored_state_replays(self.redis_url, game.name)
            except AssertionError as error:
                unsound.append(f"{game.name}: {error}")
        status = self.snapshot()
        return Report(
            kept.confirmed,
            kept.logged,
            [str(move) for move in kept.lost],
            [str(move) for move in kept.doubled],
            unsound,
            self.unfinished,
            self.failures,
            self.errors,
            self.ledger.times,
            status.games,
            status.failovers,
            time.monotonic() - started,
        )

    async def run(self) -> None:
        reporter = asyncio.create_task(self.report_status())
        try:
            await asyncio.gather(*(self.slot(spec) for spec in SLOTS))
            self.write("report.json", await self.check())
        finally:
            reporter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reporter
            self.write("status.json", self.snapshot())
            await self.table.close()


def describe(error: BaseException | None) -> str:
    if isinstance(error, FlotillaError):
        return f"{error.code.name} {error.reason}: {str(error)[:200]}"
    return f"{type(error).__name__}: {str(error)[:200]}"


def main(argv: list[str]) -> int:
    out, redis_url, targets = Path(argv[0]), argv[1], argv[2:]
    for target in targets:
        _wait_for_gateway(target, timeout_s=START_S)
    (out / "ready").write_text(str(os.getpid()))
    asyncio.run(Driver(out, redis_url, targets).run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
