"""Load generator: M concurrent games (the 2-seat `counter` game by default) against Flotilla gateways.

Each slot creates a game, seats two players and plays it to the end as fast as possible, then
starts the next: the mover submits the instant its prompt arrives. Mode `unary`: both seats
watch with WatchGame and the mover calls SubmitAction; mode `stream`: both seats use one
Play stream each. Measured in the window [warmup, warmup + duration]: moves committed
(accepted outcomes), and latency from submit to the move's event at the mover and at the
opponent (same clock, same process). Bounded in time; prints one JSON object.

    python bench/load.py --targets 127.0.0.1:50051 --games 10 --mode stream --duration 10
    python bench/load.py --kind sail_away --seats 3 --games 10 --mode stream

With another game than `counter`, each seat plays a uniformly random legal action from its
prompt; a move may then emit several events, and latency is measured to the move's first
event.

Server CPU per committed move (`--cpu-pids gateway=<pid>,..;worker=..;redis=..`): each group's
CPU time from /proc (every thread and descendant process, bench/proc_cpu.py), sampled at the
window's first committed move and again `--cpu-moves` committed moves later (or at the window's
end if fewer came), so the figure covers a fixed number of moves and no idle start or end.
Redis's calls per committed move, by command (INFO commandstats, from REDIS_URL), over the same
moves. `--channels K` opens K connections per target (seat s of game i on connection i*seats+s mod K),
so several gateway processes sharing a port (SO_REUSEPORT) all get connections.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import time
import uuid

import grpc
import redis
from proc_cpu import parse_groups, sample

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc

ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))


def redis_calls() -> dict[str, int]:
    """Redis's calls by command since it started (INFO commandstats; a Cluster's first node only),
    from REDIS_URL; {} without one. Sampled beside the CPU, for the Redis commands per move."""
    url = os.environ.get("REDIS_URL", "")
    if not url.startswith("redis://"):
        return {}
    client = redis.Redis.from_url(url.split(",")[0])
    try:
        stats = client.info("commandstats")
    finally:
        client.close()
    return {name.removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()}


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Meter:
    """The window opens `warmup` seconds after every slot has its first game seated (so a slow
    start on a busy machine is never measured) and lasts `duration` seconds."""

    def __init__(
        self, slots: int, warmup: float, duration: float, cpu_groups: dict[str, list[int]], cpu_moves: int
    ) -> None:
        self.waiting = slots
        self.warmup, self.duration = warmup, duration
        self.t0 = self.t1 = float("inf")
        self.opened = asyncio.Event()
        self.committed = 0
        self.mover: list[float] = []
        self.opponent: list[float] = []
        self.errors = 0
        self.games_finished = 0
        self.cpu_groups = cpu_groups
        self.cpu_moves = cpu_moves
        self.cpu_start: tuple[float, int, dict[str, float]] | None = None  # (time, moves, CPU s by group)
        self.cpu_end: tuple[float, int, dict[str, float]] | None = None
        self.calls_start: dict[str, int] = {}  # Redis's commandstats at the same two moments
        self.calls_end: dict[str, int] = {}

    def seated(self) -> None:
        """A slot seated its first game; the last one opens the window."""
        self.waiting -= 1
        if self.waiting == 0:
            self.t0 = time.perf_counter() + self.warmup
            self.t1 = self.t0 + self.duration
            self.opened.set()

    def commit(self, now: float) -> None:
        """An accepted move: count it in the window; sample server CPU at the first and the
        (1 + cpu_moves)-th of them."""
        if not self.in_window(now):
            return
        self.committed += 1
        if self.cpu_groups and self.committed == 1:
            self.cpu_start = (time.perf_counter(), self.committed, sample(self.cpu_groups))
            self.calls_start = redis_calls()
        elif self.cpu_groups and self.committed == 1 + self.cpu_moves:
            self.cpu_end = (time.perf_counter(), self.committed, sample(self.cpu_groups))
            self.calls_end = redis_calls()

    async def close_cpu_window(self) -> None:
        """At the window's end, end the CPU measure if fewer than cpu_moves moves came."""
        await self.opened.wait()
        await asyncio.sleep(max(0.0, self.t1 - time.perf_counter()))
        if self.cpu_groups and self.cpu_start is not None and self.cpu_end is None:
            self.cpu_end = (time.perf_counter(), self.committed, sample(self.cpu_groups))
            self.calls_end = redis_calls()

    def cpu_report(self) -> dict[str, object]:
        if self.cpu_start is None or self.cpu_end is None or self.cpu_end[1] <= self.cpu_start[1]:
            return {}
        moves, seconds = self.cpu_end[1] - self.cpu_start[1], self.cpu_end[0] - self.cpu_start[0]
        used = {name: self.cpu_end[2][name] - self.cpu_start[2][name] for name in self.cpu_groups}
        total = sum(used.values())
        calls = {
            name: (self.calls_end.get(name, 0) - self.calls_start.get(name, 0)) / moves
            for name in sorted(self.calls_end)
            if self.calls_end.get(name, 0) > self.calls_start.get(name, 0)
        }
        return {
            "redis_calls_per_move": {**calls, "total": sum(calls.values())} if calls else {},
            "cpu_moves": moves,
            "cpu_window_s": seconds,
            "server_us_per_move": {**{n: 1e6 * v / moves for n, v in used.items()}, "total": 1e6 * total / moves},
            "server_cpu_pct": 100 * total / seconds,
        }

    def in_window(self, t: float) -> bool:
        return self.t0 <= t <= self.t1

    def done(self) -> bool:
        return time.perf_counter() > self.t1


