"""A Redis Cluster primary isolated while games of several kinds run with replica waits on
(FLOTILLA_WAIT_REPLICAS=1): it keeps commits its replica never got, the replica is promoted,
then the old primary comes back as the new primary's replica and those commits are rolled back.

Afterwards: every move a client was told is committed is in its game's log exactly once, no
watcher (WatchGame or Play, seat or spectator) was ever shown a version that was rolled back
(every etag it received names a commit of the final history), every watcher's events are
gapless, every game finishes, no process died, every reader, feed and inbox task is alive and
none was restarted, and no client saw INTERNAL (a bot fails on any error the SDK does not retry).

How the commits are made to roll back: the replica is paused first, so the primary's commits stay
unconfirmed (WAIT times out: the workers answer NOT_REPLICATED, the feeds hold the entries);
then the primary is paused and the replica resumed and promoted (CLUSTER FAILOVER TAKEOVER: it
needs no word from its primary); then the primary is resumed. During the failover the cluster
answers CLUSTERDOWN, TRYAGAIN, MOVED..., and reads blocked on the old primary end with
`UNBLOCKED ... instance state changed` when it turns into a replica (issue 24): those used to
kill the per-stream work readers, the gateways' feeds and workers, and reach clients as INTERNAL.
That every class of the list is waited out is tests/test_transient.py's (from the replies Redis sends)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster as ClusterClient

from chaos.chaos_support import CHAOS_ENV, COUNTER, SAIL_AWAY, Table, assert_sound, play_out, shown_but_rolled_back
from flotilla.redis_server import RedisCluster, RedisServer
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import work_streams
from ledger import Ledger
from support import Stack, scrape, start_stack, until

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]

SPECS = [COUNTER, SAIL_AWAY, COUNTER, SAIL_AWAY, ("counter", 2, {"moves": "60"}), SAIL_AWAY]
WITHIN_S = 150.0  # every game over this long after the first started (the fault lasts ~10 s of it)
MOVES_BEFORE = 20  # confirmed moves before the fault starts
CUT_USER = "flotilla-test-cut"  # no such user: a replica that signs in as it is refused
FAULT_S = 30.0  # each step of the fault (a commit held, the takeover, the rejoin) within this long


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
        extra_env={**CHAOS_ENV, "FLOTILLA_WAIT_REPLICAS": "1"},
        metrics=True,
    )
    yield running
    running.stop()


async def _ask(node: RedisServer, *command: str) -> Any:
    client = aioredis.Redis(port=node.port, socket_timeout=2, decode_responses=True)
    try:
        return await client.execute_command(*command)
    finally:
        await client.aclose()


async def _owner(cluster: RedisCluster, key: str) -> RedisServer:
    probe = ClusterClient.from_url(cluster.url.split("?")[0])
    try:
        await probe.initialize()
        port = probe.get_node_from_key(key).port
    finally:
        await probe.aclose()
    return next(node for node in cluster.nodes if node.port == port)


async def _replica_of(cluster: RedisCluster, primary: RedisServer) -> RedisServer:
    me = await _ask(primary, "CLUSTER", "MYID")
    nodes = await _ask(primary, "CLUSTER", "NODES")  # one line a node: id address flags master-id ...
    line = next(line for line in nodes.splitlines() if line.split()[3] == me)
    port = int(line.split()[1].split("@")[0].rsplit(":", 1)[1])
    return next(node for node in cluster.nodes if node.port == port)


async def _heads(node: RedisServer, game_ids: list[str]) -> list[tuple[int, str]]:
    """Each game's (version, lineage) as `node` has it (a replica too)."""
    client = aioredis.Redis(port=node.port, socket_timeout=2, decode_responses=True)
    try:
        await client.execute_command("READONLY")
        rows = [await client.hmget(keys.game(g), ["version", "head"]) for g in game_ids]
    finally:
        await client.aclose()
    return [(int(version or 0), head or "") for version, head in rows]


async def _cut_replication(primary: RedisServer, replica: RedisServer) -> None:
    """The replica stops receiving its primary's writes (its link is cut; it cannot sign in again),
    while the primary goes on serving clients and the cluster bus goes on: a partition between the two."""
    await _ask(replica, "CONFIG", "SET", "masteruser", CUT_USER)
    await _ask(replica, "CONFIG", "SET", "masterauth", "not-the-password")
    await _ask(primary, "CLIENT", "KILL", "TYPE", "replica")


