"""Shared live feeds of game event streams inside one gateway process.

However many clients of a gateway watch a game, one task reads that game's stream
(`XREAD BLOCK`) and hands each batch of entries to every subscriber's queue. A subscriber
that falls behind is told so (it then re-reads the gap from the store) instead of growing
an unbounded queue.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import structlog
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla import metrics
from flotilla.store.redis_store import Entry, RedisStore

log = structlog.get_logger("flotilla.feeds")


class Subscription:
    """One watcher's queue of entry batches; `None` from `get` means: re-read from the store."""

    def __init__(self, size: int) -> None:
        self._queue: asyncio.Queue[list[Entry]] = asyncio.Queue(size)
        self._lagging = False

    def push(self, entries: list[Entry]) -> None:
        if self._lagging:
            return
        try:
            self._queue.put_nowait(entries)
        except asyncio.QueueFull:
            self._lagging = True

    async def get(self) -> list[Entry] | None:
        if self._lagging:
            while not self._queue.empty():
                self._queue.get_nowait()
            self._lagging = False
            return None
        return await self._queue.get()


class _Feed:
    def __init__(self, store: RedisStore, game_id: str, version: int, block_ms: int) -> None:
        self.store = store
        self.game_id = game_id
        self.cursor = version
        self.block_ms = block_ms
        self.subscribers: set[Subscription] = set()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    async def run(self) -> None:
        while not self.closed:
            try:
                entries = await self.store.wait_entries(self.game_id, self.cursor, self.block_ms)
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                log.warning("feed.redis_unavailable", game=self.game_id, error=str(exc))
                await asyncio.sleep(0.5)
                continue
            if entries:
                self.cursor = entries[-1].version
                for subscriber in self.subscribers:
                    subscriber.push(entries)

    def close(self) -> None:
        """Stop reading. Not awaited: a blocked read of the cluster client may not end at once on
        cancellation, and no watcher should wait for it; `closed` ends the loop in any case."""
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            self.task.add_done_callback(_retrieve)


def _retrieve(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()


class Feeds:
    """One live feed per watched game, shared by all its subscribers in this process."""

    def __init__(self, store: RedisStore, block_ms: int = 10_000, queue_size: int = 512) -> None:
        self.store = store
        self.block_ms = block_ms
        self.queue_size = queue_size
        self._feeds: dict[str, _Feed] = {}

    @property
    def watched_games(self) -> int:
        return len(self._feeds)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str, version: int) -> AsyncIterator[Subscription]:
        """Entries committed after the moment of subscribing (at the latest after `version`)."""
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = _Feed(self.store, game_id, version, self.block_ms)
            metrics.WATCHED_GAMES.set(len(self._feeds))
            feed.task = asyncio.get_running_loop().create_task(feed.run(), name=f"feed-{game_id}")
        subscription = Subscription(self.queue_size)
        feed.subscribers.add(subscription)
        try:
            yield subscription
        finally:
            feed.subscribers.discard(subscription)
            if not feed.subscribers and self._feeds.get(game_id) is feed:
                del self._feeds[game_id]
                metrics.WATCHED_GAMES.set(len(self._feeds))
                feed.close()

    async def close(self) -> None:
        for feed in list(self._feeds.values()):
            feed.close()
        self._feeds.clear()
