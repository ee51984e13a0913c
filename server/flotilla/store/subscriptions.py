"""A watcher's side of the shared game feeds (store/feeds.py): its `Subscription` (a bounded queue
of entry batches and `Signal`s) and the one `Ticker` that sends every idle subscription its
heartbeats."""

from __future__ import annotations

import asyncio
import enum
import math
import time
from collections.abc import Callable

from flotilla.records import Entry


class Signal(enum.Enum):
    """What a subscription says instead of entries."""

    BEHIND = "behind"  # the subscriber fell behind the feed: re-read the gap from the store
    REWOUND = "rewound"  # the game's stored history went back: resync from a full view
    IDLE = "idle"  # nothing for a heartbeat period: send a checkpoint
    LOST = "lost"  # Redis has not answered this gateway for `lost_s`: end the stream (UNAVAILABLE)


class Subscription:
    """One watcher's queue of entry batches (bounded; overflow turns into `Signal.BEHIND`), and its
    heartbeats: `Signal.IDLE` once nothing came for `heartbeat_s` (from the feeds' shared ticker, so
    an idle stream has no timer, task or future of its own but the one it waits on)."""

    __slots__ = ("_idle", "_items", "_lagging", "_lost", "_schedule", "_size", "_waiter", "heartbeat_s", "last")

    def __init__(self, size: int, schedule: Callable[[Subscription], None] | None = None) -> None:
        self._items: list[list[Entry] | Signal] = []  # short; a deque's block alone is ~600 bytes
        self._size = size
        self._lagging = False
        self._idle = False
        self._lost = False
        self._waiter: asyncio.Future[None] | None = None
        self._schedule = schedule
        self.heartbeat_s = 0.0  # 0: no heartbeats
        self.last = time.monotonic()  # when the subscriber was last given something

    def beat_every(self, heartbeat_s: float) -> None:
        """Say `Signal.IDLE` whenever nothing came for `heartbeat_s` seconds."""
        self.heartbeat_s, self.last = heartbeat_s, time.monotonic()
        if self._schedule is not None and heartbeat_s > 0:
            self._schedule(self)

    def push(self, entries: list[Entry]) -> None:
        if self._lagging:
            return
        if len(self._items) >= self._size:
            self._lagging = True
        else:
            self._items.append(entries)
        self._wake()

    def rewind(self) -> None:
        """Drop what is queued (another history's entries) and say REWOUND next."""
        self._items.clear()
        self._lagging = False
        self._items.append(Signal.REWOUND)
        self._wake()

    def lose(self) -> None:
        """The store is lost: say LOST once what is queued was taken (at once when behind)."""
        self._lost = True
        self._wake()

    def idle(self) -> None:
        """A heartbeat is due (the ticker): say IDLE unless something else is queued."""
        self._idle = True
        self._wake()

    def _wake(self) -> None:
        self.last = time.monotonic()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def get(self) -> list[Entry] | Signal:
        while True:
            if self._lost and (self._lagging or not self._items):
                return Signal.LOST
            if self._lagging:
                self._lagging = False
                rewound = Signal.REWOUND in self._items
                self._items.clear()
                return Signal.REWOUND if rewound else Signal.BEHIND
            if self._items:
                self._idle = False
                return self._items.pop(0)
            if self._idle:
                self._idle = False
                return Signal.IDLE
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None


TICK_S = 0.25  # resolution of the heartbeat ticker


class Ticker:
    """Every subscription's heartbeats from one task: a timing wheel of `TICK_S` slots, each
    subscription in the slot of its next due time (moved on when it got something meanwhile). A
    heartbeat falls due only while `fresh()` (Redis answered lately); else it waits a tick."""

    def __init__(self, fresh: Callable[[], bool]) -> None:
        self.fresh = fresh
        self.wheel: dict[int, list[Subscription]] = {}
        self.task: asyncio.Task[None] | None = None

    def schedule(self, subscription: Subscription) -> None:
        slot = math.ceil((subscription.last + subscription.heartbeat_s) / TICK_S)
        self.wheel.setdefault(slot, []).append(subscription)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run(), name="heartbeats")

    async def run(self) -> None:
        while self.wheel:
            await asyncio.sleep(TICK_S)
            now = time.monotonic()
            current = math.floor(now / TICK_S)
            fresh = self.fresh()
            for slot in sorted(s for s in self.wheel if s <= current):
                for subscription in self.wheel.pop(slot):
                    if subscription.heartbeat_s <= 0:
                        continue  # closed
                    if fresh and now - subscription.last >= subscription.heartbeat_s - TICK_S / 2:
                        subscription.idle()
                    self.schedule(subscription)

    def close(self) -> None:
        self.wheel.clear()
        if self.task is not None:
            self.task.cancel()
            self.task.add_done_callback(retrieve)


def retrieve(task: asyncio.Task[None]) -> None:
    """Done callback of a cancelled task: its exception is retrieved (never "never retrieved")."""
    if not task.cancelled():
        task.exception()
