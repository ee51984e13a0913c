"""A connection closed under a command in flight fails as a lost connection, never as a bug.

A concurrent `disconnect()` (a cluster failover re-initialising its nodes) between redis-py's
connected check and its write used to surface as AttributeError: INTERNAL to a client, a crash
in a worker. The health check is the await where it happened; here it disconnects, as the
failover's task did."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import redis
import redis.asyncio
import uvloop
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError

from flotilla.redis_server import RedisServer, free_port
from flotilla.store.connections import RoleChanged, SafeConnection, SafeSSLConnection
from flotilla.store.redis_store import RedisStore
from flotilla.store.transient import is_transient
from support import until

pytestmark = pytest.mark.redis


async def _send_while_disconnected(connection: Connection) -> None:
    await connection.connect()

    async def health_check_meets_a_failover() -> None:
        await connection.disconnect()

    connection.check_health = health_check_meets_a_failover  # type: ignore[method-assign]
    try:
        await connection.send_packed_command(b"PING\r\n")
    finally:
        await connection.disconnect()


async def test_a_concurrent_disconnect_fails_as_a_lost_connection(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    try:
        pool = store.redis.connection_pool
        assert pool.connection_class is SafeConnection
        connection = pool.make_connection()
        with pytest.raises(RedisConnectionError):  # ours, or redis-py's own since 8.2
            await _send_while_disconnected(connection)
        assert await store.redis.ping()  # the pool goes on
    finally:
        await store.close()


def test_a_write_on_a_transport_closed_under_it_fails_as_a_lost_connection_on_uvloop(redis_url: str) -> None:
    """The same race where the disconnect closed the transport but left the writer: uvloop (what
    every Flotilla process runs) raises RuntimeError there, which crashed both workers of a
    Redis Cluster failover before this was a ConnectionError."""

    async def scenario() -> None:
        store = RedisStore.from_url(redis_url)
        try:
            connection = store.redis.connection_pool.make_connection()
            await connection.connect()

            async def health_check_meets_a_failover() -> None:
                connection._writer.transport.abort()  # closed under the command, writer kept

            connection.check_health = health_check_meets_a_failover
            with pytest.raises(RedisConnectionError):  # ours, or redis-py's own since 8.2
                await connection.send_packed_command(b"PING\r\n")
            await connection.disconnect()
            assert await store.redis.ping()
        finally:
            await store.close()

    uvloop.run(scenario())


async def test_the_race_is_real_with_redis_py_alone_before_8_2(redis_url: str) -> None:
    """Without the safe class the same sequence is the AttributeError the failover test met, up to
    redis-py 8.1; 8.2 checks the writer itself and raises ConnectionError (pyproject allows both,
    so the safe class stays until the floor is 8.2)."""
    store = RedisStore.from_url(redis_url)
    try:
        kwargs = store.redis.connection_pool.connection_kwargs
        fixed_upstream = tuple(int(p) for p in redis.__version__.split(".")[:2]) >= (8, 2)
        with pytest.raises(RedisConnectionError if fixed_upstream else AttributeError):
            await _send_while_disconnected(Connection(**kwargs))
    finally:
        await store.close()


def test_tls_urls_get_the_safe_tls_connection() -> None:
    store = RedisStore.from_url("rediss://127.0.0.1:1")  # not connected: only the pool is built
    assert store.redis.connection_pool.connection_class is SafeSSLConnection


def test_cluster_nodes_known_and_discovered_get_the_safe_connection() -> None:
    store = RedisStore.from_url("redis://127.0.0.1:1?cluster=true")  # not initialised: nothing connects
    manager = store.redis.nodes_manager
    assert [node.connection_class for node in manager.startup_nodes.values()] == [SafeConnection]
    assert manager.connection_kwargs["connection_class"] is SafeConnection  # nodes found later


async def test_a_blocked_read_on_a_primary_turned_replica_fails_as_a_lost_connection(tmp_path: Path) -> None:
    """A failover (or an old primary rejoining) turns a primary into a replica: Redis ends every
    blocked XREAD on it with `UNBLOCKED ... instance state changed`, a plain ResponseError in
    redis-py, which killed feed tasks. It is a `RoleChanged`, a ConnectionError every reader retries."""
    server = RedisServer(tmp_path, aof=False).start()
    store = RedisStore.from_url(server.url)
    admin = redis.asyncio.Redis(port=server.port)
    try:
        reading = asyncio.create_task(store.redis.xread({"flotilla:test:blocked": "$"}, block=30_000))
        await until(lambda: _blocked_clients(admin), 10, "the XREAD to block")
        await admin.execute_command("REPLICAOF", "127.0.0.1", str(free_port()))  # nobody there: fine
        with pytest.raises(RoleChanged) as raised:
            await asyncio.wait_for(reading, 10)
        assert is_transient(raised.value)
        await admin.execute_command("REPLICAOF", "NO", "ONE")
        assert await store.redis.ping()  # the pool goes on
    finally:
        await admin.aclose()
        await store.close()
        server.stop()


async def _blocked_clients(admin: redis.asyncio.Redis) -> bool:
    return int((await admin.info("clients"))["blocked_clients"]) > 0
