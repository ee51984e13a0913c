"""`StoreClient`: the Redis client a store runs on, and what every subject of `RedisStore` shares.

Making the client from a URL (single Redis or Cluster, TLS, pool bounds, TCP timeouts), the
cluster's primaries addressed directly (scripts in pipelines, WAIT), the records' lifetimes, and
the Lua scripts' source. Each subject of the store (games.py, commits.py, replicas.py,
history.py, work_queue.py, workers.py, inboxes.py, timers.py, sweeps.py, users.py) is a class on
this base; `RedisStore` (redis_store.py) composes them.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
import redis.asyncio as aioredis
import redis.cluster
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import parse_url

from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.connections import use_safe_connections, use_safe_pool
from flotilla.store.transient import own_errors


def script_source(name: str) -> str:
    """The text of a Lua script of store/scripts/."""
    return resources.files("flotilla.store.scripts").joinpath(name).read_text()


def as_text(value: bytes | str) -> str:
    """A reply's value as text (redis-py gives bytes, or str where it decoded one itself)."""
    return value.decode() if isinstance(value, bytes) else value


def flat_fields(flat: Sequence[bytes]) -> dict[bytes, bytes]:
    """A stream entry's fields from a script's flat [field, value, ...] reply."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


def stream_messages(reply: Any) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
    """An XREAD's or XREADGROUP's raw reply as (stream, entry id, fields) per message; none for nil."""
    by_stream = reply.items() if isinstance(reply, dict) else reply or []  # RESP3: a map; RESP2: pairs
    return [
        (as_text(stream), msg_id, flat_fields(fields)) for stream, messages in by_stream for msg_id, fields in messages
    ]


def _split_url(url: str) -> tuple[str, bool]:
    """(the URL without Flotilla's `cluster` parameter, whether it names a Redis Cluster)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    cluster = any(k == "cluster" and v.lower() in ("1", "true", "yes") for k, v in query)
    return urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "cluster"]))), cluster


@dataclass(frozen=True, slots=True)
class Lifetimes:
    """How long records live in Redis, in seconds (0: no TTL). Defaults are the settings' defaults."""

    unstarted_game_s: int = 15 * 60  # a game whose seats never all fill
    outcome_s: int = 24 * 3600  # a request id's recorded outcome
    user_s: int = 7 * 24 * 3600  # a guest user record (its sessions live as long)

    @classmethod
    def from_settings(cls, settings: Settings) -> Lifetimes:
        return cls(settings.unstarted_ttl_s, settings.outcome_ttl_s, settings.session_ttl_s)


@dataclass(slots=True)
class _Node:
    """A cluster primary: a plain client on it and the commit script bound to that client."""

    client: Any
    script: Any

    @property
    def address(self) -> tuple[str, int]:
        kwargs = self.client.connection_pool.connection_kwargs
        return (kwargs["host"], kwargs["port"])


