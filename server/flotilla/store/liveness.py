"""A worker's liveness key, kept alive by a thread beside the event loop.

While the process lives, `flotilla:worker:{consumer}` exists (SET PX `ttl_ms`, renewed every
`refresh_ms`). A thread, not a task: a worker busy applying a large batch is alive, so its
work must not be taken from it; only a dead process (or one cut off from Redis) lets the key
lapse. A live worker that is stuck is the idle-time backstop's case (`Worker.claim_idle_ms`).

Each renewal also scores the consumer in the registry `flotilla:workers` with the time (Redis's
clock) its key lapses unless renewed again, so sweepers find dead workers with one cheap read
instead of listing every work stream's consumers (`RedisStore.lapsed_workers`).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
import structlog

from flotilla.store import keys
from flotilla.store.client import StoreClient, script_source
from flotilla.store.transient import ANY_REDIS

log = structlog.get_logger("flotilla.worker")

STALLED_EXIT = 75
"""The exit status of a worker process its watchdog ended (its event loop was blocked too long)."""

PAUSED_S = 5.0
"""The liveness thread woke this much later than asked: the whole process was paused (SIGSTOP, a
suspended host), so the watchdog gives the event loop a fresh `stall_s` from then."""

REGISTRY_TTL_MS = 600_000
"""The worker registry expires this long after the last renewal of any worker's key (no worker
alive: nobody to sweep for; a worker that starts sweeps every consumer at once)."""


SYNC_TIMEOUT_S = 2.0
"""The socket timeouts of the liveness thread's own (blocking) client."""


class Liveness:
    """Keeps one consumer's liveness key alive from a daemon thread until `stop()`."""

    @classmethod
    def of(cls, store: StoreClient, consumer: str, **options: Any) -> Liveness:
        """The liveness of `consumer` on a blocking client of `store`'s Redis (callers never hold a
        client); `options` as for the constructor."""
        return cls(store.sync_client(SYNC_TIMEOUT_S), consumer, **options)

    def __init__(
        self,
        client: Any,
        consumer: str,
        *,
        ttl_ms: int,
        refresh_ms: int,
        stalled_for: Callable[[], float] | None = None,
        stall_s: float = 0.0,
    ) -> None:
        """`stalled_for`: how long the worker's event loop has not run (seconds); past `stall_s`
        (> 0) the process ends (`STALLED_EXIT`) and its work is taken over at once."""
        self.client = client
        self.stalled_for = stalled_for
        self.stall_s = stall_s
        self.key = keys.worker(consumer)
        self.consumer = consumer
        self._register = client.register_script(script_source("worker_register.lua"))
        self.ttl_ms = ttl_ms
        self.refresh_ms = refresh_ms
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"liveness-{consumer}", daemon=True)

    def start(self) -> None:
        """Set the key (unless Redis is unreachable: then the thread keeps trying) and keep it alive."""
        self._renew(failing=False)
        self._thread.start()

    def _run(self) -> None:
        failing = False
        last = resumed = time.monotonic()
        while not self._stop.wait(self.refresh_ms / 1000):
            now = time.monotonic()
            if now - last > PAUSED_S:  # this thread did not run either: the process was stopped, not its loop
                resumed = now
            last = now
            if (
                self.stall_s > 0
                and self.stalled_for is not None
                and min(self.stalled_for(), now - resumed) > self.stall_s
            ):
                self._give_up()
            failing = self._renew(failing)

    def _give_up(self) -> None:
        """The event loop is blocked (a rules function that never returns): end the process, as a
        crash would, so the move is taken over and counted towards FLOTILLA_MAX_DELIVERIES."""
        log.critical(
            "worker.stalled", consumer=self.consumer, stalled_s=round(self.stalled_for() if self.stalled_for else 0, 1)
        )
        with contextlib.suppress(Exception):
            self.client.delete(self.key)
            self.client.zadd(keys.WORKERS, {self.consumer: 0})  # lapsed now: taken over at once
        os._exit(STALLED_EXIT)

    def _renew(self, failing: bool) -> bool:
        """Set the key again; returns whether that failed (logged once per outage)."""
        try:
            self.client.set(self.key, 1, px=self.ttl_ms)
            self._register(keys=[keys.WORKERS], args=[self.consumer, self.ttl_ms, REGISTRY_TTL_MS])
        except ANY_REDIS as exc:  # unreachable, failing over, ...: try again next time
            if not failing:
                log.warning("worker.liveness_unavailable", error=str(exc))
            return True
        except Exception as exc:  # a bug: logged once per run of failures, the thread goes on
            if not failing:
                log.error("worker.liveness_failed", error=str(exc)[:200], exc_info=exc)
            return True
        return False

    def stop(self) -> None:
        """Stop renewing and delete the key: whatever this consumer still holds is taken over at once."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        with contextlib.suppress(redis.RedisError, OSError):
            self.client.delete(self.key)
            self.client.zadd(keys.WORKERS, {self.consumer: 0})  # lapsed now: swept (and forgotten) at once
        self.client.close()
