"""Long-lived reader tasks that restart themselves instead of dying silently.

A reader (a worker's per-stream reader on a Redis Cluster, a gateway's feed, its inbox) waits out
the errors that mean "retry" (`store.transient`) inside its own loop. Anything else escaping it
is a bug or an error nobody foresaw: an asyncio task would end with it unseen, and the stream it
read would never be read again. `supervised` logs it under an incident id, counts it
(`flotilla_store_reader_restarts_total`) and starts the reader again after a back-off; the
`flotilla_store_readers` gauge counts the readers running, by kind.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable

import structlog

from flotilla import metrics
from flotilla.store.transient import RETRY_PAUSE_S

log = structlog.get_logger("flotilla.store")

MAX_BACKOFF_S = 30.0  # the longest pause between two restarts of a reader that keeps failing
HEALTHY_S = 30.0  # a reader that ran this long before failing starts again after the shortest pause


async def supervised(kind: str, run: Callable[[bool], Awaitable[None]], **context: str) -> None:
    """Run `run(restarted)` until it returns (or the task is cancelled); restart it after any
    exception, with `restarted` True and a back-off (`RETRY_PAUSE_S`, doubling, at most
    `MAX_BACKOFF_S`). `context` goes into the log line of a failure."""
    gauge = metrics.READERS.labels(kind)
    gauge.inc()
    failures = 0
    restarted = False
    try:
        while True:
            started = time.monotonic()
            try:
                await run(restarted)
                return
            except Exception as exc:
                if time.monotonic() - started >= HEALTHY_S:
                    failures = 0
                incident = uuid.uuid4().hex[:12]
                log.error("store.reader_restarted", reader=kind, incident=incident, exc_info=exc, **context)
                metrics.READER_RESTARTS.labels(kind).inc()
                await asyncio.sleep(min(RETRY_PAUSE_S * 2 ** min(failures, 16), MAX_BACKOFF_S))  # (2**1024 overflows)
                failures += 1
                restarted = True
    finally:
        gauge.dec()
