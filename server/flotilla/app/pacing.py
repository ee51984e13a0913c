"""Pacing of background work on a gateway's event loop: catch-ups must not slow live games.

A client that resumes from event 1 of a long game, or fifty of them, would otherwise have
the gateway render whole histories as fast as their transports take them (HTTP/2 windows
grow to megabytes), and every live game on that gateway would wait behind that work. The
time spent reading, decoding and rendering catch-up pages is charged to one budget per
process, which refills at `share` seconds per second of wall time; catch-up work runs one
piece at a time and waits while the budget is overdrawn. Live updates are never paced.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator


class Budget:
    """A share of the event loop for one kind of background work, shared by every stream.

    Work runs in `slot()`s, one at a time, each charged with its wall time (its awaits
    included: whatever else the loop did meanwhile is charged too, so background work yields
    more when the loop is busy).
    """

    def __init__(self, share: float = 0.25, burst_s: float = 0.02) -> None:
        if not 0 < share <= 1:
            msg = f"share must be in (0, 1], got {share}"
            raise ValueError(msg)
        self.share = share
        self.burst_s = burst_s
        self._debt = 0.0  # loop seconds spent beyond what the budget has refilled
        self._stamp = time.monotonic()
        self._lane = asyncio.Lock()

    def _refill(self) -> None:
        now = time.monotonic()
        self._debt = max(0.0, self._debt - (now - self._stamp) * self.share)
        self._stamp = now

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Run a piece of background work when the budget allows, and charge it."""
        async with self._lane:
            self._refill()
            while self._debt > self.burst_s:
                await asyncio.sleep((self._debt - self.burst_s) / self.share)
                self._refill()
            started = time.monotonic()
            try:
                yield
            finally:
                self._refill()
                self._debt += time.monotonic() - started