def tcp_timeouts(timeout_ms: int) -> dict[int, int]:
    """Socket options (Linux; others are left out) that close a connection whose peer has not
    acknowledged what was sent for `timeout_ms`, and probe one idle that long (a blocked read) once
    a second: a partitioned peer fails a sending connection within `timeout_ms`, an idle one
    within twice that."""
    idle_s = max(1, timeout_ms // 1000)
    wanted = {"TCP_USER_TIMEOUT": timeout_ms, "TCP_KEEPIDLE": idle_s, "TCP_KEEPINTVL": 1, "TCP_KEEPCNT": 3}
    return {getattr(socket, name): value for name, value in wanted.items() if hasattr(socket, name)}


def dedicated_client(client: Any) -> Any:
    """A client on a connection of its own, outside `client`'s pool (single Redis): for a
    blocking read that another connection may end with CLIENT UNBLOCK, and that is closed
    with its reader (its connection never goes back to the shared pool mid-read)."""
    shared = client.connection_pool
    kwargs = shared.connection_kwargs
    pool = aioredis.ConnectionPool(connection_class=shared.connection_class, max_connections=1, **kwargs)
    return aioredis.Redis(connection_pool=pool, single_connection_client=True)


class Script:
    """A Lua script of store/scripts/ as a class attribute of a store subject (`_join = Script(
    "join_seat.lua")`): registered on the instance's client at its first use, then a plain
    attribute of the instance (registering sends nothing: the script goes as EVALSHA, loaded once)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.attr = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr

    def __get__(self, store: Any, owner: type | None = None) -> Any:
        if store is None:
            return self
        script = store.__dict__[self.attr] = store.redis.register_script(script_source(self.name))
        return script


@own_errors
class StoreClient:
    """The client, its settings and the cluster's primaries (the base of every store subject)."""

    def __init__(
        self, client: Any, *, wait_replicas: int = 0, wait_timeout_ms: int = 1000, lifetimes: Lifetimes | None = None
    ) -> None:
        # redis-py types replies as unions of sync/async and bytes/str; ours are bytes (no
        # decode_responses) and are decoded explicitly below, so the client is used untyped.
        self.redis: Any = client
        self.cluster = isinstance(client, RedisCluster)
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.lifetimes = lifetimes or Lifetimes()
        self.url = ""  # set by from_url (a second, synchronous client needs it: see `sync_client`)
        self._node_options: dict[str, Any] = {}
        self._node_pool = (128, 5.0)  # max connections, pool timeout of the per-primary clients
        self._nodes: dict[tuple[str, int], _Node] = {}

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 1000,
        lifetimes: Lifetimes | None = None,
        max_connections: int = 128,
        pool_timeout_s: float = 5.0,
        cluster_readers: int = 0,
        tcp_timeout_ms: int = 0,
        **kwargs: Any,
    ) -> Self:
        """A store on the Redis at `url`: redis:// or rediss:// (TLS), user:password@ as usual;
        `?cluster=true` for a Redis Cluster (the URL names any node).

        `wait_replicas` > 0 makes every commit wait (WAIT) for that many replicas before a move
        is confirmed, so a failover cannot lose a confirmed move.

        Connections are pooled, at most `max_connections` per Redis node; a command that finds
        none free waits `pool_timeout_s`, then fails with ConnectionError (UNAVAILABLE to
        clients). Blocking reads that would hold a pooled connection for long use connections of
        their own (`dedicated_client`), except on a cluster, where each watched game or followed
        room holds one of its node's pool while it reads: there the cap is raised by
        `cluster_readers`.

        `tcp_timeout_ms` > 0: a connection whose peer stops acknowledging (a partition: nothing is
        refused, nothing arrives) is closed after that long, whether it was sending (TCP_USER_TIMEOUT)
        or waiting on a blocking read (keepalive probes), so the command fails as a ConnectionError
        then instead of at the socket timeout (30 s) or when TCP gives up. On a Redis Cluster that
        bounds how long the calls of the games on a healthy primary wait behind a call to a lost one.
        """
        # Blocking reads (XREAD/XREADGROUP BLOCK) last at most ~10 s; the socket timeout sits above them.
        kwargs.setdefault("socket_timeout", 30)
        kwargs.setdefault("socket_connect_timeout", 5)
        if tcp_timeout_ms > 0:
            kwargs.setdefault("socket_keepalive", True)
            kwargs.setdefault("socket_keepalive_options", tcp_timeouts(tcp_timeout_ms))
        plain_url, cluster = _split_url(url)
        if cluster:
            client: Any = RedisCluster.from_url(plain_url, max_connections=max_connections + cluster_readers, **kwargs)
            use_safe_connections(client)
        else:
            kwargs.setdefault("health_check_interval", 15)
            # No hidden retries: redis-py (>= 6) re-sends a command whose connection broke, which
            # hides an outage from the paths that must see it (a worker's read whose delivered
            # entries were lost with the reply, the inbox reader's recovery signal, see
            # app/inbox.py). Every caller handles ConnectionError itself.
            kwargs.setdefault("retry", Retry(NoBackoff(), 0))
            pool = aioredis.BlockingConnectionPool.from_url(
                plain_url, max_connections=max_connections, timeout=pool_timeout_s, **kwargs
            )
            use_safe_pool(pool)
            client = aioredis.Redis.from_pool(pool)
        store = cls(client, wait_replicas=wait_replicas, wait_timeout_ms=wait_timeout_ms, lifetimes=lifetimes)
        store._node_options = {**parse_url(plain_url), **kwargs}  # type: ignore[no-untyped-call]
        store._node_pool = (max_connections, pool_timeout_s)
        store.url = url
        return store

    @classmethod
    def from_settings(cls, settings: Settings) -> Self:
        """The store every Flotilla process uses: REDIS_URL, the durability knob, the records'
        lifetimes and the pool bounds."""
        return cls.from_url(
            settings.redis_url,
            wait_replicas=settings.wait_replicas,
            wait_timeout_ms=settings.wait_timeout_ms,
            lifetimes=Lifetimes.from_settings(settings),
            max_connections=settings.redis_max_connections,
            pool_timeout_s=settings.redis_pool_timeout_s,
            cluster_readers=settings.max_open_streams,
            tcp_timeout_ms=settings.redis_tcp_timeout_ms,
        )

    def sync_client(self, timeout_s: float) -> Any:
        """A blocking client on the same Redis (for a thread beside the event loop)."""
        plain_url, _cluster = _split_url(self.url)
        options = {"socket_timeout": timeout_s, "socket_connect_timeout": timeout_s}
        if self.cluster:
            return redis.cluster.RedisCluster.from_url(plain_url, **options)
        return redis.Redis.from_url(plain_url, **options)

    async def close(self) -> None:
        for node in self._nodes.values():
            await node.client.aclose()
        await self.redis.aclose()

    async def ping(self) -> None:
        """One PING (an operator's check that Redis answers: `StoreUnreachable` if not)."""
        await self.redis.ping()

    # --- the cluster's primaries, addressed directly (scripts in pipelines, WAIT) -------
    def _node_for(self, key: str) -> _Node:
        """A plain client of the primary that holds `key`'s slot (cluster mode)."""
        node = self.redis.get_node_from_key(key)
        address = (node.host, node.port)
        found = self._nodes.get(address)
        if found is None:
            options = {k: v for k, v in self._node_options.items() if k not in ("host", "port", "db", "path")}
            max_connections, timeout = self._node_pool
            pool = aioredis.BlockingConnectionPool(
                host=node.host, port=node.port, max_connections=max_connections, timeout=timeout, **options
            )
            use_safe_pool(pool)
            client = aioredis.Redis.from_pool(pool)
            found = self._nodes[address] = _Node(client, client.register_script(script_source("commit_transition.lua")))
        return found

    def primary_of(self, game_id: str) -> tuple[str, int] | None:
        """The address of the primary that holds the game now (None on a single Redis)."""
        if not self.cluster:
            return None
        node = self.redis.get_node_from_key(keys.game(game_id))
        return (node.host, node.port)

    def dedicated_client(self) -> Any:
        """A client on a connection of its own, outside the shared pool (see `dedicated_client`)."""
        return dedicated_client(self.redis)
