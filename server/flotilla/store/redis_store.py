"""The Redis store: the only code that runs Redis commands for games, work and users."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import orjson
import redis
import redis.asyncio as aioredis
import redis.cluster
import structlog
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import parse_url
from redis.exceptions import NoScriptError, ResponseError

from flotilla.errors import WorkGroupLost
from flotilla.records import ACCOUNT, GUEST, ActionRecord, Entry, InboxReply, finished_fields
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.commit_script import CommitArgs, CommitKeys, CommitRequest, Committed
from flotilla.store.connections import use_safe_connections, use_safe_pool
from flotilla.store.limits_store import Bucket, LimitStore, gate_call, refusals_of
from flotilla.store.meta import GameMeta
from flotilla.store.protocol import Store
from flotilla.store.supervise import supervised
from flotilla.store.transient import RETRY_PAUSE_S, TRANSIENT, group_required, own_errors

log = structlog.get_logger("flotilla.store")

RELEARN: tuple[type[Exception], ...] = (*TRANSIENT, ResponseError)
"""A cluster pipeline failed this way: the slots may have moved, relearn them (the caller retries)."""

REPLICATED_MARKER_MS = 60_000
"""The TTL of the marker `confirm` and `confirm_heads` write before their WAIT (`keys.game_replicated`)."""

# A work entry waiting for the next pipeline: stream, fields, rate-limit buckets, its future.
_Outgoing = tuple[str, dict[str, Any], tuple[Bucket, ...], "asyncio.Future[tuple[int, int] | None]"]


def _script(name: str) -> str:
    return resources.files("flotilla.store.scripts").joinpath(name).read_text()


def _split_url(url: str) -> tuple[str, bool]:
    """(the URL without Flotilla's `cluster` parameter, whether it names a Redis Cluster)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    cluster = any(k == "cluster" and v.lower() in ("1", "true", "yes") for k, v in query)
    return urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query if k != "cluster"]))), cluster


async def user_names(client: Any, users: Sequence[str]) -> list[tuple[str, str]]:
    """Each user's (display name, kind) from their record (`create_user`; a guest's made before
    kinds were kept says `guest` only); ("", "") once it is gone."""
    async with client.pipeline(transaction=False) as pipe:
        for user in users:
            pipe.hmget(keys.user(user), ("name", "kind", "guest"))
        rows = await pipe.execute()
    return [((n or b"").decode(), k.decode() if k else GUEST if g else "") for n, k, g in rows]


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


_META_FIELDS = (
    b"kind",
    b"rules_version",
    b"seat_count",
    b"options",
    b"status",
    b"version",
    b"created_ms",
    b"to_act",
    b"result",
    b"seed_sha256",
    b"clock",
    b"seatclock",
    b"private_code",
    b"head",
)


_SEATCLOCK = _META_FIELDS.index(b"seatclock")  # the seat clocks as stored (the commit compares the bytes)


def _meta(game_id: str, values: Sequence[bytes | None]) -> GameMeta | None:
    if values[0] is None:
        return None
    kind, rules_version, seat_count, options, status, version, created_ms, to_act, result, commitment, clock, seats = (
        values[:12]
    )
    code, head = values[12:14]
    return GameMeta(
        game_id=game_id,
        kind=kind.decode() if kind else "",
        rules_version=rules_version.decode() if rules_version else "",
        seat_count=int(seat_count or 0),
        options=orjson.loads(options) if options else {},
        status=status.decode() if status else "",
        version=int(version or 0),
        created_ms=int(created_ms or 0),
        to_act=orjson.loads(to_act) if to_act else [],
        result=orjson.loads(result) if result else None,
        seed_sha256=commitment.decode() if commitment else "",
        clock=orjson.loads(clock) if clock else None,
        seatclock=orjson.loads(seats) if seats else None,
        private_code=code.decode() if code else "",
        head=head.decode() if head else "",
    )


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _pairs(flat: Sequence[bytes]) -> dict[bytes, bytes]:
    """A stream entry's fields from a script's flat [field, value, ...] reply."""
    return dict(zip(flat[::2], flat[1::2], strict=True))


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


