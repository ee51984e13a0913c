"""Shared live feeds of game event streams inside one gateway process.

However many clients of a gateway watch a game, its stream is read once per commit and each
batch of entries goes to every subscriber's queue. On a single Redis, one multiplexed reader
serves up to `GAMES_PER_READER` games with one `XREAD BLOCK` over all their streams (woken
with `CLIENT UNBLOCK` when a game joins it), so a gateway needs a handful of connections,
not one per game. Games that moved in the last `COOL_S` seconds have hot readers, the others
cold ones: the read each move wakes covers the games that move, not every idle one watched. The
idle watchers' heartbeats come from one ticker (`Signal.IDLE`), not a timer per stream. On a
Redis Cluster (streams in different slots) each game has its own reader. A subscriber that
falls behind is told so (it then re-reads the gap from the store) instead of growing an
unbounded queue.

A Redis that comes back behind (restarted from an older append-only file, or failed over to
a lagging replica) would leave a feed waiting after a version the game no longer has. So
every reader compares its games' stored heads (version and lineage, app/lineage.py) with its
cursors after any Redis error and every `check_s` seconds; a game found behind (or at the
same version of another history) is rewound: its cursor moves back and every subscriber is
told `REWOUND` (it resyncs with a full view). A history that was rewound and then played on
past the cursor shows as a break in the lineage chain of the entries read; watchers check
that chain themselves (app/games.py).

A Redis cut off by the network hangs the readers rather than failing them, so the feeds ask a
probe (store/reach.py): heartbeats are sent only while Redis answered lately (a checkpoint
never vouches for a version the gateway cannot see is current), and once Redis has not answered
for `lost_s` (FLOTILLA_STORE_LOST_S) every subscriber is told `LOST`: its stream ends
UNAVAILABLE and the client resumes on another gateway. On a Redis Cluster the probe asks a random
node, so it tells a gateway cut from the whole cluster, not one cut from a single primary.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import structlog

from flotilla import metrics
from flotilla.records import Entry
from flotilla.store.held import HeldConnection, pack
from flotilla.store.reach import STORE_LOST_S, StoreReach
from flotilla.store.redis_store import RedisStore
from flotilla.store.subscriptions import TICK_S, Signal, Subscription, Ticker, retrieve
from flotilla.store.supervise import supervised
from flotilla.store.transient import RETRY_PAUSE_S, TRANSIENT

__all__ = ["TICK_S", "Feeds", "Signal", "Subscription"]  # a subscriber's side: store/subscriptions.py

log = structlog.get_logger("flotilla.feeds")

CHECK_S = 5.0  # how often a reader compares its games' stored heads with its cursors
UNCONFIRMED: tuple[type[Exception], ...] = (*TRANSIENT, TimeoutError)  # a confirmation round that failed
CONFIRM_MARGIN_S = 1.0  # a confirmation round may take the wait timeout and this long before it fails


class _Confirmations:
    """The feeds' replica confirmations (FLOTILLA_WAIT_REPLICAS > 0), batched: one round at a time
    per primary (`RedisStore.confirm_heads`: a read per game, a write and one WAIT), covering every
    feed that asked while the previous round ran. A primary that hangs holds only its own games,
    for at most the wait timeout and `CONFIRM_MARGIN_S`; a failed round says "not confirmed" (the
    feeds hold their entries and ask again) after `RETRY_PAUSE_S`."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.timeout_s = store.wait_timeout_ms / 1000 + CONFIRM_MARGIN_S
        self.asked: dict[Any, dict[str, tuple[tuple[int, str], asyncio.Future[bool]]]] = {}
        self.rounds: dict[Any, asyncio.Task[None]] = {}

    async def confirmed(self, game_id: str, last: Entry) -> bool:
        """Whether `last` (and so every commit of its game before it) is on the replicas."""
        primary = self.store.primary_of(game_id)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        asked = self.asked.setdefault(primary, {})
        if game_id in asked and not asked[game_id][1].done():
            asked[game_id][1].set_result(False)  # superseded (a feed closed and opened again)
        asked[game_id] = ((last.version, last.lineage), future)
        if primary not in self.rounds:
            self.rounds[primary] = asyncio.get_running_loop().create_task(self.run(primary), name="confirmations")
        return await future

    async def run(self, primary: Any) -> None:
        try:
            while asked := self.asked.pop(primary, None):
                try:
                    heads = {game_id: head for game_id, (head, _future) in asked.items()}
                    async with asyncio.timeout(self.timeout_s):  # not wait_for (store/reach.py)
                        confirmed = await self.store.confirm_heads(heads)
                except UNCONFIRMED as exc:
                    log.warning("feed.unconfirmed", error=str(exc)[:200] or type(exc).__name__)
                    await asyncio.sleep(RETRY_PAUSE_S)
                    confirmed = set()
                except Exception as exc:  # a bug: the feeds' supervisors restart them
                    for _head, future in asked.values():
                        if not future.done():
                            future.set_exception(exc)
                    continue
                if len(confirmed) < len(asked):
                    metrics.FEED_HELD.inc(len(asked) - len(confirmed))
                for game_id, (_head, future) in asked.items():
                    if not future.done():
                        future.set_result(game_id in confirmed)
        finally:
            del self.rounds[primary]

    def close(self) -> None:
        for task in self.rounds.values():
            task.cancel()


