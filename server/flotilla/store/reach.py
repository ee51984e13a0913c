"""Whether a gateway reaches its Redis now: one PING every `PROBE_S`, each given `PROBE_S` to answer.

A Redis cut off by the network does not close connections: commands hang until the socket
timeout (30 s), and a blocked XREAD looks the same as a quiet game. So the feeds (store/feeds.py)
do not wait for errors. They ask this probe: a heartbeat checkpoint ("nothing after version N")
is sent only while Redis answered a probe sent in the last `FRESH_S` seconds (`fresh`), and once
no probe sent in the last `lost_s` seconds (FLOTILLA_STORE_LOST_S) was answered, the store is
`lost`: every watch stream of the gateway (games, and the rooms and tickets of the lobby's
`StreamHub`, which `listen` too) ends UNAVAILABLE (STORE_UNAVAILABLE), which the SDKs retry on
another gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import structlog
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.reach")

PROBE_S = 1.0  # how often the store is probed, and how long each probe may take
FRESH_S = 2.5 * PROBE_S  # a checkpoint is sent only while a probe this recent was answered
STORE_LOST_S = 10.0  # default of FLOTILLA_STORE_LOST_S (settings.py)


class StoreReach:
    """The time the last answered probe was sent, kept by a task started with `start`."""

    def __init__(self, store: RedisStore, lost_s: float = STORE_LOST_S, on_lost: Callable[[], None] | None = None):
        self.store = store
        self.lost_s = max(lost_s, FRESH_S)
        self._on_lost: list[Callable[[], None]] = [] if on_lost is None else [on_lost]
        self.answered_at = time.monotonic()  # when the last probe that was answered was sent
        self.task: asyncio.Task[None] | None = None
        self._client: Any = None

    def fresh(self) -> bool:
        """Whether Redis answered a probe sent in the last `FRESH_S` seconds."""
        return time.monotonic() - self.answered_at <= FRESH_S

    @property
    def lost(self) -> bool:
        """Whether no probe sent in the last `lost_s` seconds was answered."""
        return time.monotonic() - self.answered_at > self.lost_s

    def listen(self, on_lost: Callable[[], None]) -> None:
        """Call `on_lost` too, each round while the store is lost."""
        self._on_lost.append(on_lost)

    def start(self) -> None:
        """Probe from now on (a no-op when already probing)."""
        if self.task is None or self.task.done():
            self.answered_at = time.monotonic()
            self.task = asyncio.get_running_loop().create_task(self.run(), name="store-reach")

    async def run(self) -> None:
        was_lost = False
        while True:
            sent = time.monotonic()
            if await self.probe():
                self.answered_at = sent
                if was_lost:
                    log.info("store.reachable_again")
                was_lost = False
            elif self.lost and not was_lost:
                was_lost = True
                log.warning("store.lost", unanswered_s=round(time.monotonic() - self.answered_at, 1))
            if was_lost:
                for on_lost in self._on_lost:
                    on_lost()  # each round: streams opened meanwhile end too
            await asyncio.sleep(max(0.0, PROBE_S - (time.monotonic() - sent)))

    async def probe(self) -> bool:
        """One PING answered within `PROBE_S`: on a connection of its own (single Redis), or to
        a random node of a cluster (the default node may be the one cut off: a cancelled PING
        would never make the cluster client pick another)."""
        if self._client is None:
            self._client = self.store.redis if self.store.cluster else self.store.dedicated_client()
        ping = self._client.ping(target_nodes=RedisCluster.RANDOM) if self.store.cluster else self._client.ping()
        # Not asyncio.wait_for: on Python 3.11 a ping that completes as this task is cancelled makes
        # it return the answer and drop the cancel, and `close()` then waited for ever (a gateway's
        # stop hung). asyncio.timeout keeps the cancel.
        try:
            async with asyncio.timeout(PROBE_S):
                await ping
        except (TimeoutError, RedisConnectionError, RedisTimeoutError, OSError):
            return False  # a cancelled command drops its connection: the next probe opens another
        return True

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self._client is not None and not self.store.cluster:
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError, OSError):
                await self._client.aclose(close_connection_pool=True)
