"""Flotilla on a real 6-node Redis Cluster (3 primaries, 3 replicas) on loopback: games finish, and
with the durability knob on (WAIT for a replica), killing a primary mid-game loses no confirmed move."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import pytest
from redis.asyncio.cluster import RedisCluster as ClusterClient

from flotilla.api.game.v1 import game_pb2
from flotilla.redis_server import RedisCluster
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, FlotillaError
from support import UNPACED, Stack, assert_gapless, assert_stored_state_replays, play_full_game, start_stack

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    running = RedisCluster(tmp_path_factory.mktemp("cluster")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def cluster_stack(cluster: RedisCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(
        cluster.url, tmp_path_factory.mktemp("cluster-stack"), extra_env={**UNPACED, "FLOTILLA_WAIT_REPLICAS": "1"}
    )  # UNPACED: the random seats submit as fast as the server answers
    yield running
    running.stop()


# A counter game of 60 moves (not the default 200) and a Sail Away game of two rounds (its seats
# choosing at once, as in every round): each move takes the same path through the cluster (the
# commit, WAIT for a replica, the feed), so more of them show nothing more.
@pytest.mark.parametrize(
    ("kind", "seats", "options"),
    [("counter", 2, {"moves": "60"}), ("sail_away", 3, {"max_rounds": "2"})],
    ids=["counter-2", "sail_away-3"],
)
async def test_games_finish_on_a_cluster(cluster_stack: Stack, kind: str, seats: int, options: dict[str, str]) -> None:
    played = await play_full_game(cluster_stack, kind, seats, options, seed=11)
    for ids in played.event_ids_by_watcher:
        assert_gapless(ids, played.final_version)
    await assert_stored_state_replays(cluster_stack.redis_url, played.game)


async def test_a_primary_killed_mid_game_loses_no_confirmed_move(cluster: RedisCluster, cluster_stack: Stack) -> None:
    host = FlotillaClient(*cluster_stack.gateways, retries=20, backoff_s=0.3)
    await host.sign_in("host")
    game = await host.create_game("counter", 2, {"moves": "60"})
    seats = []
    for i in range(2):
        client = FlotillaClient(*cluster_stack.gateways, retries=20, backoff_s=0.3)
        await client.sign_in(f"p{i}")
        seats.append((client, await client.join(game.name)))
    game_id = game.name.removeprefix("games/")
    probe = ClusterClient.from_url(cluster.url.split("?")[0])
    await probe.initialize()
    owner = probe.get_node_from_key(keys.game(game_id))
    await probe.aclose()
    victim = next(n for n in cluster.nodes if n.port == owner.port)
    confirmed: list[int] = []

    async def play(client: FlotillaClient, seat_index: int) -> None:
        seat = seats[seat_index][1]
        rng = random.Random(seat_index)
        async for update in client.watch(game.name, seat):
            if update.HasField("prompt"):
                action = rng.choice(list(update.prompt.legal_actions))
                try:
                    reply = await client.submit(game.name, seat, action)
                except FlotillaError as error:
                    if error.reason in ("ERROR_REASON_NOT_YOUR_TURN", "ERROR_REASON_STALE_GAME_VERSION"):
                        continue
                    raise
                confirmed.append(reply.through_event_id)
                if len(confirmed) == 20:
                    victim.kill()  # the primary holding this game's slot dies mid-game ...
                    restarts.append(asyncio.create_task(replace_victim()))

    async def replace_victim() -> None:
        # ... its replica takes over; until a replica serves that primary again, WAIT cannot be
        # satisfied and moves are answered UNAVAILABLE (the SDK retries). The node comes back
        # (as an operator would replace it) and rejoins as the new primary's replica.
        await asyncio.sleep(6)
        await asyncio.to_thread(victim.start)

    restarts: list[asyncio.Task[None]] = []

    await asyncio.wait_for(asyncio.gather(*(play(c, i) for i, (c, _s) in enumerate(seats))), 240)
    final = await host.get_game(game.name)
    assert final.state == game_pb2.GAME_STATE_FINISHED
    store = RedisStore.from_url(cluster.url)
    try:
        logged = {row.version for row in await store.actions_log(game_id)}
    finally:
        await store.close()
    assert restarts
    await restarts[0]
    lost = sorted(set(confirmed) - logged)
    assert not lost, f"confirmed moves lost in the failover: {lost}"
    assert len(logged) == 60
    for client, _seat in seats:
        await client.close()
    await host.close()
