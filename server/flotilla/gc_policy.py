"""The gateway's garbage-collector policy: full collections only within a pause budget.

CPython's full collections traverse every tracked object; with tens of thousands of idle
streams (about 110 tracked objects each, living for hours) they paused a gateway for over a
second while freeing almost nothing. So automatic full collections are off (young ones still
run), and every `interval_s` the policy moves the survivors of the young generations into the
permanent generation (`gc.freeze()`: never traversed; objects there are still freed by reference
counting when they die, closed streams leave no cycles behind), after a young collection, so that
cyclic garbage of the last interval (a refused call's exception, its frames and its call's objects:
a few KB each, thousands in a burst of refused opens) is freed instead of frozen for hours. It
then runs a full collection (`gc.unfreeze()` + `gc.collect()`) only when its pause, estimated
from the frozen object count and the last measured cost per object, fits `budget_s` (when the
gateway holds few objects, e.g. after its streams closed), and only if `min_gap_s` passed since
the last one or the frozen count grew by half since (a small gateway would otherwise pause for
its budget every `interval_s`).
Cyclic garbage that aged into the permanent generation waits for that,
or at the latest `max_age_s` (the backstop that bounds it: one pause over budget). After each
full collection, and whenever the frozen object count fell to half its peak (streams closed and
reference counting freed them), glibc's malloc_trim hands the freed heap back to the system.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import sys
import time
from collections.abc import Callable

import structlog

log = structlog.get_logger("flotilla.gc")

NO_AUTOMATIC_FULL = 1_000_000_000  # gen-1 collections before an automatic full one: never, in practice
RECOUNT_STEPS = 10  # steps between exact counts of the frozen objects (a walk of all of them)


def _malloc_trim() -> Callable[[], None]:
    """glibc's malloc_trim(0), or nothing where there is no glibc."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
        return lambda: trim(0)
    return lambda: None


class GcPolicy:
    """Budgeted full collections for a long-running asyncio process (see the module docstring)."""

    def __init__(
        self, budget_s: float, interval_s: float = 1.0, max_age_s: float = 21_600.0, min_gap_s: float = 30.0
    ) -> None:
        self.budget_s = budget_s
        self.interval_s = interval_s
        self.max_age_s = max_age_s
        self.min_gap_s = min_gap_s
        self.after_full = 0  # objects frozen right after the last full collection
        self.cost_s = 1e-6  # per traversed object: the least any full collection took (preemption only adds)
        self.peak = 0  # the most objects frozen since the heap was last trimmed
        self.last_full = time.monotonic()
        self.full_collections = 0
        self.frozen = 0  # objects frozen: counted, or estimated from the memory blocks (`_frozen_count`)
        self.uncounted = 0  # steps since the last count
        self.counted = (0, 1)  # the last count and the memory blocks allocated then (sys.getallocatedblocks)
        self.trim = _malloc_trim()
        self._task: asyncio.Task[None] | None = None
        self._thresholds = gc.get_threshold()

    def start(self) -> None:
        """Collect and freeze what startup made, turn automatic full collections off, run the policy."""
        self.full()
        gen0, gen1, _ = self._thresholds
        gc.set_threshold(gen0, gen1, NO_AUTOMATIC_FULL)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="gc-policy")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval_s)
            self.step()

    def step(self) -> bool:
        """Freeze the young survivors; a full collection if it fits the budget or is overdue.
        Returns whether it ran one."""
        gc.collect(1)  # young cyclic garbage (a refused call's exception and frames) dies, not frozen
        gc.freeze()
        frozen = self._frozen_count()
        self.peak = max(self.peak, frozen)
        if frozen < self.peak // 2:  # half of what was there died: give the memory back
            self.trim()
            self.peak = frozen
        since = time.monotonic() - self.last_full
        overdue = self.max_age_s > 0 and since >= self.max_age_s
        due = since >= self.min_gap_s or frozen >= 1.5 * self.after_full
        if not overdue and (not due or frozen * self.cost_s > self.budget_s):
            return False
        if not overdue and self.uncounted:  # an estimate says it fits: the count decides (a small heap)
            self._counted(gc.get_freeze_count(), sys.getallocatedblocks())
            if self.frozen * self.cost_s > self.budget_s:
                return False
        self.full()
        return True

    def _frozen_count(self) -> int:
        """The objects frozen now: the last count scaled by the memory blocks allocated since (the
        blocks follow the objects: streams opened or closed); counted again (`gc.get_freeze_count`
        walks every frozen object, 10-30 ms per 100k: at 20k streams a stall of 0.3-0.6 s) every
        `RECOUNT_STEPS` steps, and only while a full collection could fit the budget, where the
        count decides it. A gateway holding many streams is never walked but to collect it."""
        blocks = sys.getallocatedblocks()
        count, counted_blocks = self.counted
        self.frozen = count * blocks // max(counted_blocks, 1)
        self.uncounted += 1
        if self.uncounted >= RECOUNT_STEPS and self.frozen * self.cost_s <= 2 * self.budget_s:
            self._counted(gc.get_freeze_count(), blocks)
        return self.frozen

    def _counted(self, frozen: int, blocks: int) -> None:
        self.frozen, self.uncounted, self.counted = frozen, 0, (frozen, blocks)

    def full(self) -> None:
        """One full collection of everything (measured), then freeze the survivors, trim the heap."""
        gc.unfreeze()
        started = time.perf_counter()
        gc.collect()
        pause = time.perf_counter() - started
        gc.freeze()
        survivors = gc.get_freeze_count()
        self._counted(survivors, sys.getallocatedblocks())
        cost = max(pause / max(survivors, 1), 1e-9)  # survivors: nearly all it traversed
        self.cost_s = cost if self.full_collections == 0 else min(self.cost_s, cost)
        self.last_full = time.monotonic()
        self.full_collections += 1
        self.trim()
        self.peak = self.after_full = survivors
        log.debug("gc.full", pause_s=round(pause, 4), objects=survivors)
