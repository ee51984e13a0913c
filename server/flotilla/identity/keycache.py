"""Verification keys by `kid`, from a source that can change (Redis, a JWKS URL, a JWKS file).

The cache is read without I/O while the token's kid is known. An unknown kid reloads the
source once (single flight, at most one load per `min_reload_s`); a kid still unknown after a
load that began after it was asked for is remembered as unknown for `negative_ttl_s` (a
bounded map), so forged kids cannot make every call reach the source. A periodic refresh
picks up new keys (and drops retired ones) without any call asking.

A caller waiting for a reload holds nothing of the gateway's: it gives its admission place back
meanwhile (flotilla/aside.py). At most `max_waiting` callers wait at once; while that many do
(a flood of forged kids), another unknown kid is refused at once (not remembered: no load has
proved it unknown), so a flood costs the gateway neither places nor waiting calls beyond that.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import structlog

from flotilla import metrics
from flotilla.aside import aside
from flotilla.clock import SYSTEM, Clock
from flotilla.store.transient import log_survived

log = structlog.get_logger("flotilla.identity")

K = TypeVar("K")
KID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # what a kid may look like before any lookup
NEGATIVE_MAX = 10_000
MAX_WAITING = 100  # callers waiting for a reload at once (see the module docstring)
LOAD_FAILED = "load_failed"  # the log event of a failed load: a warning when transient, else an error


@dataclass(frozen=True, slots=True)
class KeySet(Generic[K]):
    """Keys by kid; `current` signs (None for a set that only verifies, e.g. an issuer's JWKS)."""

    keys: Mapping[str, K] = field(default_factory=dict)
    current: str | None = None


class KeyCache(Generic[K]):
    """A key set kept fresh from `load` (see the module docstring)."""

    def __init__(
        self,
        load: Callable[[], Awaitable[KeySet[K]]],
        *,
        name: str,
        refresh_s: float,
        min_reload_s: float = 1.0,
        negative_ttl_s: float = 60.0,
        max_waiting: int = MAX_WAITING,
        clock: Clock = SYSTEM,
    ) -> None:
        self._load = load
        self.clock = clock  # pacing and the negative cache's lapses (flotilla/clock.py)
        self.name = name
        self.refresh_s = refresh_s
        self.min_reload_s = min_reload_s
        self.negative_ttl_s = negative_ttl_s
        self.max_waiting = max_waiting
        self.waiting = 0  # callers waiting for a reload now
        self.keys: KeySet[K] = KeySet()
        self.loads = 0  # completed loads (tests and metrics read it)
        self._loaded_from = -1e18  # monotonic start time of the last completed load
        self._last_ok = True
        self._inflight: asyncio.Task[None] | None = None
        self._unknown: OrderedDict[str, float] = OrderedDict()  # kid -> until (monotonic)
        self._refresher: asyncio.Task[None] | None = None

    async def start(self, *, required: bool = True) -> None:
        """Load once, then refresh periodically. A failed first load raises when `required` (a process
        must not sign without keys); otherwise it is logged and later calls and refreshes try again."""
        try:
            self.keys = await self._load()
        except Exception as exc:
            metrics.KEY_LOADS.labels(self.name, "failed").inc()
            if required:
                raise
            self._last_ok = False
            log_survived(log, "keys", exc, unavailable=LOAD_FAILED, failed=LOAD_FAILED, keys=self.name)
        else:
            metrics.KEY_LOADS.labels(self.name, "ok").inc()
            self.loads += 1
            self._loaded_from = self.clock.monotonic()
        if self.refresh_s > 0 and self._refresher is None:
            self._refresher = asyncio.create_task(self._refresh_loop(), name=f"keys:{self.name}")

    async def close(self) -> None:
        for task in (self._refresher, self._inflight):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._refresher = self._inflight = None

    async def _refresh_loop(self) -> None:
        """Reload every `refresh_s`; a failure (a load's is logged by `_paced_load`) never ends it."""
        while True:
            await asyncio.sleep(self.refresh_s)
            try:
                await self.reload(self.clock.monotonic())
            except Exception as exc:  # a bug: the next refresh goes on
                log_survived(log, "keys", exc, unavailable=LOAD_FAILED, failed=LOAD_FAILED, keys=self.name)

    async def get(self, kid: str) -> K | None:
        """The key named `kid` (reloading the source once if it is new), None if there is none."""
        found = self.keys.keys.get(kid)
        if found is not None or not KID.match(kid):
            return found
        now = self.clock.monotonic()
        until = self._unknown.get(kid)
        if until is not None and until > now:
            return None
        if self.waiting >= self.max_waiting:
            metrics.KEY_WAITS_REFUSED.labels(self.name).inc()
            return None
        self.waiting += 1
        try:
            with aside():
                await self.reload(now)
        finally:
            self.waiting -= 1
        found = self.keys.keys.get(kid)
        if found is None and self._last_ok:  # a failed load proves nothing about the kid
            self._unknown[kid] = self.clock.monotonic() + self.negative_ttl_s
            self._unknown.move_to_end(kid)
            while len(self._unknown) > NEGATIVE_MAX:
                self._unknown.popitem(last=False)
        return found

    async def reload(self, asked_at: float) -> None:
        """Return once a load that began at or after `asked_at` has completed (or failed)."""
        for _ in range(3):  # an in-flight load that began earlier, then our own
            if self._loaded_from >= asked_at:
                return
            if self._inflight is None or self._inflight.done():
                self._inflight = asyncio.create_task(self._paced_load())
            await asyncio.shield(self._inflight)

    async def _paced_load(self) -> None:
        wait = self._loaded_from + self.min_reload_s - self.clock.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        began = self.clock.monotonic()
        try:
            self.keys = await self._load()
            self.loads += 1
            self._last_ok = True
            metrics.KEY_LOADS.labels(self.name, "ok").inc()
        except Exception as exc:  # keep the keys we have; the next call or refresh tries again
            metrics.KEY_LOADS.labels(self.name, "failed").inc()
            self._last_ok = False
            log_survived(log, "keys", exc, unavailable=LOAD_FAILED, failed=LOAD_FAILED, keys=self.name)
        self._loaded_from = began
