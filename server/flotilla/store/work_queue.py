"""The work queue: gateways append work items to the work streams (auto-pipelined, behind the
rate-limit gate), workers read them as one consumer group, and settle them (outcomes to the
gateways' inboxes, acknowledgements) in one round trip."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import structlog
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError

from flotilla.errors import WorkGroupLost
from flotilla.records import InboxReply, finished_fields
from flotilla.store import keys
from flotilla.store.client import StoreClient, as_text, stream_messages
from flotilla.store.connections import Reading, run_packed
from flotilla.store.held import HeldConnection, pack
from flotilla.store.limits_store import Bucket, LimitStore, gate_call, refusals_of
from flotilla.store.supervise import supervised
from flotilla.store.transient import RETRY_PAUSE_S, TRANSIENT, group_required, own_errors

log = structlog.get_logger("flotilla.store")

# A work entry waiting for the next pipeline: stream, fields, rate-limit buckets, its future.
_Outgoing = tuple[str, dict[str, Any], tuple[Bucket, ...], "asyncio.Future[tuple[int, int] | None]"]


def _flat(fields: Mapping[str, Any]) -> list[Any]:
    return [x for pair in fields.items() for x in pair]


CLOSE_ATTEMPTS = 50
"""How many times `close` cancels a work reader that has not ended (0.1 s apart)."""


@own_errors
class WorkQueue(StoreClient):
    """The work streams and the workers' consumer group (keys.WORKER_GROUP)."""

    def __init__(self, client: Any, **options: Any) -> None:
        super().__init__(client, **options)
        self.limits = LimitStore(client, cluster=self.cluster)
        self._readers: list[asyncio.Task[None]] = []
        self._outgoing: list[_Outgoing] = []
        self._flushing: set[asyncio.Task[None]] = set()
        # A single Redis: the enqueues' own connection, one round trip at a time (the pump).
        self._held = None if self.cluster else HeldConnection(client.connection_pool)
        self._pump: asyncio.Task[None] | None = None
        self._incoming: asyncio.Queue[list[tuple[str, bytes, dict[bytes, bytes]]]] = asyncio.Queue(64)

    async def close(self) -> None:
        """Stop the work readers, then close every connection. A reader is awaited until it ends (a
        read still blocked would go on taking entries for its consumer), cancelled again while it
        runs: redis-py's cluster client can swallow the cancellation of a blocked read."""
        for _attempt in range(CLOSE_ATTEMPTS):
            running = [reader for reader in self._readers if not reader.done()]
            if not running:
                break
            for reader in running:
                reader.cancel()
            await asyncio.wait(running, timeout=0.1)
        self._readers.clear()
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.wait([self._pump], timeout=1)
        if self._held is not None:
            await self._held.close()
        await super().close()

    # --- gateways: appending ------------------------------------------------------------
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
        if self._held is not None:  # a single Redis: the pump sends what waits, round trip after round trip
            if self._pump is None or self._pump.done():
                self._pump = asyncio.get_running_loop().create_task(self._pumping())
            return
        batch, self._outgoing = self._outgoing, []
        task = asyncio.get_running_loop().create_task(self._flush(batch))
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _pumping(self) -> None:
        """Send the waiting entries, then those that came meanwhile (one batch a round trip), until none waits."""
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            try:
                await self._flush(batch)
            finally:  # cancelled (the store closes) or a bug: no caller waits for ever
                for *_entry, waiting in batch:
                    if not waiting.done():
                        waiting.set_exception(RedisConnectionError("the work queue stopped sending"))

    async def _flush(self, batch: list[_Outgoing], *, reloaded: bool = False) -> None:
        plain = [entry for entry in batch if not entry[2]]
        gated = [entry for entry in batch if entry[2]]
        try:
            replies = await (self._send(plain, gated) if self._held is not None else self._pipelined(plain, gated))
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

    async def _send(self, plain: list[_Outgoing], gated: list[_Outgoing]) -> list[Any]:
        """A single Redis: the batch as packed commands on the held connection, one write."""
        assert self._held is not None
        commands = [pack([b"XADD", stream, b"*", *_flat(fields)]) for stream, fields, _gate, _done in plain]
        if gated:
            key_list, args = gate_call([(stream, gate, fields) for stream, fields, gate, _done in gated])
            commands.append(pack([b"EVALSHA", self.limits.gate_sha, len(key_list), *key_list, *args]))
        return await self._held.round_trip(commands)

    async def _pipelined(self, plain: list[_Outgoing], gated: list[_Outgoing]) -> list[Any]:
        """A Redis Cluster: the batch through redis-py's pipeline (it routes each key to its node)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream, fields, _gate, _done in plain:
                pipe.xadd(stream, fields)
            if gated:  # EVALSHA as a plain command: a registered script would cost a SCRIPT EXISTS
                key_list, args = gate_call([(stream, gate, fields) for stream, fields, gate, _done in gated])
                pipe.execute_command("EVALSHA", self.limits.gate_sha, len(key_list), *key_list, *args)
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies

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

    # --- workers: reading and settling --------------------------------------------------
    async def read_work(
        self, streams: Sequence[str], consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """New messages for `consumer` from any of `streams`, waiting up to `block_ms` (one Redis:
        the XREADGROUP packed here, its reply parsed here, not by redis-py's generic layers)."""
        if self.cluster:
            return await self._read_work_per_stream(streams, consumer, count, block_ms)
        (reply,) = await run_packed(self.redis, [self.read_command(streams, consumer, count, block_ms)])
        with group_required():
            if isinstance(reply, Exception):
                raise reply
        return stream_messages(reply)

    def read_command(self, streams: Sequence[str], consumer: str, count: int, block_ms: int) -> bytes:
        """`read_work`'s XREADGROUP (one Redis), packed: to go in the write of a round's commits
        (`Commits.commit_then_read`); its reply is `read_reply`'s."""
        command = ("XREADGROUP", "GROUP", keys.WORKER_GROUP, consumer, "COUNT", count, "BLOCK", block_ms)
        return pack((*command, "STREAMS", *streams, *[">"] * len(streams)))

    async def read_reply(self, reading: Reading) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """The messages a read sent ahead (`read_command`) delivered, as `read_work` gives them."""
        with group_required():
            reply = await reading
        return stream_messages(reply)

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
                (as_text(stream), msg_id, fields)
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
        Nothing to do (every move of a round settled by its commit script): no pipeline at all.
        """
        if not (rejections or replies or acks or wake or finished):
            return
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
