"""`Clock`: where code whose behaviour depends on time passing reads the time, so that a test can
hand it a `ManualClock` and move time on at once instead of waiting for it.

Only code that decides by time (lapses, grace periods, pacing) takes a clock; its default is
`SYSTEM`, the real one. Redis keeps its own time for TTLs and `TIME`: a manual clock moves only
what the code computes itself (a `now_ms` it passes to a store method, a deadline it compares).
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """The two clocks code reads: `time()` (wall clock, seconds since the epoch: stored times,
    deadlines shared between processes) and `monotonic()` (intervals within one process)."""

    def time(self) -> float: ...

    def monotonic(self) -> float: ...


class SystemClock:
    """The real clocks (`time.time`, `time.monotonic`)."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()


SYSTEM: Clock = SystemClock()


def now_ms(clock: Clock = SYSTEM) -> int:
    """The wall clock in whole milliseconds (what Flotilla stores)."""
    return int(clock.time() * 1000)


class ManualClock:
    """A clock that moves only when told (`advance`): for tests. It starts at the real time, so
    that times it gives Redis (absolute expiries) stay sensible."""

    def __init__(self) -> None:
        self._wall = time.time()
        self._mono = 0.0

    def time(self) -> float:
        return self._wall

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float) -> None:
        """Move both clocks on by `seconds`."""
        self._wall += seconds
        self._mono += seconds
