"""What every part of a worker shares: its knobs and state (`WorkerBase`), the work streams it
serves, and how its loops log what they survive. worker/loop.py assembles `Worker` from the parts:
deliveries.py (reading entries, dead letters), reclaim.py (a dead worker's work), timers.py (turn
clocks), prefetch.py (the states cache)."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Self

import structlog

from flotilla import metrics
from flotilla.bots.takeover import Takeover
from flotilla.games import REGISTRY, served
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.deadletter import DeadLetters
from flotilla.store.redis_store import RedisStore
from flotilla.worker.plan import FastPath, Loaded, Work

log = structlog.get_logger("flotilla.worker")


def incident_of(where: str, exc: BaseException) -> str:
    """Log an unexpected exception a worker's loop survives, under a new incident id."""
    incident = uuid.uuid4().hex[:12]
    log.error("worker.loop_failed", loop=where, incident=incident, exc_info=exc)
    metrics.HELPER_FAILURES.labels(where).inc()
    return incident


def work_streams(shards: int, kinds: Sequence[str] | None = None) -> list[str]:
    """Every work stream this process's rules can serve: each served rules version of each kind."""
    names = kinds or list(REGISTRY)
    return [keys.work(name, r.version, shard) for name in names for r in served(name) for shard in range(shards)]


def wall_clock_ms() -> int:
    """Wall-clock time in milliseconds (what turn clocks and timers count in)."""
    return int(time.time() * 1000)


class WorkerBase:
    """A worker's knobs and state, set once here; the parts add its behaviour (module docstring)."""

    def __init__(
        self,
        store: RedisStore,
        *,
        shards: int = 4,
        consumer: str | None = None,
        batch: int = 128,
        block_ms: int = 1000,
        claim_idle_ms: int = 10_000,
        liveness_ttl_ms: int = 500,
        liveness_refresh_ms: int = 100,
        sweep_ms: int = 100,
        janitor_interval_s: float = 60.0,
        cache_size: int = 50_000,
        kinds: Sequence[str] | None = None,
        timer_interval_s: float = 0.2,
        timer_lease_ms: int = 2_000,
        finished_ttl_s: int = 30 * 24 * 3600,
        takeover: Takeover | None = None,
        max_deliveries: int = 5,
        dead_letter_maxlen: int = 10_000,
        stall_s: float = 0.0,
    ) -> None:
        self.store = store
        self.kinds = list(kinds or REGISTRY)
        self.streams = work_streams(shards, self.kinds)
        # Unique per process start: a restarted container may have the same host name and pid.
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.batch = batch
        self.block_ms = block_ms
        self.claim_idle_ms = claim_idle_ms
        self.liveness_ttl_ms = liveness_ttl_ms
        self.liveness_refresh_ms = liveness_refresh_ms
        self.sweep_ms = sweep_ms
        self.janitor_interval_s = janitor_interval_s
        self.cache: OrderedDict[str, Loaded] = OrderedDict()
        self.cache_size = cache_size
        self.timer_interval_s = timer_interval_s
        self.timer_lease_ms = timer_lease_ms
        self.finished_ttl_s = finished_ttl_s
        self.takeover = takeover  # plays absent seats (None: the game's default action)
        self.max_deliveries = max(max_deliveries, 1)
        self.dead_letters = DeadLetters.of(store, dead_letter_maxlen)
        self.stall_s = stall_s  # the event loop blocked this long: the process ends (0: never)
        self.beat = time.monotonic()  # the event loop last ran (a task renews it)
        self._failures = 0  # unexpected errors of the work loop in a row (its back-off)
        self.applied = 0
        self.rejected = 0
        self.timeouts = 0
        self.reclaimed = 0
        self._full_swept = float("-inf")  # when the last full sweep ran (monotonic s)
        self._stopping = asyncio.Event()
        self.fast_path = FastPath()
        self.verify: set[str] = set()  # games to read before acting again (an answer given on the cache alone)
        # Set when a read, a claim or a batch broke with Redis: entries given to this consumer may
        # be unapplied (a reply lost with its connection), so the work loop reads them again
        # (XREADGROUP from 0) instead of leaving them to XAUTOCLAIM. Also at start: a consumer
        # name given again after a restart may hold entries already.
        self.orphans = True
        self.ahead: asyncio.Future[Any] | None = None  # the next read, sent with commits (Worker.commit)

    @classmethod
    def from_settings(cls, store: RedisStore, settings: Settings, consumer: str | None = None) -> Self:
        """A worker with every knob from the settings (what `flotilla worker` runs)."""
        return cls(
            store,
            consumer=consumer,
            shards=settings.shards,
            finished_ttl_s=settings.finished_ttl_s,
            takeover=Takeover.of(settings.takeover_policy, settings.takeover_difficulty),
            claim_idle_ms=settings.reclaim_idle_ms,
            liveness_ttl_ms=settings.worker_ttl_ms,
            liveness_refresh_ms=settings.worker_refresh_ms,
            sweep_ms=settings.reclaim_sweep_ms,
            janitor_interval_s=settings.janitor_interval_s,
            timer_lease_ms=settings.timer_lease_ms,
            max_deliveries=settings.max_deliveries,
            dead_letter_maxlen=settings.dead_letter_maxlen,
            stall_s=settings.worker_stall_s,
        )

    def beat_now(self) -> None:
        """The event loop runs (also called between the pieces of work of a round, and between the
        states a prefetch decodes: the watchdog bounds one piece of rules work, not a batch)."""
        self.beat = time.monotonic()

    async def handle(self, batch: list[Work], *, read_ahead: bool = False) -> None:
        """Apply a batch of work (worker/loop.py, `Worker.handle`)."""
        raise NotImplementedError
