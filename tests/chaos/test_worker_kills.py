"""Chaos: a serving worker is SIGKILLed every second (and a new one started) while 15 games of
every kind are played by random bots through two gateways. Nothing confirmed is lost, nothing is
applied twice, every stored state is the replay of its log, every stream is gapless, and every
game finishes in time (no stall).

The kills stop after 20 (if the games last that long): a Navegador game has no length option and
lasts several hundred moves. No client waits for the submit deadline: a killed worker's moves are
taken over at once by a worker still serving. One always is: the victim is a worker that has
registered (a worker still starting serves nothing, and on a loaded machine starting takes
seconds: killing those too once left no worker serving for 20 s, a stall of the test's making).

Two Port Royal and two Pirates games, not five and four: the kills are what the scenario is about,
and every one of them still lands among games of every kind in flight (the Navegador game alone
lasts the whole kill schedule), each kind's moves taken over from killed workers. The three Port
Royal (~620 events each) and two Pirates games left out were two fifths of the moves, and of the
CPU the module spent."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from chaos.chaos_support import (
    CHAOS_ENV,
    COUNTER,
    NAVEGADOR,
    PIRATES,
    PORT_ROYAL,
    SAIL_AWAY,
    Table,
    assert_no_move_waited_for_the_deadline,
    assert_sound,
    every,
    play_out,
)
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from ledger import Ledger
from support import Stack, start_stack, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

GAMES = [NAVEGADOR] + [COUNTER] * 5 + [SAIL_AWAY] * 5 + [PORT_ROYAL] * 2 + [PIRATES] * 2
KILLS = 20  # at most
WITHIN_S = 150  # 45 s alone here, longer on a loaded machine; a stall fails sooner (STALL_S)


@pytest.fixture
def stack(redis_server: RedisServer, tmp_path: Path) -> Iterator[Stack]:
    """Two gateways and three workers of its own (they are killed). A move held by a killed
    worker is taken over by another within about half a second (its liveness key lapses)."""
    running = start_stack(redis_server.url, tmp_path, workers=3, extra_env=CHAOS_ENV, metrics=True)
    yield running
    running.stop()


async def test_a_worker_killed_every_second_loses_and_doubles_no_move(stack: Stack) -> None:
    ledger = Ledger()
    rng = random.Random(2)

    async def kill_a_worker() -> None:
        serving: set[int] = set()

        async def two_serve() -> bool:
            serving.clear()
            serving.update(await serving_pids(stack.redis_url))
            return len(serving) >= 2

        await until(two_serve, 60, "two workers serving")
        victim = rng.choice([p for p in stack.worker_procs if p.poll() is None and p.pid in serving])
        victim.kill()  # SIGKILL: mid-batch, maybe between its commit and its reply
        await asyncio.to_thread(victim.wait)
        stack.start_worker()  # the others serve meanwhile

    games, kills = await play_out(
        Table(stack.gateways, ledger, seed=1), GAMES, WITHIN_S, lambda stop: every(1.0, stop, kill_a_worker, KILLS)
    )
    assert kills >= 8, f"the games ended after {kills} kills: too short for the scenario"
    kept = await assert_sound(stack.redis_url, ledger, games)
    waits = sorted(w for game in games for bot in game.bots for w in bot.waits)
    print(
        f"{kills} workers killed; {kept.confirmed} confirmed moves, {kept.logged} logged, 0 lost, 0 doubled; "
        f"submit to OK: median {waits[len(waits) // 2]:.3f} s, max {waits[-1]:.2f} s"
    )
    assert_no_move_waited_for_the_deadline(stack)  # a killed worker's moves were taken over


async def serving_pids(redis_url: str) -> set[int]:
    """The pids of the workers serving now: in the worker registry, with their liveness key
    (consumer names are `host-pid-random`)."""
    client = aioredis.from_url(redis_url)
    try:
        names = [name.decode() for name in await client.zrange(keys.WORKERS, 0, -1)]
        alive = [name for name in names if await client.exists(keys.worker(name))]
    finally:
        await client.aclose()
    return {int(name.rsplit("-", 2)[1]) for name in alive}
