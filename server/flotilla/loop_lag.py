"""Event-loop lag, measured in every process (gateway, worker, matchmaker), and stalls logged with
what held the loop.

A task wakes every `INTERVAL_S`; how late it wakes is the loop's lag, observed in
`flotilla_event_loop_lag_seconds`. A watchdog thread looks at the loop's last wake-up: once it
is older than the interval plus `FLOTILLA_LOOP_STALL_MS`, the loop is held, and the thread notes
the task running on it (its name: a gRPC call's task is named after its method by `name_task`,
a browser request's after its path) and the innermost Flotilla frame of the loop thread's stack.
When the loop runs again the watch logs `event_loop.stalled` with the lag and that culprit and
counts `flotilla_event_loop_stalls_total`. The thread only reads, and wakes only when the loop
could be held past the threshold by then: while the loop is healthy, a comparison a beat or two.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import FrameType

import structlog

from flotilla import metrics

log = structlog.get_logger("flotilla.loop")

INTERVAL_S = 0.1  # how often the watch wakes (the lag's resolution)
_OWN = str(Path(__file__).resolve().parent)  # frames from here down are Flotilla's


def name_task(name: str) -> None:
    """Name the running task after what it serves (an RPC's method, a request's path): a stall
    is logged with it."""
    task = asyncio.current_task()
    if task is not None:
        task.set_name(name)


def _innermost_own(frame: FrameType | None) -> str:
    """`file:line function` of the innermost frame in Flotilla's code (or the innermost at all)."""
    first = ""
    while frame is not None:
        code = frame.f_code
        where = f"{Path(code.co_filename).name}:{frame.f_lineno} {code.co_name}"
        first = first or where
        if code.co_filename.startswith(_OWN) and not code.co_filename.endswith("loop_lag.py"):
            return where
        frame = frame.f_back
    return first


class LoopWatch:
    """Measures one loop's lag (the `run` task) and notes what holds it (a daemon thread)."""

    def __init__(self, stall_s: float, interval_s: float = INTERVAL_S) -> None:
        self.stall_s = stall_s
        self.interval_s = interval_s
        self.beat = time.monotonic()
        self.culprit: tuple[str, str] | None = None  # (task name, frame) seen during the current stall
        self.stopped = threading.Event()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        thread = threading.Thread(target=self._watch, args=(loop, threading.get_ident()), daemon=True)
        thread.name = "flotilla-loop-watch"
        thread.start()
        try:
            while True:
                expected = time.monotonic() + self.interval_s
                await asyncio.sleep(self.interval_s)
                self.beat = now = time.monotonic()
                lag = max(now - expected, 0.0)
                metrics.LOOP_LAG.observe(lag)
                if lag > self.stall_s:
                    self._stalled(lag)
        finally:
            self.stopped.set()

    def _stalled(self, lag: float) -> None:
        task, where = self.culprit or ("", "")
        self.culprit = None
        metrics.LOOP_STALLS.inc()
        log.warning("event_loop.stalled", lag_ms=round(lag * 1000, 1), task=task, where=where)

    def _watch(self, loop: asyncio.AbstractEventLoop, loop_thread: int) -> None:
        """Sleeps until the loop, unless it beats again meanwhile, would be held past the threshold
        (not a fixed step: an idle process wakes this thread ~7 times a second, not 20)."""
        step = max(self.stall_s / 2, 0.005)
        pause = step
        while not self.stopped.wait(pause):
            beat = self.beat
            due = beat + self.interval_s + self.stall_s - time.monotonic()  # until it is a stall
            if due > 0 or self.culprit is not None:
                pause = max(due, step / 4) if self.culprit is None else step
                continue
            pause = step
            task = asyncio.current_task(loop)  # a dict read: safe from another thread
            frame = sys._current_frames().get(loop_thread)
            if self.beat == beat:  # still held (not a stall that just ended)
                self.culprit = (task.get_name() if task is not None else "", _innermost_own(frame))


@contextlib.asynccontextmanager
async def watch_loop(stall_ms: float) -> AsyncIterator[LoopWatch]:
    """Watch the running loop while the block runs (`FLOTILLA_LOOP_STALL_MS`: what is a stall)."""
    watch = LoopWatch(stall_ms / 1000)
    task = asyncio.create_task(watch.run(), name="flotilla-loop-watch")
    try:
        yield watch
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
