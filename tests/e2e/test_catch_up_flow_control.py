"""A resume from event 1 of a long game costs a gateway a bounded amount, however many clients
open one and stop reading (app/watching.py: a page of 64 commits and one message per stream,
plus what HTTP/2 flow control lets the transport hold), and slows no other game."""

from __future__ import annotations

import asyncio
import secrets
import time
import uuid
from pathlib import Path

import grpc
import orjson
import pytest

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.app.host import host_for
from flotilla.app.lineage import new_lineage
from flotilla.games.counter import Add
from flotilla.records import dump_rows
from flotilla.redis_server import RedisServer
from flotilla.rules import Seat
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, play_random
from support import start_stack

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]

EVENTS = 40_000
STREAMS = 50
MOVES = 120


async def write_long_game(redis_url: str, moves: int) -> str:
    """A counter game with `moves` commits, written through the store's commit script."""
    store = RedisStore.from_url(redis_url)
    host = host_for("counter")
    game_id = uuid.uuid4().hex
    options = {"moves": str(moves + 10)}
    now = int(time.time() * 1000)
    step = host.start(host.config(2, options), secrets.randbits(128), options, now)
    lineage = new_lineage()
    await store.create_game(
        game_id,
        kind="counter",
        rules_version=host.rules.version,
        seat_count=2,
        options=options,
        created_ms=now,
        version=step.version,
        state=host.dumps(step.state),
        events=dump_rows(step.events),
        prompts=orjson.dumps(step.prompts),
        to_act=orjson.dumps(step.to_act),
        seed_sha256="",
        lineage=lineage,
    )
    state, version = step.state, step.version
    for start in range(0, moves, 2000):
        commits = []
        for i in range(start, min(moves, start + 2000)):
            step = host.step(state, Seat(i % 2), Add(1), version, now)
            head = new_lineage()
            commits.append(
                store.commit_args(
                    game_id,
                    i % 2,
                    f"r{i}",
                    expected=version,
                    version=step.version,
                    state=host.dumps(step.state),
                    events=dump_rows(step.events),
                    prompts=orjson.dumps(step.prompts),
                    to_act=orjson.dumps(step.to_act),
                    status="",
                    result=b"",
                    record=orjson.dumps([i % 2, host.codec.to_plain(Add(1)), step.version, ""]),
                    outcome=b"{}",
                    expected_lineage=lineage,
                    lineage=head,
                )
            )
            state, version, lineage = step.state, step.version, head
        assert all(done.code == 1 for done in await store.commit_many(commits))
    await store.close()
    return f"games/{game_id}"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def seconds_for_a_game(target: str, moves: int) -> float:
    """Two random bots play a fresh counter game of `moves` moves through the gateway."""
    started = time.monotonic()
    host = FlotillaClient(target)
    await host.sign_in("a")
    game = await host.create_game("counter", 2, {"moves": str(moves)})
    other = FlotillaClient(target)
    await other.sign_in("b")
    seats = [await host.join(game.name), await other.join(game.name)]
    await asyncio.wait_for(asyncio.gather(play_random(host, seats[0]), play_random(other, seats[1])), 120)
    await host.close()
    await other.close()
    return time.monotonic() - started


async def test_unread_catch_ups_of_a_long_game_stay_bounded(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis", aof=False).start()
    stack = start_stack(redis.url, tmp_path, gateways=1, workers=1)
    try:
        game = await write_long_game(redis.url, EVENTS)
        target = stack.gateways[0]
        gateway_pid = stack.gateway_procs[0].pid
        await seconds_for_a_game(target, 20)  # warm up: imports, caches, connections
        alone = await seconds_for_a_game(target, MOVES)
        before = rss_mb(gateway_pid)
        async with grpc.aio.insecure_channel(target) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            calls = [
                stub.WatchGame(game_service_pb2.WatchGameRequest(game=game, after_event_id=1)) for _ in range(STREAMS)
            ]
            first = await calls[0].read()  # the streams are open and sending; nobody reads further
            assert len(first.events) > 0
            crowded = await seconds_for_a_game(target, MOVES)
            grown = rss_mb(gateway_pid) - before
            print(
                f"\n{STREAMS} unread catch-ups of {EVENTS} events: gateway +{grown:.1f} MB; "
                f"{MOVES} moves took {alone:.2f} s alone, {crowded:.2f} s beside them"
            )
            assert grown < 100, f"the gateway grew by {grown:.0f} MB"
            assert crowded < 3 * alone + 1.5, f"another game slowed from {alone:.2f} s to {crowded:.2f} s"
            for call in calls:
                call.cancel()
    finally:
        stack.stop()
        redis.stop()
