"""`StreamHub`: live reads of many small streams (rooms, tickets) over few Redis connections, for
every watcher of a gateway (`LobbyStore.room_feed`, `ticket_feed`; lobby/follow.py reads them)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla.store.client import dedicated_client
from flotilla.store.reach import StoreReach
from flotilla.store.supervise import supervised
from flotilla.store.transient import RETRY_PAUSE_S, TRANSIENT


def _stream_id(text: str) -> tuple[int, int]:
    ms, _, seq = text.partition("-")
    return int(ms), int(seq or 0)


StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]


class StoreLost:
    """In a hub subscriber's queue: the gateway lost Redis (store/reach.py), end the stream."""


STORE_LOST = StoreLost()
HubItem = StreamEntries | StoreLost | None
"""What a hub subscriber's queue holds: a batch of entries, `STORE_LOST`, or None (re-read the state)."""


STREAMS_PER_READER = 512  # one XREAD covers at most this many streams
WAKE_INTERVAL_S = 0.05  # a reader is woken for new streams at most this often


class StreamHub:
    """Live reads of many small streams (rooms, tickets) over few Redis connections.

    Every watcher of a gateway subscribes here instead of holding its own blocking XREAD. On a
    single Redis, readers of up to `STREAMS_PER_READER` streams each block in one `XREAD` on a
    connection of their own (outside the shared pool), and are woken with `CLIENT UNBLOCK` (at
    most every `WAKE_INTERVAL_S`) when a stream joins; so an idle hub costs one command per
    reader every `block_ms`, whatever the number of watchers. On a Redis Cluster, XREAD cannot
    span slots: one reader per hash slot polls on the cluster client every `cluster_block_ms`.
    A stream subscribed joins its reader's next read; nothing is missed, as the read starts from
    the subscriber's cursor. With a `reach` (a gateway's), every subscriber is sent `STORE_LOST`
    while the probe says Redis is lost, and `fresh` says whether a heartbeat may be sent.
    """

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        block_ms: int = 5000,
        cluster_block_ms: int = 250,
        queue_size: int = 64,
        reach: StoreReach | None = None,
    ) -> None:
        self.redis: Any = client
        self.reach = reach
        if reach is not None:
            reach.listen(self._lose)
        self.block_ms = block_ms
        self.cluster_block_ms = cluster_block_ms
        self.queue_size = queue_size
        self._cluster = isinstance(client, RedisCluster)
        self._subs: dict[str, set[asyncio.Queue[HubItem]]] = {}
        self._cursors: dict[str, str] = {}
        self._readers: list[_HubReader] = []  # single Redis: filled in order, kept for reuse
        self._slot_readers: dict[int, _HubReader] = {}  # cluster: one per hash slot
        self._reader_of: dict[str, _HubReader] = {}

    def _reader_for(self, stream: str) -> _HubReader:
        if self._cluster:
            slot = int(self.redis.keyslot(stream))
            reader = self._slot_readers.get(slot)
            if reader is None:
                reader = self._slot_readers[slot] = _HubReader(self, self.redis, self.cluster_block_ms, wakeable=False)
            return reader
        reader = next((r for r in self._readers if len(r.streams) < STREAMS_PER_READER), None)
        if reader is None:
            reader = _HubReader(self, dedicated_client(self.redis), self.block_ms, wakeable=True)
            self._readers.append(reader)
        return reader

    def fresh(self) -> bool:
        """Whether a heartbeat may be sent now: Redis answered the probe lately (always, without one)."""
        return self.reach is None or self.reach.fresh()

    def _lose(self) -> None:
        """Redis is lost (called by the probe each round while it is): every subscriber ends."""
        for subs in self._subs.values():
            for queue in subs:
                _replace(queue, STORE_LOST)

    @contextlib.asynccontextmanager
    async def subscribe(self, stream: str, after: str) -> AsyncIterator[asyncio.Queue[HubItem]]:
        """A queue of entry batches after `after`; None in it means: you fell behind, re-read the
        state; `STORE_LOST`: this gateway lost Redis, end the stream."""
        queue: asyncio.Queue[HubItem] = asyncio.Queue(self.queue_size)
        if self.reach is not None:
            self.reach.start()
            if self.reach.lost:
                queue.put_nowait(STORE_LOST)
        self._subs.setdefault(stream, set()).add(queue)
        current = self._cursors.get(stream)
        if current is None:
            self._cursors[stream] = after
            reader = self._reader_of[stream] = self._reader_for(stream)
            reader.add(stream)
        elif _stream_id(after) < _stream_id(current):
            queue.put_nowait(None)  # the shared read is past this watcher's cursor: it re-reads the gap itself
        try:
            yield queue
        finally:
            subs = self._subs.get(stream)
            if subs is not None:
                subs.discard(queue)
                if not subs:
                    del self._subs[stream]
                    self._cursors.pop(stream, None)
                    self._reader_of.pop(stream).streams.discard(stream)

    def _deliver(self, reply: Any) -> None:
        for raw_stream, entries in reply or []:
            stream = raw_stream.decode() if isinstance(raw_stream, bytes) else raw_stream
            if stream not in self._cursors or not entries:
                continue
            self._cursors[stream] = entries[-1][0].decode()
            for queue in list(self._subs.get(stream, ())):
                try:
                    queue.put_nowait(list(entries))
                except asyncio.QueueFull:  # a slow watcher: tell it to resync from the stored state
                    _replace(queue, None)

    async def recheck(self, streams: Iterable[str]) -> None:
        """After a lost connection: a stream now behind its cursor (a Redis that came back with an
        older history) gets its cursor moved back, and its subscribers are told to re-read."""
        watched = [s for s in streams if s in self._cursors]
        if not watched:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in watched:
                pipe.xrevrange(stream, "+", "-", count=1)
            lasts = await pipe.execute()
        for stream, last in zip(watched, lasts, strict=True):
            stored = last[0][0].decode() if last else "0-0"
            if stream in self._cursors and _stream_id(stored) < _stream_id(self._cursors[stream]):
                self._cursors[stream] = stored
                for queue in list(self._subs.get(stream, ())):
                    _replace(queue, None)

    async def close(self) -> None:
        for reader in [*self._readers, *self._slot_readers.values()]:
            await reader.close()
        self._readers.clear()
        self._slot_readers.clear()