async def _heal_replication(replica: RedisServer) -> None:
    await _ask(replica, "CONFIG", "SET", "masteruser", "")
    await _ask(replica, "CONFIG", "SET", "masterauth", "")


async def _promoted(cluster: RedisCluster, replica: RedisServer, victim: RedisServer) -> bool:
    """Whether `replica` is a primary and every live node sees the cluster whole."""
    if (await _ask(replica, "INFO", "replication")).get("role") != "master":
        return False
    infos = [await _ask(node, "CLUSTER", "INFO") for node in cluster.nodes if node not in (victim,)]
    return all("cluster_state:ok" in str(info) for info in infos)


async def _rejoined(victim: RedisServer) -> bool:
    """Whether the old primary is a replica again, in sync with its new primary."""
    info = await _ask(victim, "INFO", "replication")
    return bool(info.get("role") == "slave" and info.get("master_link_status") == "up")


async def test_a_primary_isolated_and_replaced_shows_no_watcher_a_rolled_back_commit(
    cluster: RedisCluster, stack: Stack
) -> None:
    ledger = Ledger()
    table = Table(stack.gateways, ledger, seed=24, play_stream_every=2)
    held: dict[str, tuple[int, str]] = {}  # game id -> the head (version, lineage) the isolated primary made alone

    async def isolate_and_replace(stop: asyncio.Event) -> float:
        await asyncio.wait_for(ledger.reached(MOVES_BEFORE), FAULT_S)
        game_ids = [game.name.removeprefix("games/") for game in table.games]
        victim = await _owner(cluster, keys.game(game_ids[0]))
        replica = await _replica_of(cluster, victim)
        on_victim = [g for g in game_ids if (await _owner(cluster, keys.game(g))) is victim]
        await _cut_replication(victim, replica)
        try:
            kept_by_replica = await _heads(replica, on_victim)

            async def committed_alone() -> bool:
                now = await _heads(victim, on_victim)
                held.update(
                    (g, head) for g, head, old in zip(on_victim, now, kept_by_replica, strict=True) if head > old
                )
                return bool(held)

            await until(committed_alone, FAULT_S, "a commit the replica does not have", 0.1)
            victim.pause()  # now the primary is cut off from everything
            await _ask(replica, "CLUSTER", "FAILOVER", "TAKEOVER")
            await until(lambda: _promoted(cluster, replica, victim), FAULT_S, "the replica to take over", 0.2)
        finally:
            await _heal_replication(replica)
            victim.resume()  # it comes back as its old replica's replica, its own commits dropped
        healed = time.monotonic()
        await until(lambda: _rejoined(victim), FAULT_S, "the old primary to rejoin as a replica", 0.2)
        return healed

    games, healed = await play_out(table, SPECS, WITHIN_S, isolate_and_replace)
    kept = await assert_sound(stack.redis_url, ledger, games)
    for game in games:
        assert not (shown := await shown_but_rolled_back(stack.redis_url, game)), shown
    store = RedisStore.from_url(stack.redis_url)
    rolled_back = 0  # of the commits the isolated primary made alone
    try:
        for game_id, (version, lineage) in held.items():
            history = {e.version: e.lineage for e in await store.entries_after(game_id, 0)}
            rolled_back += history.get(version) != lineage
    finally:
        await store.close()
    assert rolled_back, f"the isolated primary's own commits {held} were not rolled back: the fault did not bite"
    streams = len(work_streams(Settings().shards))

    async def readers_all_alive() -> bool:
        for role, port in stack.metrics:
            values = await asyncio.to_thread(scrape, port)
            restarts = [name for name in values if name.startswith("flotilla_store_reader_restarts_total")]
            assert not [name for name in restarts if values[name]], f"a {role} reader died: see its log"
            if role == "worker" and values.get("flotilla_store_readers{kind=work}") != streams:
                return False
            if role == "gateway" and values.get("flotilla_store_readers{kind=inbox}") != 1:
                return False
        return True

    await until(readers_all_alive, 30, "every work reader and inbox alive", 0.2)
    for proc in [*stack.worker_procs, *stack.gateway_procs]:
        assert proc.poll() is None, "a process died in the failover"
    after_s = time.monotonic() - healed
    print(f"\nfailover: {kept}; {rolled_back} of {len(held)} held heads rolled back; {after_s:.1f} s after the heal")