@own_errors
class RedisStore:
    """Games, event streams, action streams, inboxes and users in Redis (redis.asyncio)."""

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
        self._readers: list[asyncio.Task[None]] = []
        self._outgoing: list[_Outgoing] = []
        self._flushing: set[asyncio.Task[None]] = set()
        self._incoming: asyncio.Queue[list[tuple[str, bytes, dict[bytes, bytes]]]] = asyncio.Queue(64)
        self._commit = client.register_script(_script("commit_transition.lua"))
        self._create = client.register_script(_script("create_game.lua"))
        self._join = client.register_script(_script("join_seat.lua"))
        self._update_clock = client.register_script(_script("update_clock.lua"))
        self._claim_timers = client.register_script(_script("claim_timers.lua"))
        self._settle_timer = client.register_script(_script("settle_timer.lua"))
        self._claim_dead = client.register_script(_script("claim_dead.lua"))
        self._workers_lapsed = client.register_script(_script("workers_lapsed.lua"))
        self._keep_inbox = client.register_script(_script("keep_inbox.lua"))
        self._drop_gone_game = client.register_script(_script("drop_gone_game.lua"))
        self._zrem_if_score = client.register_script(_script("zrem_if_score.lua"))
        self.limits = LimitStore(client, cluster=self.cluster)

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
    ) -> RedisStore:
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
    def from_settings(cls, settings: Settings) -> RedisStore:
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
        for reader in self._readers:
            reader.cancel()
        for node in self._nodes.values():
            await node.client.aclose()
        await self.redis.aclose()

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
            found = self._nodes[address] = _Node(client, client.register_script(_script("commit_transition.lua")))
        return found

    async def _commit_on(self, client: Any, script: Any, commits: Sequence[CommitRequest]) -> tuple[list[Any], bool]:
        """Commit scripts in one pipeline on one connection, then WAIT for replicas if asked."""
        async with client.pipeline(transaction=False) as pipe:
            for commit in commits:
                await script(keys=commit.keys_list(), args=commit.argv(), client=pipe)
            if self.wait_replicas:
                pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)
            replies = await pipe.execute()
        if self.wait_replicas:
            acked = int(replies.pop())
            return replies, acked >= self.wait_replicas
        return replies, True

    @property
    def settles_work(self) -> bool:
        """Whether the commit script also acknowledges the work and answers the gateway (one
        Redis, where every key is on the one server, and no replica waits, after which alone
        an outcome may be given out)."""
        return not self.cluster and not self.wait_replicas

    def primary_of(self, game_id: str) -> tuple[str, int] | None:
        """The address of the primary that holds the game now (None on a single Redis)."""
        if not self.cluster:
            return None
        node = self.redis.get_node_from_key(keys.game(game_id))
        return (node.host, node.port)

    def _by_primary(self, game_ids: Iterable[str]) -> dict[Any, list[str]]:
        """The games grouped by the client of the primary that holds them now."""
        groups: dict[Any, list[str]] = {}
        for game_id in game_ids:
            client = self._node_for(keys.game(game_id)).client if self.cluster else self.redis
            groups.setdefault(client, []).append(game_id)
        return groups

    async def _replicated(self, client: Any, game_id: str, reads: Callable[[Any], None]) -> tuple[list[Any], bool]:
        """`reads` queued on a pipeline of `client`, then a write to `game_id`'s slot and WAIT:
        their replies, and whether `wait_replicas` replicas acknowledged.

        WAIT counts the replication offset of the connection's last *propagated* write, so the
        write must always propagate (a no-op such as HSETNX on an existing field does not:
        then WAIT covers nothing, or an older write of that connection). A SET with a TTL always
        does; replication is ordered, so its acknowledgement covers every earlier write of the
        primary, whichever connection made it (docs/deploy.md, Durability)."""
        async with client.pipeline(transaction=False) as pipe:
            reads(pipe)
            pipe.set(keys.game_replicated(game_id), 1, px=REPLICATED_MARKER_MS)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)
            replies = await pipe.execute()
        return replies[:-2], int(replies[-1]) >= self.wait_replicas

    async def confirm(self, game_ids: Sequence[str]) -> bool:
        """Wait until every earlier write to these games' primaries is on `wait_replicas` replicas
        (`_replicated`, once per primary)."""
        if not self.wait_replicas or not game_ids:
            return True
        ok = True
        for client, games in self._by_primary(game_ids).items():
            _nothing, acked = await self._replicated(client, games[0], lambda _pipe: None)
            ok = ok and acked
        return ok

    async def confirm_heads(self, heads: Mapping[str, tuple[int, str]]) -> set[str]:
        """The games among `heads` (game -> a version and its lineage, as read) whose commit at
        that version is on `wait_replicas` replicas now (all of them when waits are off).

        Per primary, one pipeline: each game's stored head and its entry at that version, then
        `_replicated`. A commit read earlier (perhaps from another primary, before a failover)
        counts only if the primary that holds the game now has it, as that version's entry or
        as its head, before the WAIT: then the WAIT's acknowledgement covers it."""
        if not self.wait_replicas or not heads:
            return set(heads)
        confirmed: set[str] = set()
        for client, games in self._by_primary(heads).items():

            def reads(pipe: Any, games: list[str] = games) -> None:
                for game_id in games:
                    version = heads[game_id][0]
                    pipe.hmget(keys.game(game_id), (b"version", b"head"))
                    pipe.xrange(keys.game_events(game_id), f"0-{version}", f"0-{version}", count=1)

            replies, acked = await self._replicated(client, games[0], reads)
            if not acked:
                continue
            for i, game_id in enumerate(games):
                version, lineage = heads[game_id]
                (stored, head), rows = replies[2 * i], replies[2 * i + 1]
                at_head = stored is not None and int(stored) == version and _text(head or b"") == lineage
                if at_head or (rows and Entry.decode(rows[0][1]).lineage == lineage):
                    confirmed.add(game_id)
        return confirmed

    # --- games -------------------------------------------------------------------------
    async def create_game(
        self,
        game_id: str,
        *,
        kind: str,
        rules_version: str,
        seat_count: int,
        options: Mapping[str, str],
        created_ms: int,
        version: int,
        state: bytes,
        events: bytes,
        prompts: bytes,
        to_act: bytes,
        seed_sha256: str,
        clock: bytes = b"",
        seatclock: bytes = b"",
        private_code: str = "",
        lineage: str = "",
        seated: Sequence[tuple[str, str]] = (),
    ) -> bool | None:
        """Store a new game and its first stream entry; False if the id exists already (None: with
        other holders than `seated`).

        The game expires after `lifetimes.unstarted_game_s` unless every seat gets taken. `seated`:
        every seat's (user, name) in seat order; the game starts with them seated and nobody else
        may join it (create_game.lua).
        """
        created_us = created_ms * 1000 + secrets.randbelow(1000)  # listing order; unique in practice
        created = await self._create(
            keys=[keys.game(game_id), keys.game_events(game_id), keys.game_seats(game_id)],
            args=[
                version,
                state,
                events,
                prompts,
                to_act,
                kind,
                rules_version,
                seat_count,
                orjson.dumps(dict(options)),
                created_ms,
                seed_sha256,
                clock,
                seatclock,
                private_code,
                lineage,
                self.lifetimes.unstarted_game_s,
                orjson.dumps(await self._holders(seated)) if seated else "",
            ],
        )
        if created < 0:
            return None
        if created:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(keys.GAMES, {game_id: created_us})
                pipe.zadd(keys.games_of_kind(kind), {game_id: created_us})
                await pipe.execute()
        return bool(created)

    async def expires_in_ms(self, game_id: str, margin_ms: int) -> int:
        """Milliseconds until the game expires, plus `margin_ms`; 0 when it is kept for good."""
        left = int(await self.redis.pttl(keys.game(game_id)))
        return left + margin_ms if left > 0 else 0

    async def game_meta(self, game_id: str) -> GameMeta | None:
        return _meta(game_id, await self.redis.hmget(keys.game(game_id), _META_FIELDS))

    async def load(self, game_id: str) -> tuple[GameMeta, bytes] | None:
        """The game's description and state snapshot, read together."""
        values = await self.redis.hmget(keys.game(game_id), (*_META_FIELDS, b"state"))
        meta = _meta(game_id, values[:-1])
        if meta is None:
            return None
        return meta, values[-1]

    def commit_args(
        self,
        game_id: str,
        seat: int,
        request_id: str,
        *,
        expected: int,
        version: int,
        state: bytes,
        events: bytes,
        prompts: bytes,
        to_act: bytes,
        status: str,
        result: bytes,
        record: bytes,
        outcome: bytes,
        seatclock: bytes = b"",
        retain_s: int = 0,
        expected_lineage: str = "",
        lineage: str = "",
        expected_clocks: tuple[str, bytes] | None = None,
        ack: tuple[str, bytes] | None = None,
        answer_to: str = "",
        answer_commit: bool = True,
    ) -> CommitRequest:
        """One run of the commit script (store/commit_script.py); `retain_s` > 0 expires a game that this
        commit ends (finished or abandoned) after that many seconds. The commit applies only
        while the game is at `expected` of the history `expected_lineage` (and, with
        `expected_clocks`, has that status and those seat clocks); it becomes `version` of
        `lineage` (app/lineage.py).

        Where `settles_work` (one Redis, no replica waits), the script also acknowledges the
        work entry `ack` (stream, entry id) and answers the inbox `answer_to`, with this outcome
        or the request's earlier one: the move's whole write is one script. Without
        `answer_commit` it answers only the earlier one (a fresh commit's mover follows the feed)."""
        settle = self.settles_work
        was_status, was_seatclock = expected_clocks or ("", b"")
        stream, entry = ack if settle and ack else ("", b"")
        inbox = answer_to if settle else ""
        game_key = keys.game(game_id)
        return CommitRequest(
            CommitKeys(
                game=game_key,
                events=keys.game_events(game_id),
                actions=keys.game_actions(game_id),
                reply=keys.game_reply(game_id, seat, request_id),
                seats=keys.game_seats(game_id),
                work_stream=stream or game_key,
                inbox=inbox or game_key,
            ),
            CommitArgs(
                expected_version=expected,
                version=version,
                state=state,
                events=events,
                prompts=prompts,
                to_act=to_act,
                status=status,
                result=result,
                record=record,
                outcome=outcome,
                outcome_ttl_s=self.lifetimes.outcome_s,
                seatclock=seatclock,
                retain_s=retain_s,
                expected_lineage=expected_lineage,
                lineage=lineage,
                seat=seat,
                request_id=request_id,
                compare_clocks="1" if expected_clocks is not None else "0",
                expected_status=was_status,
                expected_seatclock=was_seatclock,
                ack="1" if stream else "0",
                group=keys.WORKER_GROUP,
                entry_id=entry,
                answer=("1" if answer_commit else "2") if inbox else "0",
                game_id=game_id,
            ),
        )

    async def commit_many(self, commits: Sequence[CommitRequest]) -> list[Committed]:
        """Run several commit scripts in one round trip per primary (each is atomic on its own)."""
        if not commits:
            return []
        if not self.cluster:
            replies, durable = await self._commit_on(self.redis, self._commit, commits)
            durability = [durable] * len(commits)
        else:  # a cluster pipeline cannot run scripts: one plain pipeline per primary, concurrently
            by_node: dict[tuple[str, int], list[int]] = {}
            for i, commit in enumerate(commits):
                node = self._node_for(commit.keys.game)
                by_node.setdefault(node.address, []).append(i)
            try:
                results = await asyncio.gather(
                    *(
                        self._commit_on(
                            self._nodes[address].client, self._nodes[address].script, [commits[i] for i in idx]
                        )
                        for address, idx in by_node.items()
                    )
                )
            except RELEARN:
                # A primary failed over (or a slot moved): relearn the slots; the caller retries.
                self._nodes.clear()
                await self.redis.nodes_manager.initialize()
                raise
            replies = [None] * len(commits)
            durability = [True] * len(commits)
            for idx, (node_replies, durable) in zip(by_node.values(), results, strict=True):
                for i, reply in zip(idx, node_replies, strict=True):
                    replies[i] = reply
                    durability[i] = durable
        out = []
        for reply, durable in zip(replies, durability, strict=True):
            assert reply is not None
            out.append(Committed.decode(reply, durable))
        return out

    async def _holders(self, seated: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
        """Game seats' holders for `seated` (user, name), each with the user's kind from their record."""
        found = await user_names(self.redis, [user for user, _ in seated])
        return [
            {"user": user, "name": name, "kind": kind} for (user, name), (_, kind) in zip(seated, found, strict=True)
        ]

    async def join(self, game_id: str, user: str, name: str, seat: int | None, kind: str = "") -> tuple[int, bool]:
        """Take a seat: (seat, whether this join started the game), or seat -1 no game, -2 taken/full,
        -3 no seat, -4 the user holds another seat, -5 reserved for other players (join_seat.lua).
        `kind`: the user's (identity/principal.py), kept with the seat."""
        holder = orjson.dumps({"user": user, "name": name, "kind": kind})
        reply = await self._join(keys=keys.game_keys(game_id), args=[user, holder, "" if seat is None else seat])
        taken = int(reply[0])
        return taken, taken >= 0 and len(reply) > 1 and int(reply[1]) == 1

    async def seats(self, game_id: str) -> dict[int, dict[str, str]]:
        raw = await self.redis.hgetall(keys.game_seats(game_id))
        return {int(k): orjson.loads(v) for k, v in raw.items()}

    async def actions_log(self, game_id: str) -> list[ActionRecord]:
        rows = await self.redis.lrange(keys.game_actions(game_id), 0, -1)
        return [ActionRecord.decode(r) for r in rows]

    async def list_games(self, kind: str, before: int | None, count: int) -> list[tuple[str, int]]:
        """(game id, listing score) newest first, scores strictly below the cursor `before`."""
        key = keys.games_of_kind(kind) if kind else keys.GAMES
        top = "+inf" if before is None else f"({before}"
        rows = await self.redis.zrevrangebyscore(key, top, "-inf", start=0, num=count, withscores=True)
        return [(game_id.decode(), int(score)) for game_id, score in rows]

    async def metas(self, game_ids: Sequence[str]) -> list[GameMeta | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game(game_id), _META_FIELDS)
            rows = await pipe.execute()
        return [_meta(g, r) for g, r in zip(game_ids, rows, strict=True)]

    # --- event streams -----------------------------------------------------------------
    async def entries_after(self, game_id: str, after_version: int, count: int | None = None) -> list[Entry]:
        """Commits whose last event id is greater than `after_version`, oldest first."""
        rows = await self.redis.xrange(keys.game_events(game_id), f"(0-{after_version}", "+", count=count)
        return [Entry.decode(fields) for _id, fields in rows]

    async def entry_fields_from(self, game_id: str, version: int, count: int) -> list[Mapping[bytes, bytes]]:
        """At most `count` commits from the one ending at `version` (included, if it is a commit),
        oldest first, as stored (decode each with `Entry.decode`)."""
        rows = await self.redis.xrange(keys.game_events(game_id), f"0-{version}", "+", count=count)
        return [fields for _id, fields in rows]

    async def heads(self, game_ids: Sequence[str]) -> list[tuple[int, str] | None]:
        """Each game's (version, lineage) now, in one round trip; None for a game that is gone."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game(game_id), (b"version", b"head"))
            rows = await pipe.execute()
        return [None if v is None else (int(v), (h or b"").decode()) for v, h in rows]

    def dedicated_client(self) -> Any:
        """A client on a connection of its own, outside the shared pool (see `dedicated_client`)."""
        return dedicated_client(self.redis)

    async def wait_entries_many(self, client: Any, cursors: Mapping[str, int], block_ms: int) -> dict[str, list[Entry]]:
        """Block on many games' streams at once (single Redis); entries after each cursor, by game."""
        reply = await client.xread(
            {keys.game_events(g): f"0-{v}" for g, v in cursors.items()}, block=block_ms, count=256
        )
        out: dict[str, list[Entry]] = {}
        for key, rows in reply or []:
            game_id = keys.game_of_events(key.decode())
            out[game_id] = [Entry.decode(fields) for _id, fields in rows]
        return out

    async def wait_entries(self, game_id: str, after_version: int, block_ms: int) -> list[Entry]:
        """Block until commits after `after_version` exist (or `block_ms` passes)."""
        reply = await self.redis.xread({keys.game_events(game_id): f"0-{after_version}"}, block=block_ms)
        if not reply:
            return []
        return [Entry.decode(fields) for _id, fields in reply[0][1]]

    # --- work and inboxes --------------------------------------------------------------
    async def ensure_group(self, stream: str) -> None:
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(stream, keys.WORKER_GROUP, id="0", mkstream=True)

    async def enqueue(
        self, stream: str, fields: Mapping[str, bytes | str | int], gate: Sequence[Bucket] = ()
    ) -> tuple[int, int] | None:
        """Append to a work stream, if every rate-limit bucket of `gate` lets it through: None, or
        (the index of the bucket that refused, its retry-after ms), and then nothing was queued.

        Concurrent calls in one event-loop turn share one pipeline (auto-pipelining: a busy
        gateway sends one round trip per turn, not one per action). On a single Redis a gated
        entry is one script (rate_gate.lua: the buckets and the XADD, atomic), in that same round
        trip; on a Redis Cluster the buckets are taken first, one script each."""
        if gate and self.cluster:
            refusal = await self.limits.take(gate)
            if refusal is not None:
                return refusal
            gate = ()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[int, int] | None] = loop.create_future()
        self._outgoing.append((stream, dict(fields), tuple(gate), done))
        if len(self._outgoing) == 1:
            loop.call_soon(self._flush_soon)
        return await done

    def _flush_soon(self) -> None:
        batch, self._outgoing = self._outgoing, []
        task = asyncio.get_running_loop().create_task(self._flush(batch))
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _flush(self, batch: list[_Outgoing], *, reloaded: bool = False) -> None:
        plain = [entry for entry in batch if not entry[2]]
        gated = [entry for entry in batch if entry[2]]
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for stream, fields, _gate, _done in plain:
                    pipe.xadd(stream, fields)
                if gated:  # EVALSHA as a plain command: a registered script would cost a SCRIPT EXISTS
                    key_list, args = gate_call([(stream, gate, fields) for stream, fields, gate, _done in gated])
                    pipe.execute_command("EVALSHA", self.limits.gate_sha, len(key_list), *key_list, *args)
                replies = await pipe.execute(raise_on_error=False)
        except Exception as exc:
            for *_entry, waiting in batch:
                if not waiting.done():
                    waiting.set_exception(exc)
            return
        for (*_entry, waiting), reply in zip(plain, replies, strict=False):  # the gated entries' reply is last
            if waiting.done():
                continue
            if isinstance(reply, Exception):
                waiting.set_exception(reply)
            else:
                waiting.set_result(None)
        if gated:
            await self._settle_gated(gated, replies[-1], reloaded=reloaded)

    async def _settle_gated(self, gated: list[_Outgoing], reply: Any, *, reloaded: bool) -> None:
        """Answer each gated entry from the batch's rate_gate.lua reply (sent again after a NOSCRIPT:
        a restarted Redis lost its scripts, and nothing was queued)."""
        if isinstance(reply, NoScriptError) and not reloaded:
            try:
                await self.limits.load_gate()
            except Exception as exc:
                reply = exc
            else:
                await self._flush(gated, reloaded=True)
                return
        results: list[Any] = [reply] * len(gated) if isinstance(reply, Exception) else refusals_of(reply)
        for (*_entry, waiting), result in zip(gated, results, strict=True):
            if waiting.done():
                continue
            if isinstance(result, Exception):
                waiting.set_exception(result)
            else:
                waiting.set_result(result)

    async def read_work(
        self, streams: Sequence[str], consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """New messages for `consumer` from any of `streams`, waiting up to `block_ms`."""
        if self.cluster:
            return await self._read_work_per_stream(streams, consumer, count, block_ms)
        with group_required():
            reply = await self.redis.xreadgroup(
                keys.WORKER_GROUP, consumer, dict.fromkeys(streams, ">"), count=count, block=block_ms
            )
        return [(stream.decode(), msg_id, fields) for stream, messages in reply or [] for msg_id, fields in messages]

    async def read_own_pending(
        self, streams: Sequence[str], consumer: str, count: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """What `consumer` was given and never acknowledged (XREADGROUP from id 0): after a read
        or a batch broke with its connection, the entries of a reply that was lost with it
        (else they would wait for `reclaim_work`). Entries deleted meanwhile are left out."""
        per_call = [streams] if not self.cluster else [[stream] for stream in streams]
        out = []
        for some in per_call:
            with group_required():
                reply = await self.redis.xreadgroup(keys.WORKER_GROUP, consumer, dict.fromkeys(some, "0"), count=count)
            out += [
                (_text(stream), msg_id, fields)
                for stream, messages in reply or []
                for msg_id, fields in messages
                if fields
            ]
        return out

    async def _read_work_per_stream(
        self, streams: Sequence[str], consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """Cluster mode: streams live in different slots, so one blocking reader per stream feeds a queue."""
        if not self._readers:
            for stream in streams:
                read = functools.partial(self._stream_reader, stream, consumer, count, block_ms)
                self._readers.append(
                    asyncio.create_task(supervised("work", read, stream=stream), name=f"work-{stream}")
                )
        try:
            async with asyncio.timeout(block_ms / 1000):  # not wait_for (store/reach.py)
                first = await self._incoming.get()
        except TimeoutError:
            return []
        out = list(first)
        while not self._incoming.empty() and len(out) < count:
            out.extend(self._incoming.get_nowait())
        return out

    async def _stream_reader(self, stream: str, consumer: str, count: int, block_ms: int, restarted: bool) -> None:
        """Read `stream` for ever (supervised: `restarted` after a failure, when a read may have broken)."""
        orphans = restarted  # a read broke: its reply's entries are pending for us (see read_own_pending)
        while True:
            try:
                if orphans:
                    batch = await self.read_own_pending([stream], consumer, count)
                    orphans = False
                    if batch:
                        await self._incoming.put(batch)
                    continue
                with group_required():
                    reply = await self.redis.xreadgroup(
                        keys.WORKER_GROUP, consumer, {stream: ">"}, count=count, block=block_ms
                    )
            except TRANSIENT as exc:
                log.warning("work.redis_unavailable", stream=stream, error=str(exc)[:200])
                orphans = True
                await asyncio.sleep(RETRY_PAUSE_S)  # a failover in progress: the cluster client rediscovers the slots
                continue
            except WorkGroupLost:
                with contextlib.suppress(*TRANSIENT):  # else the next read fails again and waits
                    await self.ensure_group(stream)
                continue
            batch = [(stream, msg_id, fields) for _s, messages in reply or [] for msg_id, fields in messages]
            if batch:
                await self._incoming.put(batch)

    async def work_stats(self, streams: Sequence[str]) -> list[tuple[str, int, int | None]]:
        """(stream, pending, lag) of the workers' group on each stream; lag is None before Redis 7.
        One pipelined round trip (a worker far from Redis must not pay one per stream)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xinfo_groups(stream)
            replies = await pipe.execute(raise_on_error=False)
        out = []
        for stream, groups in zip(streams, replies, strict=True):
            if isinstance(groups, ResponseError):  # the stream does not exist yet
                continue
            if isinstance(groups, Exception):
                raise groups
            for group in groups:
                name = group.get("name")
                if name in (keys.WORKER_GROUP, keys.WORKER_GROUP.encode()):
                    lag = group.get("lag")
                    out.append((stream, int(group.get("pending", 0)), None if lag is None else int(lag)))
        return out

    async def retire_consumer(self, streams: Sequence[str], consumer: str) -> None:
        """Remove a stopping worker from the group on streams where it holds no pending message
        (where it does, the consumer stays until another worker reclaims those)."""
        for stream in streams:
            pending = await self.redis.xpending_range(stream, keys.WORKER_GROUP, "-", "+", 1, consumername=consumer)
            if not pending:
                await self.redis.xgroup_delconsumer(stream, keys.WORKER_GROUP, consumer)

    async def reclaim_work(
        self, streams: Sequence[str], consumer: str, min_idle_ms: int, count: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """Backstop for a live but stuck worker: XAUTOCLAIM messages pending for `min_idle_ms`
        (up to `count` per stream), on every stream in one pipelined round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xautoclaim(stream, keys.WORKER_GROUP, consumer, min_idle_ms, "0-0", count=count)
            with group_required():
                replies = await pipe.execute()
        return [
            (stream, msg_id, fields)
            for stream, reply in zip(streams, replies, strict=True)
            for msg_id, fields in reply[1]
            if fields
        ]

    async def lapsed_workers(self) -> list[str]:
        """Registered workers whose liveness key is gone (the registry's lapsed scores, checked
        against the keys themselves): usually one cheap read that finds nobody."""
        lapsed = [_text(name) for name in await self._workers_lapsed(keys=[keys.WORKERS])]
        if not lapsed:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in lapsed:
                pipe.exists(keys.worker(name))
            alive = await pipe.execute()
        return [name for name, live in zip(lapsed, alive, strict=True) if not live]

    async def forget_workers(self, names: Sequence[str]) -> None:
        """Drop swept dead workers from the registry."""
        if names:
            await self.redis.zrem(keys.WORKERS, *names)

    async def claim_from_dead(
        self, streams: Sequence[str], consumer: str, *, quiet_ms: int, count: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """Take over the pending work of dead workers (their liveness key is gone) and remove them.

        One pipelined round trip lists each stream's consumers; only if another consumer holds
        pending work, or has been quiet for `quiet_ms`, a second one checks their liveness keys;
        dead ones are claimed and removed by `claim_dead.lua` (atomic: one sweeper wins).
        """
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xinfo_consumers(stream, keys.WORKER_GROUP)
            listed = await pipe.execute(raise_on_error=False)
        suspects: list[tuple[str, str]] = []
        for stream, consumers in zip(streams, listed, strict=True):
            if isinstance(consumers, Exception):  # no such stream or group yet
                continue
            for row in consumers:
                name = _text(row["name"])
                if name != consumer and (int(row["pending"]) > 0 or int(row["idle"]) > quiet_ms):
                    suspects.append((stream, name))
        if not suspects:
            return []
        names = sorted({name for _stream, name in suspects})
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.exists(keys.worker(name))
            alive = dict(zip(names, await pipe.execute(), strict=True))
        dead = [(stream, name) for stream, name in suspects if not alive[name]]
        replies = await asyncio.gather(
            *(self._claim_dead(keys=[stream], args=[keys.WORKER_GROUP, name, consumer, count]) for stream, name in dead)
        )
        return [
            (stream, entry[0], _pairs(entry[1]))
            for (stream, _name), claimed in zip(dead, replies, strict=True)
            for entry in claimed
            if entry and entry[1]
        ]

    async def prefetch(
        self, requests: Sequence[tuple[str, int, str]]
    ) -> list[tuple[bytes | None, GameMeta | None, bytes | None, bytes]]:
        """For each (game, seat, request id): the request's earlier outcome, the game's description,
        its state and its seat clocks as stored, in one round trip (what a worker needs to apply
        a round of actions)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat, request_id in requests:
                pipe.get(keys.game_reply(game_id, seat, request_id))
                pipe.hmget(keys.game(game_id), (*_META_FIELDS, b"state"))
            replies = await pipe.execute()
        out = []
        for i, (game_id, _seat, _request_id) in enumerate(requests):
            values = replies[2 * i + 1]
            out.append((replies[2 * i], _meta(game_id, values[:-1]), values[-1], values[_SEATCLOCK] or b""))
        return out

    async def outcomes(self, game_id: str, seat: int, request_ids: Sequence[str]) -> list[bytes | None]:
        """The recorded outcomes of a seat's request ids (None where there is none yet)."""
        if not request_ids:
            return []
        found: list[bytes | None] = await self.redis.mget([keys.game_reply(game_id, seat, r) for r in request_ids])
        return found

    async def finish_work(
        self,
        *,
        rejections: Sequence[tuple[str, int, str, bytes]],
        replies: Sequence[tuple[str, InboxReply]],
        acks: Sequence[tuple[str, bytes]],
        wake: Mapping[str, int] | None = None,
        finished: Sequence[str] = (),
    ) -> None:
        """Cache rejections (first outcome wins), send outcomes to gateway inboxes, acknowledge and
        delete the work entries; one round trip.

        An inbox is never created here (NOMKSTREAM): one whose gateway died has expired, and stays gone.
        """
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat, request_id, outcome in rejections:
                pipe.set(keys.game_reply(game_id, seat, request_id), outcome, nx=True, ex=self.lifetimes.outcome_s)
            for inbox, reply in replies:
                pipe.xadd(inbox, reply.fields(), maxlen=100_000, approximate=True, nomkstream=True)
            for stream, msg_id in acks:
                pipe.xack(stream, keys.WORKER_GROUP, msg_id)
                pipe.xdel(stream, msg_id)
            if wake:
                pipe.zadd(keys.TIMERS, dict(wake), lt=True)
            for game_id in finished:  # for the ratings consumer (docs/lobbies.md); it rates each game once
                pipe.xadd(keys.FINISHED, finished_fields(game_id), maxlen=100_000, approximate=True)
            await pipe.execute()

    async def keep_inbox(self, inbox: str, ttl_ms: int) -> bool:
        """Create the inbox if it is missing (True then) and (re)set its TTL."""
        return bool(await self._keep_inbox(keys=[inbox], args=[ttl_ms]))

    async def read_inbox(
        self, inbox: str, after: str, block_ms: int, *, trim: bool = False
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Outcomes after `after`, waiting up to `block_ms`; `trim` first drops the entries before
        `after` (read already), in the same round trip on a single Redis."""
        trim = trim and after != "0-0"
        if trim and not self.cluster:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.xtrim(inbox, minid=after, approximate=False)
                pipe.xread({inbox: after}, block=block_ms, count=1000)
                reply = (await pipe.execute())[-1]
        else:
            if trim:
                await self.redis.xtrim(inbox, minid=after, approximate=False)
            reply = await self.redis.xread({inbox: after}, block=block_ms, count=1000)
        return list(reply[0][1]) if reply else []

    async def drop_inbox(self, inbox: str) -> None:
        await self.redis.delete(inbox)

    # --- clocks and timers -------------------------------------------------------------
    async def update_clock(self, game_id: str, version: int, seatclock: bytes) -> bool:
        return bool(await self._update_clock(keys=[keys.game(game_id)], args=[version, seatclock]))

    async def wake(self, wakeups: Mapping[str, int]) -> None:
        """Have a worker look at each game's clocks at the given ms at the latest (never later)."""
        if wakeups:
            await self.redis.zadd(keys.TIMERS, dict(wakeups), lt=True)

    async def claim_timers(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        """Due games, each leased to this caller until now + lease (claim_timers.lua)."""
        due = await self._claim_timers(keys=[keys.TIMERS], args=[now_ms, lease_ms, count])
        return [g.decode() for g in due]

    async def settle_timer(self, game_id: str, leased_until_ms: int, next_ms: int | None) -> None:
        """Move a claimed timer to its next wake-up, unless the game was woken meanwhile."""
        await self._settle_timer(
            keys=[keys.TIMERS], args=[game_id, leased_until_ms, "" if next_ms is None else next_ms]
        )

    # --- the janitor: listing entries of expired games and rooms ------------------------
    async def take_lease(self, key: str, owner: str, ms: int) -> bool:
        """True when `owner` now holds the lease `key` for `ms` (no one else held it)."""
        return bool(await self.redis.set(key, owner, nx=True, px=ms))

    async def sweep_listing(self, index: str, budget: int) -> tuple[int, int]:
        """Look at about `budget` entries of a listing index (a ZSET of game or room ids), resuming
        where the last sweep of it stopped; drop those whose game or room is gone (and what is
        left of such a game). Returns (entries looked at, entries dropped)."""
        rooms = index.startswith(keys.ROOMS_LISTED)
        cursor = int(await self.redis.hget(keys.JANITOR_CURSORS, index) or 0)
        seen = dropped = 0
        while seen < budget:
            cursor, rows = await self.redis.zscan(index, cursor, count=min(budget - seen, 500))
            seen += len(rows)
            ids = [_text(member) for member, _score in rows]
            async with self.redis.pipeline(transaction=False) as pipe:
                for entity in ids:
                    pipe.exists(keys.room(entity) if rooms else keys.game(entity))
                exists = await pipe.execute()
            for (member, score), entity, found in zip(rows, ids, exists, strict=True):
                if found:
                    continue
                if not rooms and not await self._drop_gone_game(keys=keys.game_keys(entity)):
                    continue  # re-created meanwhile
                dropped += int(await self._zrem_if_score(keys=[index], args=[member, repr(score)]))
            if cursor == 0:
                break
        await self.redis.hset(keys.JANITOR_CURSORS, index, cursor)
        return seen, dropped

    # --- users and secrets -------------------------------------------------------------
    async def create_user(self, user_id: str, name: str, created_ms: int, *, kind: str = ACCOUNT) -> None:
        """A user's record; it expires with the user's sessions (`lifetimes.user_s`). Its `kind`
        (identity/principal.py) is shown beside the name; a guest's also has field `guest`: games
        with guests move no ratings (lobby/ratings.py)."""
        record: dict[str, str | int] = {"name": name, "created_ms": created_ms, "kind": kind}
        if kind == GUEST:
            record["guest"] = 1
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(keys.user(user_id), mapping=record)
            if self.lifetimes.user_s:
                pipe.expire(keys.user(user_id), self.lifetimes.user_s)
            await pipe.execute()

    async def keep_user(self, user_id: str) -> None:
        """A guest who refreshes a session keeps their record as long (a rated user's has no TTL)."""
        if self.lifetimes.user_s and await self.redis.ttl(keys.user(user_id)) > 0:
            await self.redis.expire(keys.user(user_id), self.lifetimes.user_s)

    async def iter_events(self, game_id: str, after_version: int, block_ms: int) -> AsyncIterator[list[Entry]]:
        """Entries after `after_version` as they arrive: batches, empty on a quiet `block_ms`."""
        cursor = after_version
        while True:
            batch = await self.wait_entries(game_id, cursor, block_ms)
            if batch:
                cursor = batch[-1].version
            yield batch


_IMPLEMENTS: type[Store] = RedisStore  # mypy: RedisStore implements every method of the protocol