def _replace(queue: asyncio.Queue[HubItem], item: HubItem) -> None:
    """Drop what `queue` holds and put `item` (a resync, or the end) in its place."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(item)


class _HubReader:
    """One blocking XREAD over a set of the hub's streams, then the next, while it has streams."""

    def __init__(self, hub: StreamHub, client: Any, block_ms: int, *, wakeable: bool) -> None:
        self.hub = hub
        self.client = client
        self.block_ms = block_ms
        self.wakeable = wakeable  # a connection of its own, which CLIENT UNBLOCK can wake
        self.streams: set[str] = set()
        self.reading: frozenset[str] = frozenset()  # the streams the XREAD in flight covers
        self.client_id: int | None = None
        self.task: asyncio.Task[None] | None = None
        self._waking: asyncio.Task[None] | None = None
        self._woken_at = 0.0
        self._recheck = False  # a read failed: Redis may come back behind (StreamHub.recheck)

    def add(self, stream: str) -> None:
        self.streams.add(stream)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done():
            self.task = loop.create_task(supervised("lobby", self._run), name="stream-hub")
        elif self.wakeable and (self._waking is None or self._waking.done()):
            self._waking = loop.create_task(self._wake(), name="stream-hub-wake")

    async def _wake(self) -> None:
        """Make the blocked XREAD return so that the next one covers every stream added since.

        The XREAD may still be on its way to Redis (not blocked yet: UNBLOCK answers 0), so try
        until it either was unblocked or already covers them.
        """
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, self._woken_at + WAKE_INTERVAL_S - loop.time()))
        while self.streams and not self.streams <= self.reading:
            if self.client_id is not None:
                with contextlib.suppress(RedisConnectionError, RedisTimeoutError, OSError):
                    if await self.hub.redis.client_unblock(self.client_id):
                        self._woken_at = loop.time()
                        return
            await asyncio.sleep(0.005)

    async def _unblock(self) -> None:
        """End the blocked XREAD before the task is cancelled: cancelling it alone waits the read out
        (up to `block_ms`). Bounded: the XREAD may not have reached Redis yet, then it returns at once
        with no streams left to read."""
        task = self.task
        for _ in range(100):
            if task is None or task.done():
                return
            if self.client_id is not None:
                with contextlib.suppress(RedisConnectionError, RedisTimeoutError, OSError):
                    await self.hub.redis.client_unblock(self.client_id)
            await asyncio.wait([task], timeout=0.01)

    async def _run(self, restarted: bool = False) -> None:
        """Read while the hub has streams here; supervised (`add`): after a failure, recheck first."""
        if restarted:
            self.client_id, self._recheck = None, True
        while self.streams:
            cursors = {s: self.hub._cursors[s] for s in self.streams if s in self.hub._cursors}
            if not cursors:
                break
            self.reading = frozenset(cursors)
            try:
                if self._recheck:
                    await self.hub.recheck(self.streams)
                    self._recheck = False
                    continue
                if self.wakeable and self.client_id is None:
                    self.client_id = int(await self.client.client_id())
                reply = await self.client.xread(cursors, block=self.block_ms, count=256)
            except TRANSIENT:
                self.client_id = None
                self._recheck = True
                await asyncio.sleep(RETRY_PAUSE_S)
                continue
            self.hub._deliver(reply)
        self.reading = frozenset()

    async def close(self) -> None:
        self.streams.clear()
        if self.wakeable:
            await self._unblock()
        for task in (self.task, self._waking):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.wakeable:
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError, OSError):
                await self.client.aclose(close_connection_pool=True)