class _Feed:
    """One watched game: where its reader is (version and lineage read last) and who listens."""

    def __init__(
        self,
        store: RedisStore,
        game_id: str,
        version: int,
        lineage: str,
        block_ms: int,
        confirmations: _Confirmations | None = None,
    ) -> None:
        self.store = store
        self.confirmations = confirmations
        self.game_id = game_id
        self.cursor = version
        self.lineage = lineage
        self.block_ms = block_ms
        self.subscribers: set[Subscription] = set()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.moved_at = time.monotonic()  # when entries were last read (or it was first watched)

    def fresh(self, entries: list[Entry]) -> list[Entry]:
        """The entries after the cursor (two readers may have read the same ones while the game
        moved between them)."""
        if entries and entries[0].version <= self.cursor:
            return [entry for entry in entries if entry.version > self.cursor]
        return entries

    async def held(self, entries: list[Entry]) -> bool:
        """Whether these entries (after the cursor) must be held back: replica waits are on and
        the replicas have not confirmed the last of them yet. Held entries stay after the cursor,
        so the next read returns them again (and asks again)."""
        if self.confirmations is None or not entries:
            return False
        return not await self.confirmations.confirmed(self.game_id, entries[-1])

    def deliver(self, entries: list[Entry]) -> bool:
        """Entries read after the cursor: move on and hand them to every subscriber. Whether any
        were new."""
        entries = self.fresh(entries)
        if not entries:
            return False
        self.cursor, self.lineage = entries[-1].version, entries[-1].lineage
        self.moved_at = time.monotonic()
        for subscriber in self.subscribers:
            subscriber.push(entries)
        return True

    def check(self, head: tuple[int, str] | None) -> None:
        """Compare the stored head with the cursor; rewind when the game went back."""
        if head is None:
            return
        version, lineage = head
        behind = version < self.cursor
        other_history = version == self.cursor and lineage != self.lineage and bool(lineage and self.lineage)
        if behind or other_history:
            log.warning("feed.rewound", game=self.game_id, cursor=self.cursor, stored=version)
            metrics.FEED_REWINDS.inc()
            self.cursor, self.lineage = version, lineage
            for subscriber in self.subscribers:
                subscriber.rewind()

    async def run(self, check_s: float, _restarted: bool = False) -> None:
        """A reader of this game alone (Redis Cluster); supervised (`Feeds._attach`)."""
        checked = 0.0
        while not self.closed:
            try:
                if time.monotonic() - checked >= check_s:
                    self.check((await self.store.heads([self.game_id]))[0])
                    checked = time.monotonic()
                entries = self.fresh(await self.store.wait_entries(self.game_id, self.cursor, self.block_ms))
                if await self.held(entries):
                    continue
            except TRANSIENT as exc:
                log.warning("feed.redis_unavailable", game=self.game_id, error=str(exc))
                checked = 0.0  # Redis may come back behind: look at the head first
                await asyncio.sleep(RETRY_PAUSE_S)
                continue
            self.deliver(entries)

    def close(self) -> None:
        """Stop reading. Not awaited: a blocked read of the cluster client may not end at once on
        cancellation, and no watcher should wait for it; `closed` ends the loop in any case."""
        self.closed = True
        if self.task is not None:
            self.task.cancel()
            self.task.add_done_callback(retrieve)


