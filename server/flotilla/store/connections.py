"""redis-py connections whose lost socket always fails as a `ConnectionError`.

redis-py's asyncio connection checks that it is connected, may await a health check, then
writes to its stream writer. A concurrent `disconnect()` in between (a Redis Cluster failover
re-initialising its nodes closes their connections, commands in flight included) leaves the
writer `None`, and the write fails with `AttributeError` or `TypeError` (redis-py issue #3546),
or leaves the writer on a closed transport, where uvloop raises `RuntimeError`. Every retry
path in Flotilla handles `ConnectionError` (UNAVAILABLE to clients, a worker's pause and
retry); these classes turn that race into the `ConnectionError` it is.

`run_packed` sends commands packed by the caller (hot paths: bytes built once, no per-argument
encoding) as one write on a pooled connection, and reads their replies as a pipeline would;
`run_packed_then` adds a blocking read to the same write, answered later (a worker's next read
after its round's commits).

They do the same for a blocked read (XREAD BLOCK) on a primary that turns into a replica (a
failover, or the old primary coming back): Redis ends the read with `UNBLOCKED force unblock
from blocking operation, instance state changed (master -> replica?)`, which redis-py raises as
a plain `ResponseError`. That is `RoleChanged`, a `ConnectionError`: the cluster client then
relearns the slots, and every reader waits and reads again instead of dying on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection, Connection, ConnectionPool, SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from flotilla.store.held import read_replies

CONCURRENT_DISCONNECT = "the connection was closed by a concurrent disconnect (a failover?)"
ROLE_CHANGED = "UNBLOCKED force unblock from blocking operation, instance state changed"


class RoleChanged(RedisConnectionError):
    """A blocked read ended because its node stopped being a primary (see the module docstring)."""


async def _read(reading: Awaitable[Any]) -> Any:
    try:
        return await reading
    except ResponseError as exc:
        if str(exc).startswith(ROLE_CHANGED):
            raise RoleChanged(str(exc)) from exc
        raise


async def _send(connection: Connection, send: Callable[[], Awaitable[None]]) -> None:
    try:
        await send()
    except (AttributeError, TypeError, RuntimeError) as exc:
        # The writer is gone (AttributeError/TypeError), or still there on a transport already
        # closed (uvloop's RuntimeError "the handler is closed"): else a bug to surface.
        writer = connection._writer
        if writer is not None and not writer.transport.is_closing():
            raise
        raise RedisConnectionError(CONCURRENT_DISCONNECT) from exc


class SafeConnection(Connection):
    """A plain connection (see the module docstring)."""

    async def send_packed_command(self, command: bytes | str | Iterable[bytes], check_health: bool = True) -> None:
        await _send(self, lambda: super(SafeConnection, self).send_packed_command(command, check_health))

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        return await _read(super().read_response(*args, **kwargs))


class SafeSSLConnection(SSLConnection):
    """A TLS connection (see the module docstring)."""

    async def send_packed_command(self, command: bytes | str | Iterable[bytes], check_health: bool = True) -> None:
        await _send(self, lambda: super(SafeSSLConnection, self).send_packed_command(command, check_health))

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        return await _read(super().read_response(*args, **kwargs))


SAFE: dict[type[AbstractConnection], type[Connection]] = {Connection: SafeConnection, SSLConnection: SafeSSLConnection}


def use_safe_pool(pool: ConnectionPool) -> ConnectionPool:
    """`pool` (a TCP or TLS one; unix sockets are left as they are) opening the classes above."""
    pool.connection_class = SAFE.get(pool.connection_class, pool.connection_class)
    return pool


def use_safe_connections(cluster: RedisCluster) -> None:
    """Make `cluster` (not yet initialised) open every node's connections as the classes above.

    redis.asyncio's RedisCluster takes no connection class; its nodes are built from one shared
    keyword dict, so the class is set there and on the startup nodes already built from it."""
    options: dict[str, Any] = cluster.connection_kwargs
    safe = SAFE[options.get("connection_class", Connection)]
    options["connection_class"] = safe
    cluster.nodes_manager.connection_kwargs["connection_class"] = safe
    node: ClusterNode
    for node in cluster.nodes_manager.startup_nodes.values():
        node.connection_class = safe


Reading = asyncio.Future[Any]
"""The reply to come of a command sent ahead (`run_packed_then`)."""


async def run_packed(client: Any, packed: Sequence[bytes]) -> list[Any]:
    """Commands already packed as RESP (`hiredis.pack_command`), sent in one write on one connection
    of `client`'s pool; their replies in order, an error reply in its place as the exception (a
    pipeline's `raise_on_error=False`). No response callbacks: replies as Redis gave them. A lost
    connection raises (no retry, like the pools'); one left with replies unread is closed."""
    replies, _none = await _run(client, packed, None)
    return replies


async def run_packed_then(client: Any, packed: Sequence[bytes], last: bytes) -> tuple[list[Any], Reading]:
    """`run_packed`, with one more command (`last`, a blocking read) in the same write: the replies
    to `packed`, and the future of the last one's (its error raised there), which holds the
    connection until it is answered."""
    replies, future = await _run(client, packed, last)
    assert future is not None
    return replies, future


async def _run(
    client: Any, packed: Sequence[bytes], last: bytes | None
) -> tuple[list[Any], asyncio.Future[Any] | None]:
    pool = client.connection_pool
    connection = await pool.get_connection()
    try:
        await connection.send_packed_command(b"".join(packed if last is None else [*packed, last]))
        replies = await read_replies(connection, len(packed))
    except BaseException:
        await connection.disconnect()
        await pool.release(connection)
        raise
    if last is None:
        await pool.release(connection)
        return replies, None
    return replies, asyncio.ensure_future(_last_reply(pool, connection))


async def _last_reply(pool: Any, connection: Any) -> Any:
    try:
        return await connection.read_response()
    except BaseException:
        await connection.disconnect()
        raise
    finally:
        await pool.release(connection)
