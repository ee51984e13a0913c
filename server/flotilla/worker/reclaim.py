"""Taking over a dead worker's work: every worker sweeps the worker registry for workers whose
liveness key is gone, claims their pending entries and applies them (worker/loop.py's docstring)."""

from __future__ import annotations

import asyncio
import time

from flotilla import metrics
from flotilla.errors import StoreError
from flotilla.worker.base import incident_of, log
from flotilla.worker.deliveries import Deliveries, Message

FULL_SWEEP_S = 5.0
"""A worker's first sweep, and then one at least this long after the last such, lists every work
stream's consumers whatever the worker registry says (the backstop for consumers it does not name)."""


class Reclaiming(Deliveries):
    """The sweep (a part of `Worker`, worker/base.py)."""

    _sweep_wait_ms = 0
    """The wait before the next sweep: `sweep_ms`, unless the last sweep found the next lapse later."""

    async def _sweep_loop(self) -> None:
        while not self._stopping.is_set():
            self._sweep_wait_ms = self.sweep_ms
            try:
                await self.reclaim_dead()
            except StoreError as exc:  # a failover, a lost group, ...: sweep again next time
                log.warning("worker.sweep_failed", error=str(exc))
                self.orphans = True  # a claim whose reply was lost, a batch cut short: ours now
            except Exception as exc:  # a bug: logged, and the next sweep goes on
                incident_of("sweep", exc)
                self.orphans = True
            await asyncio.sleep(self._sweep_wait_ms / 1000)

    async def reclaim_dead(self, *, full: bool | None = None) -> int:
        """One sweep: claim and apply the pending work of workers whose liveness key is gone.

        Usually one read of the worker registry that finds no lapsed worker and ends there; the
        work streams' consumers are listed only when it finds one, and every `FULL_SWEEP_S`
        as a backstop (consumers missing from the registry: a worker of an older version,
        a registry lost with a Redis restart). A dead worker leaves the registry once a sweep
        finds nothing more to claim; `full` forces (True) or skips (False) the backstop.

        A sweep that finds nobody lapsed sets the wait before the next (`_sweep_wait_ms`) to the
        time until the registry's next lapse (no worker can die unseen before it: a renewal only
        pushes a score later), at least `sweep_ms` and at most the liveness TTL (a stopping or
        stalled worker scores itself lapsed at once: it is swept within that TTL)."""
        lapsed, next_ms = await self.store.lapsed_and_next()
        now = time.monotonic()
        if full is None:
            full = now - self._full_swept >= FULL_SWEEP_S  # the first sweep of a worker, then every 5 s
        if full:
            self._full_swept = now
        if not lapsed and not full:
            if next_ms is not None:
                self._sweep_wait_ms = min(max(next_ms, self.sweep_ms), self.liveness_ttl_ms)
            return 0
        quiet_ms = self.block_ms + self.liveness_ttl_ms  # a live idle worker reads again within block_ms
        claimed = await self.store.claim_from_dead(self.streams, self.consumer, quiet_ms=quiet_ms, count=self.batch)
        if claimed:
            self._count_reclaimed("dead", claimed)
            await self.handle_messages([], claimed)
        else:
            await self.store.forget_workers(lapsed)
        return len(claimed)

    def _count_reclaimed(self, how: str, messages: list[Message]) -> None:
        self.reclaimed += len(messages)
        metrics.WORK_RECLAIMED.labels(how).inc(len(messages))
        log.info("worker.reclaimed", how=how, messages=len(messages))