async def slot(stubs: list, auth: list[str], meter: Meter, mode: str, index: int, kind: str) -> None:  # type: ignore[type-arg]
    seat_stubs = [stubs[(index * len(auth) + s) % len(stubs)] for s in range(len(auth))]
    games = seat_stubs[0]
    first = True
    while not meter.done():
        meta = (("authorization", f"Bearer {auth[0]}"),)
        request = game_service_pb2.CreateGameRequest(kind=kind, seat_count=len(auth), request_id=uuid.uuid4().hex)
        created = await games.CreateGame(request, metadata=meta)
        name = created.game.name
        tokens = []
        for token in auth:
            joined = await games.JoinGame(
                game_service_pb2.JoinGameRequest(game=name), metadata=(("authorization", f"Bearer {token}"),)
            )
            tokens.append((joined.seat, joined.seat_token))
        tokens.sort()
        if first:
            first = False
            meter.seated()
        sent: dict[int, tuple[float, int]] = {}  # event id of a move -> (submit time, mover seat)
        await (play_stream if mode == "stream" else play_unary)(seat_stubs, name, tokens, sent, meter)
        meter.games_finished += 1


def record(meter: Meter, sent: dict[int, tuple[float, int]], event_id: int, seat: int, now: float) -> None:
    """Latency from a move's submit to its first event at `seat` (mover or opponent)."""
    move = sent.get(event_id)
    if move is not None and meter.in_window(move[0]):
        (meter.mover if move[1] == seat else meter.opponent).append((now - move[0]) * 1000)


def version_of(etag: str) -> int:
    """The game version in an etag (`<version>.<lineage>`, possibly quoted)."""
    return int(etag.strip('"').partition(".")[0])


def choose(prompt: game_pb2.Prompt, rng: random.Random) -> game_pb2.Action:
    """The counter's Add(1), else a uniformly random legal action."""
    actions = list(prompt.legal_actions)
    return ADD if actions[0].HasField("counter") else rng.choice(actions)


async def play_unary(stubs, name: str, tokens, sent: dict[int, tuple[float, int]], meter: Meter) -> None:  # type: ignore[no-untyped-def]
    async def seat(seat_index: int, token: str, games) -> None:  # type: ignore[no-untyped-def]
        rng = random.Random(seat_index)
        metadata = (("authorization", f"Bearer {token}"),)
        call = games.WatchGame(game_service_pb2.WatchGameRequest(game=name), metadata=metadata)
        async for update in call:
            now = time.perf_counter()
            for event in update.events:
                record(meter, sent, event.event_id, seat_index, now)
            if update.HasField("prompt"):
                if meter.done():
                    call.cancel()
                    return
                sent[version_of(update.prompt.etag) + 1] = (time.perf_counter(), seat_index)
                request = game_service_pb2.SubmitActionRequest(
                    game=name, action=choose(update.prompt, rng), etag=update.prompt.etag, request_id=uuid.uuid4().hex
                )
                try:
                    await games.SubmitAction(request, metadata=metadata)
                except grpc.aio.AioRpcError as error:  # simultaneous seats: another seat moved first
                    if error.code() != grpc.StatusCode.ABORTED:
                        meter.errors += 1
                    continue
                meter.commit(time.perf_counter())

    await asyncio.gather(*(seat(s, t, stubs[j]) for j, (s, t) in enumerate(tokens)))


