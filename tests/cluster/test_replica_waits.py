"""One Redis primary with one replica and FLOTILLA_WAIT_REPLICAS=1: the gateways' shared feed
readers (a single Redis: one XREAD over many games) hold what the replica has not confirmed.

While the replica is paused, the primary goes on committing (the workers' WAITs time out: the
moves are answered UNAVAILABLE and retried), and no watcher is given any of it: the feeds hold the
entries and ask again (`flotilla_gateway_feed_held_total` grows) while every stream gets nothing
new, though the primary is ahead of what they were shown. Once the replica is back, every game
finishes, every confirmed move is in its log once and every stream is gapless with one full view.
(The cluster's per-game feeds are tests/cluster/test_failover_readers.py's.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis

from chaos.chaos_support import CHAOS_ENV, COUNTER, SAIL_AWAY, Table, assert_sound, play_out
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from ledger import Ledger
from support import Stack, scrape, start_stack, until

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(240)]

WITHIN_S = 120.0  # every game over this long after the first started
FAULT_S = 30.0  # each step of the fault within this
HELD_ROUNDS = 4  # confirmation rounds held (across the gateways) while nothing new may reach a watcher


@pytest.fixture(scope="module")
def primary(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    running = RedisServer(tmp_path_factory.mktemp("primary")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def replica(primary: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    running = RedisServer(tmp_path_factory.mktemp("replica"), extra=("--replicaof", "127.0.0.1", str(primary.port)))
    running.start()
    yield running
    running.resume()  # a paused server would not stop
    running.stop()


@pytest.fixture(scope="module")
def stack(primary: RedisServer, replica: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(
        primary.url,
        tmp_path_factory.mktemp("replica-waits-stack"),
        extra_env={**CHAOS_ENV, "FLOTILLA_WAIT_REPLICAS": "1"},
        metrics=True,
    )
    yield running
    running.stop()


async def _replicating(replica: RedisServer) -> bool:
    client = aioredis.Redis(port=replica.port, socket_timeout=2, decode_responses=True)
    try:
        return (await client.info("replication")).get("master_link_status") == "up"
    finally:
        await client.aclose()


async def _versions(primary: RedisServer, game_ids: list[str]) -> list[int]:
    client = aioredis.Redis(port=primary.port, socket_timeout=2)
    try:
        return [int(await client.hget(keys.game(g), "version") or 0) for g in game_ids]
    finally:
        await client.aclose()


def _held(stack: Stack) -> float:
    return sum(scrape(port)["flotilla_gateway_feed_held_total{}"] for role, port in stack.metrics if role == "gateway")


async def test_watchers_are_given_nothing_the_replica_has_not_confirmed(
    primary: RedisServer, replica: RedisServer, stack: Stack
) -> None:
    await until(lambda: _replicating(replica), FAULT_S, "the replica to follow the primary", 0.1)
    ledger = Ledger()
    table = Table(stack.gateways, ledger, seed=7, play_stream_every=2)

    async def replica_away(stop: asyncio.Event) -> tuple[int, int]:
        await asyncio.wait_for(ledger.reached(10), FAULT_S)
        replica.pause()
        try:
            before = await asyncio.to_thread(_held, stack)

            async def held(rounds: int) -> bool:
                return await asyncio.to_thread(_held, stack) >= before + rounds

            await until(lambda: held(1), FAULT_S, "a feed to hold entries", 0.1)
            shown = [len(trace.ids) for trace in table.traces]
            await until(lambda: held(HELD_ROUNDS), FAULT_S, "more held rounds", 0.1)
            assert [len(trace.ids) for trace in table.traces] == shown, "a watcher was given an unconfirmed commit"
            game_ids = [game.name.removeprefix("games/") for game in table.games]
            stored = await _versions(primary, game_ids)
            seen = [max([0, *(abs(i) for t in [*g.bots, *g.spectators] for i in t.ids)]) for g in table.games]
            assert any(s > v for s, v in zip(stored, seen, strict=True)), "the primary committed nothing meanwhile"
        finally:
            replica.resume()
        return sum(shown), len(shown)

    games, (events, streams) = await play_out(table, [COUNTER, SAIL_AWAY, COUNTER], WITHIN_S, replica_away)
    kept = await assert_sound(stack.redis_url, ledger, games)
    print(f"\nreplica away: {kept}; {streams} streams held at {events} events")