GAMES_PER_READER = 512
CLIENT_ID = pack(("CLIENT", "ID"))
COOL_S = 30.0  # a game that did not move for this long is read by a cold reader


class _Reader:
    """One blocking XREAD over the streams of many games (single Redis only).

    Hot readers cover the games that moved in the last `COOL_S` seconds, so the reads that every
    move wakes cover few streams; cold readers cover the others (one XREAD that returns only when
    one of them moves, which then goes to a hot reader: `move`)."""

    def __init__(
        self,
        store: RedisStore,
        block_ms: int,
        check_s: float,
        move: Callable[[_Feed, bool], Awaitable[None]],
        *,
        cold: bool,
    ) -> None:
        self.store = store
        self.block_ms = block_ms
        self.check_s = check_s
        self.move = move
        self.cold = cold
        self.feeds: dict[str, _Feed] = {}
        self.client: Any = store.dedicated_client()  # its pool's one connection, held by `held`
        self.held = HeldConnection(self.client.connection_pool)
        self.client_id: int | None = None
        self.task: asyncio.Task[None] | None = None
        self.reading: set[str] = set()  # the games the XREAD in flight covers

    async def wake(self, game_id: str) -> None:
        """Make the blocked XREAD return so that the next one includes `game_id`.

        The XREAD may still be on its way to Redis (not blocked yet: UNBLOCK answers 0), so try
        until it either was unblocked or already covers the game.
        """
        for _ in range(50):
            if game_id in self.reading:
                return
            if self.client_id is not None:
                with contextlib.suppress(*TRANSIENT):
                    if await self.store.redis.client_unblock(self.client_id):
                        return
            await asyncio.sleep(0.002)

    async def run(self, restarted: bool = False) -> None:
        """Read this reader's games until it has none left; supervised (`Feeds._place`)."""
        checked = 0.0
        if restarted:
            self.client_id = None  # the connection may be another one now
        while self.feeds:
            try:
                if self.client_id is None:
                    (client_id,) = await self.held.round_trip([CLIENT_ID])
                    self.client_id = int(client_id)
                if time.monotonic() - checked >= self.check_s:
                    await self.check(self.feeds.values())
                    checked = time.monotonic()
                if not self.cold:
                    await self.cool()
                cursors = {feed.game_id: feed.cursor for feed in self.feeds.values()}
                if not cursors:  # the last feed closed while checking heads
                    continue
                self.reading = set(cursors)
                batches = await self.store.wait_entries_many(self.held, cursors, self.block_ms)
            except TRANSIENT as exc:
                log.warning("feed.redis_unavailable", error=str(exc))
                self.client_id = None
                checked = 0.0  # Redis may come back behind: look at the heads first
                await asyncio.sleep(RETRY_PAUSE_S)
                continue
            read = [
                (feed, feed.fresh(entries)) for game_id, entries in batches.items() if (feed := self.feeds.get(game_id))
            ]
            held = await asyncio.gather(*(feed.held(entries) for feed, entries in read))
            warmed = []
            for (feed, entries), hold in zip(read, held, strict=True):
                if not hold and feed.deliver(entries) and self.cold:
                    warmed.append(feed)
            for feed in warmed:  # it moves: read it with the few that do
                if self.feeds.pop(feed.game_id, None) is feed:
                    await self.move(feed, False)

    async def cool(self) -> None:
        """Hand the games that stopped moving to a cold reader."""
        stale = time.monotonic() - COOL_S
        for feed in [feed for feed in self.feeds.values() if feed.moved_at < stale]:
            if self.feeds.pop(feed.game_id, None) is feed:
                await self.move(feed, True)

    async def check(self, feeds: Iterable[_Feed]) -> None:
        """Compare the stored heads of these games with their cursors (one round trip)."""
        watched = list(feeds)
        if watched:
            heads = await self.store.heads([feed.game_id for feed in watched])
            for feed, head in zip(watched, heads, strict=True):
                feed.check(head)

    async def close(self) -> None:
        self.feeds.clear()
        if self.task is not None:
            self.task.cancel()
            self.task.add_done_callback(retrieve)
            await asyncio.wait([self.task], timeout=1)
        with contextlib.suppress(*TRANSIENT):
            await self.held.close()
            await self.client.aclose(close_connection_pool=True)


