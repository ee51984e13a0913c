"""A Redis Cluster primary paused past the node timeout (as a partition would cut it off) while
games run: its replica takes over, and afterwards every reader and feed task is alive, no worker
or gateway died, no client saw INTERNAL, and every game moves on.

During the failover the cluster answers CLUSTERDOWN, TRYAGAIN, MOVED...: redis-py raises those
as `ClusterDownError`, `TryAgainError`, `MovedError` (none of them a `ConnectionError`), which
used to kill the per-stream work readers, the gateways' feeds and workers, and reach clients as
INTERNAL (issue 24). The readers' counts come from each process's /metrics.

Which of those errors a reader meets depends on timing (redis-py's cluster client retries some
itself): here, reads blocked on the old primary end with `UNBLOCKED ... instance state changed`
when it comes back as a replica, which killed feed tasks before `RoleChanged`. That every class
of the list is waited out is tests/test_transient.py's (from the replies Redis sends)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import grpc
import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster as ClusterClient

from flotilla.redis_server import RedisCluster, RedisServer
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.worker.loop import work_streams
from flotilla_client import FlotillaClient, FlotillaError
from flotilla_client.api.game.v1 import game_pb2
from support import Stack, scrape, start_stack, until

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]

GAMES = 6  # counter games, seat 0 on the first gateway and seat 1 on the second: each watches all
MOVED_ON = 3  # moves every game makes after the heal


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    running = RedisCluster(tmp_path_factory.mktemp("cluster")).start()
    yield running
    for node in running.nodes:
        node.resume()  # a paused node would not stop
    running.stop()


@pytest.fixture(scope="module")
def stack(cluster: RedisCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(
        cluster.url,
        tmp_path_factory.mktemp("failover-stack"),
        extra_env={"FLOTILLA_WAIT_REPLICAS": "1"},
        metrics=True,
    )
    yield running
    running.stop()


async def _owner(cluster: RedisCluster, key: str) -> RedisServer:
    probe = ClusterClient.from_url(cluster.url.split("?")[0])
    try:
        await probe.initialize()
        port = probe.get_node_from_key(key).port
    finally:
        await probe.aclose()
    return next(node for node in cluster.nodes if node.port == port)


async def _failed_over(cluster: RedisCluster, victim: RedisServer) -> bool:
    """Whether a live node sees `victim` failed and the cluster whole again (its replica promoted)."""
    witness = next(node for node in cluster.nodes if node is not victim)
    client = aioredis.Redis(port=witness.port, socket_timeout=2, decode_responses=True)
    try:
        info = str(await client.execute_command("CLUSTER", "INFO"))
        nodes = str(await client.execute_command("CLUSTER", "NODES"))  # one line a node: id address flags ...
    finally:
        await client.aclose()
    victim_line = next((line for line in nodes.splitlines() if f":{victim.port}@" in line), "")
    flags = victim_line.split()[2].split(",") if victim_line else []
    return "fail" in flags and "cluster_state:ok" in info


async def test_a_primary_paused_past_the_node_timeout_kills_no_reader_feed_or_worker(
    cluster: RedisCluster, stack: Stack
) -> None:
    host = FlotillaClient(*stack.gateways, retries=30, backoff_s=0.3)
    await host.sign_in("host")
    games = [await host.create_game("counter", 2, {"moves": "100000"}) for _ in range(GAMES)]
    committed = {game.name: 0 for game in games}  # the last event id a seat was told is committed
    internal: list[str] = []
    clients: list[FlotillaClient] = [host]

    def seen(error: FlotillaError) -> None:
        if error.code == grpc.StatusCode.INTERNAL:
            internal.append(str(error))

    async def seat(game: game_pb2.Game, index: int) -> None:
        client = FlotillaClient(stack.gateways[index], retries=30, backoff_s=0.3)
        clients.append(client)
        await client.sign_in(f"{game.name.rsplit('/', 1)[-1][:8]}-{index}")
        joined = await client.join(game.name)
        rng = random.Random(index)
        while True:  # a watch the SDK gave up on (after its retries) is opened again
            try:
                async for update in client.watch(game.name, joined):
                    if not update.HasField("prompt"):
                        continue
                    action = rng.choice(list(update.prompt.legal_actions))
                    try:
                        reply = await client.submit(game.name, joined, action, etag=update.prompt.etag)
                    except FlotillaError as error:
                        seen(error)
                        continue
                    committed[game.name] = max(committed[game.name], reply.through_event_id)
            except FlotillaError as error:
                seen(error)

    bots = [asyncio.create_task(seat(game, index)) for game in games for index in range(2)]

    async def all_moved(since: dict[str, int]) -> bool:
        for bot in bots:
            if bot.done():
                bot.result()  # a bot that ended raised: show why
        return all(committed[name] >= since[name] + MOVED_ON for name in committed)

    try:
        await until(lambda: all_moved(dict.fromkeys(committed, 0)), 60, "every game to start moving", 0.1)
        victim = await _owner(cluster, keys.game(games[0].name.removeprefix("games/")))
        victim.pause()
        try:
            await until(lambda: _failed_over(cluster, victim), 60, "the replica to take over", 0.2)
        finally:
            victim.resume()  # it comes back as its old replica's replica
        healed = dict(committed)
        await until(lambda: all_moved(healed), 90, "every game to move on after the failover", 0.1)

        streams = len(work_streams(Settings().shards))

        async def readers_all_alive() -> bool:
            for role, port in stack.metrics:
                values = await asyncio.to_thread(scrape, port)
                restarts = [name for name in values if name.startswith("flotilla_store_reader_restarts_total")]
                assert not [name for name in restarts if values[name]], f"a {role} reader died: see its log"
                if role == "worker" and values.get("flotilla_store_readers{kind=work}") != streams:
                    return False
                if role == "gateway" and not (
                    values.get("flotilla_store_readers{kind=feed}") == GAMES
                    and values.get("flotilla_gateway_watched_games{}") == GAMES
                    and values.get("flotilla_store_readers{kind=inbox}") == 1
                ):
                    return False
            return True

        await until(readers_all_alive, 30, "every work reader, feed and inbox alive", 0.2)
        assert not internal, f"clients saw INTERNAL: {internal[:3]}"
        for proc in [*stack.worker_procs, *stack.gateway_procs]:
            assert proc.poll() is None, "a process died in the failover"
    finally:
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        for client in clients:
            await client.close()
