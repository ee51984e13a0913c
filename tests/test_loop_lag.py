"""The event loop's lag is a metric in every process, and a callback that holds the loop past
FLOTILLA_LOOP_STALL_MS is logged with the task that held it (flotilla/loop_lag.py)."""

from __future__ import annotations

import asyncio
import threading
import time

from prometheus_client import REGISTRY
from structlog.testing import capture_logs

from flotilla.loop_lag import name_task, watch_loop
from support import until


def lag_count() -> float:
    return REGISTRY.get_sample_value("flotilla_event_loop_lag_seconds_count") or 0.0


async def test_a_callback_holding_the_loop_is_logged_with_its_task_name_and_lag_is_measured() -> None:
    before, stalls = lag_count(), REGISTRY.get_sample_value("flotilla_event_loop_stalls_total") or 0.0

    async def held() -> None:
        name_task("GameService/Slow")
        time.sleep(0.5)  # noqa: ASYNC251 - a handler that never yields: what a stall is

    with capture_logs() as logs:
        async with watch_loop(stall_ms=100):
            await until(lambda: asyncio.sleep(0, lag_count() > before), 5, "a lag measured")
            await asyncio.create_task(held())

            async def logged() -> bool:
                return any(entry["event"] == "event_loop.stalled" for entry in logs)

            await until(logged, 5, "the stall logged")
    stalled = next(entry for entry in logs if entry["event"] == "event_loop.stalled")
    assert stalled["task"] == "GameService/Slow", stalled
    assert "held" in stalled["where"], stalled  # the frame that held the loop
    assert stalled["lag_ms"] >= 300, stalled
    assert (REGISTRY.get_sample_value("flotilla_event_loop_stalls_total") or 0.0) >= stalls + 1


async def test_a_healthy_loop_logs_no_stall() -> None:
    with capture_logs() as logs:
        async with watch_loop(stall_ms=1000):
            before = lag_count()
            await until(lambda: asyncio.sleep(0, lag_count() >= before + 3), 5, "three lag samples")
    assert not [entry for entry in logs if entry["event"] == "event_loop.stalled"]


class CountingEvent(threading.Event):
    """An Event that counts the watch thread's waits (its wake-ups)."""

    def __init__(self) -> None:
        super().__init__()
        self.waits = 0

    def wait(self, timeout: float | None = None) -> bool:
        self.waits += 1
        return super().wait(timeout)


async def test_the_watch_thread_of_a_healthy_loop_wakes_once_a_beat_or_less() -> None:
    """It sleeps until the loop could be held past the threshold (not every half threshold: 20 times
    a second at 100 ms, in every idle gateway and worker)."""
    async with watch_loop(stall_ms=100) as watch:
        watch.stopped = counting = CountingEvent()  # before its thread starts (at the first await)
        await asyncio.sleep(2.0)
    assert counting.waits <= 26, f"{counting.waits} wake-ups in 2 s (20 beats; every half threshold: 40)"