class Feeds:
    """One live feed per watched game, shared by all its subscribers in this process."""

    def __init__(
        self,
        store: RedisStore,
        block_ms: int = 10_000,
        queue_size: int = 512,
        check_s: float = CHECK_S,
        lost_s: float = STORE_LOST_S,
    ) -> None:
        self.store = store
        self.block_ms = block_ms
        self.queue_size = queue_size
        self.check_s = check_s
        self._feeds: dict[str, _Feed] = {}
        self._readers: list[_Reader] = []  # hot and cold
        self._reader_of: dict[str, _Reader] = {}
        self.reach = StoreReach(store, lost_s, self._lose)
        self._ticker = Ticker(self.reach.fresh)
        self._confirmations = _Confirmations(store) if store.wait_replicas else None

    def _lose(self) -> None:
        """Redis is lost: every subscriber's stream ends."""
        for feed in self._feeds.values():
            for subscriber in feed.subscribers:
                subscriber.lose()

    async def _attach(self, feed: _Feed) -> None:
        """Start reading a newly watched game: its own task on a cluster, else a shared reader."""
        if self.store.cluster:
            run = functools.partial(feed.run, self.check_s)
            feed.task = asyncio.get_running_loop().create_task(
                supervised("feed", run, game=feed.game_id), name=f"feed-{feed.game_id}"
            )
            return
        await self._place(feed, False)

    async def _place(self, feed: _Feed, cold: bool) -> None:
        """Give `feed` to a hot or cold reader with room (a new one if none has)."""
        if self._feeds.get(feed.game_id) is not feed:
            return  # no longer watched
        reader = next((r for r in self._readers if r.cold == cold and len(r.feeds) < GAMES_PER_READER), None)
        if reader is None:
            reader = _Reader(self.store, self.block_ms, self.check_s, self._place, cold=cold)
            self._readers.append(reader)
        reader.feeds[feed.game_id] = feed
        self._reader_of[feed.game_id] = reader
        if reader.task is None or reader.task.done():
            reader.task = asyncio.get_running_loop().create_task(supervised("feeds", reader.run), name="feeds")
        else:
            await reader.wake(feed.game_id)

    async def _detach(self, feed: _Feed) -> None:
        reader = self._reader_of.pop(feed.game_id, None)
        if reader is None:
            feed.close()
            return
        reader.feeds.pop(feed.game_id, None)  # the reader (and its connection) stays for the next games

    def is_cold(self, game_id: str) -> bool | None:
        """Whether a cold reader reads the game now (None: no shared reader does)."""
        reader = self._reader_of.get(game_id)
        return None if reader is None else reader.cold

    @property
    def watched_games(self) -> int:
        return len(self._feeds)

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: str, version: int, lineage: str = "") -> AsyncIterator[Subscription]:
        """Entries committed after the moment of subscribing (at the latest after `version` of `lineage`)."""
        self.reach.start()
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = _Feed(
                self.store, game_id, version, lineage, self.block_ms, self._confirmations
            )
            metrics.WATCHED_GAMES.set(len(self._feeds))
            await self._attach(feed)
        subscription = Subscription(self.queue_size, self._ticker.schedule)
        if self.reach.lost:
            subscription.lose()
        feed.subscribers.add(subscription)
        try:
            yield subscription
        finally:
            subscription.heartbeat_s = 0.0  # the ticker drops it
            feed.subscribers.discard(subscription)
            if not feed.subscribers and self._feeds.get(game_id) is feed:
                del self._feeds[game_id]
                metrics.WATCHED_GAMES.set(len(self._feeds))
                await self._detach(feed)

    async def close(self) -> None:
        self._ticker.close()
        if self._confirmations is not None:
            self._confirmations.close()
        await self.reach.close()
        for feed in list(self._feeds.values()):
            feed.close()
        for reader in self._readers:
            await reader.close()
        self._feeds.clear()
        self._readers.clear()
        self._reader_of.clear()
