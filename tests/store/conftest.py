"""The store contract suite's backends: every test here runs once on a single redis-server and once
on a Redis Cluster of three primaries (no replicas: nothing here waits for one; tests/cluster/
covers replica waits and failovers). Both servers are started once per test session (per xdist
worker); each test gets a fresh `RedisStore` and keys of its own (`uid`), so no test depends on another.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster as ClusterClient

from flotilla.redis_server import RedisCluster
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore

pytestmark = pytest.mark.redis

BACKENDS = ("redis", "cluster")


@pytest.fixture(scope="session")
def store_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """A Redis Cluster of three primaries for the session (about two seconds to start)."""
    running = RedisCluster(tmp_path_factory.mktemp("store-cluster"), primaries=3, replicas=0).start()
    yield running
    running.stop()


@pytest.fixture(params=BACKENDS)
def backend_url(request: pytest.FixtureRequest) -> str:
    """The URL of this run's backend: the session's redis-server, or the cluster (`?cluster=true`)."""
    if request.param == "redis":
        return str(request.getfixturevalue("redis_server").url)
    return str(request.getfixturevalue("store_cluster").url)


@pytest.fixture
async def store(backend_url: str) -> AsyncIterator[RedisStore]:
    """The store under test (closed after the test: its readers stop with it)."""
    opened = RedisStore.from_url(backend_url)
    yield opened
    await opened.close()


@pytest.fixture
async def probe(backend_url: str) -> AsyncIterator[Any]:
    """A raw client on the same backend, to look at what the store wrote (TTLs, slots, consumers)."""
    plain = backend_url.split("?", maxsplit=1)[0]
    client: Any = aioredis.from_url(plain)
    if backend_url.endswith("cluster=true"):
        client = await ClusterClient.from_url(plain).initialize()  # its slot map, for get_node_from_key
    yield client
    await client.aclose()


SHARED = (keys.GAMES, keys.games_of_kind("counter"), keys.TIMERS, keys.ROOMS_PRESENCE)
"""Sets every test shares, where a test's members carry its `uid` (dropped after it)."""


@pytest.fixture
async def uid(probe: Any) -> AsyncIterator[str]:
    """A name no other test uses: every key a test makes, and every member it adds to a `SHARED`
    set, carries it. All of them are deleted after the test: the single Redis is the session's,
    and other modules list its games."""
    name = uuid.uuid4().hex[:12]
    yield name
    async for key in probe.scan_iter(match=f"*{name}*", count=1000):
        await probe.delete(key)
    for shared in SHARED:
        members = [member async for member, _score in probe.zscan_iter(shared, match=f"*{name}*")]
        if members:
            await probe.zrem(shared, *members)