async def play_stream(stubs, name: str, tokens, sent: dict[int, tuple[float, int]], meter: Meter) -> None:  # type: ignore[no-untyped-def]
    async def seat(seat_index: int, token: str, games) -> None:  # type: ignore[no-untyped-def]
        rng = random.Random(seat_index)
        outgoing: asyncio.Queue[game_service_pb2.PlayRequest | None] = asyncio.Queue()
        outgoing.put_nowait(game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=name)))

        async def requests():  # type: ignore[no-untyped-def]
            while (item := await outgoing.get()) is not None:
                yield item

        call = games.Play(requests(), metadata=(("authorization", f"Bearer {token}"),))
        async for response in call:
            now = time.perf_counter()
            if response.HasField("outcome"):
                if response.outcome.status.code == 0:
                    meter.commit(now)
                elif response.outcome.status.code != grpc.StatusCode.ABORTED.value[0]:
                    meter.errors += 1
                continue
            update = response.update
            for _answered in update.answered_request_ids:  # accepted: the update is the outcome
                meter.commit(now)
            for event in update.events:
                record(meter, sent, event.event_id, seat_index, now)
            if update.HasField("prompt"):
                if meter.done():
                    outgoing.put_nowait(None)
                    call.cancel()
                    return
                sent[version_of(update.prompt.etag) + 1] = (time.perf_counter(), seat_index)
                submit = game_service_pb2.SubmitActionRequest(
                    action=choose(update.prompt, rng), etag=update.prompt.etag, request_id=uuid.uuid4().hex
                )
                outgoing.put_nowait(game_service_pb2.PlayRequest(submit=submit))
        outgoing.put_nowait(None)

    await asyncio.gather(*(seat(s, t, stubs[j]) for j, (s, t) in enumerate(tokens)))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--targets", default="127.0.0.1:50051")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--mode", choices=["unary", "stream"], default="stream")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--kind", default="counter", help="game kind (bots play random legal actions)")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--channels", type=int, default=1, help="connections per target")
    parser.add_argument("--cpu-pids", default="", help="server CPU groups: gateway=<pid>,..;worker=..;redis=..")
    parser.add_argument("--cpu-moves", type=int, default=1000, help="committed moves the server CPU is measured over")
    args = parser.parse_args()
    targets = args.targets.split(",")
    if not all(t.startswith(("127.", "localhost", "[::1]")) for t in targets):
        raise SystemExit("loopback targets only")
    # A local subchannel pool per channel: otherwise grpc shares one connection per target.
    options = [("grpc.use_local_subchannel_pool", 1)]
    channels = [grpc.aio.insecure_channel(t, options=options) for t in targets for _ in range(args.channels)]
    stubs = [game_service_pb2_grpc.GameServiceStub(c) for c in channels]
    auth_stub = game_service_pb2_grpc.AuthServiceStub(channels[0])
    auth = []
    for name in [f"bench-{i}" for i in range(args.seats)]:
        reply = await auth_stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name=name))
        auth.append(reply.session_token)
    meter = Meter(args.games, args.warmup, args.duration, parse_groups(args.cpu_pids), args.cpu_moves)
    closer = asyncio.create_task(meter.close_cpu_window())
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    tasks = [asyncio.create_task(slot(stubs, auth, meter, args.mode, i, args.kind)) for i in range(args.games)]

    async def stop_after_window() -> None:
        """A second after the window, end every slot: a seat that stopped at its prompt leaves the
        other seats waiting for theirs, and waiting out the timeout would leave the servers idle
        for that long (what made the former CPU % column under-read)."""
        await meter.opened.wait()
        await asyncio.sleep(max(0.0, meter.t1 - time.perf_counter()) + 1.0)
        for task in tasks:
            task.cancel()

    stopper = asyncio.create_task(stop_after_window())
    failures: list[str] = []
    with contextlib.suppress(TimeoutError):
        results = await asyncio.wait_for(
            asyncio.gather(*tasks, return_exceptions=True), args.warmup + args.duration + 90
        )
        failures = [repr(r)[:200] for r in results if isinstance(r, Exception)]
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    closer.cancel()
    stopper.cancel()
    for channel in channels:
        await channel.close()
    window = args.duration
    print(
        json.dumps(
            {
                "mode": args.mode,
                "kind": args.kind,
                "games": args.games,
                "gateways": len(targets),
                "channels": len(channels),
                "committed_moves": meter.committed,
                "moves_per_s": meter.committed / window,
                "mover_p50_ms": percentile(meter.mover, 0.5),
                "mover_p99_ms": percentile(meter.mover, 0.99),
                "opponent_p50_ms": percentile(meter.opponent, 0.5),
                "opponent_p99_ms": percentile(meter.opponent, 0.99),
                "errors": meter.errors,
                "games_finished": meter.games_finished,
                "driver_cpu_s": (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime),
                "pid": os.getpid(),
                "slot_failures": len(failures),
                "first_failure": failures[0] if failures else None,
                **meter.cpu_report(),
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
