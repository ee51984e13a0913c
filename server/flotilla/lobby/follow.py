"""Following a stored document (a room, a ticket) through its change stream, for a watch.

Changes come from the gateway's `StreamHub`; a quiet period gives a heartbeat made from memory,
without any Redis command, but only while the gateway's probe of Redis (store/reach.py) says it
answered lately: a heartbeat must not claim "nothing changed" from a gateway cut off from Redis.
Once the probe says Redis is lost, the hub sends `STORE_LOST` and the watch ends UNAVAILABLE
(STORE_UNAVAILABLE), which the SDKs retry on another gateway. The document may still vanish
without a change (its TTL runs out), so its remaining TTL is read with it at the start, and again
only once that time has passed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable

from flotilla.app.errors import StoreUnavailable
from flotilla.store.reach import PROBE_S
from flotilla.store.stream_hub import HubItem, StoreLost, StreamEntries


class Heartbeat:
    """Yielded after a quiet heartbeat period."""


HEARTBEAT = Heartbeat()


def _always() -> bool:
    return True


async def follow(
    feed: asyncio.Queue[HubItem],
    heartbeat_s: float,
    expires_in: Callable[[], Awaitable[float | None]],
    left: float,
    fresh: Callable[[], bool] = _always,
) -> AsyncGenerator[StreamEntries | Heartbeat | None]:
    """The feed's batches (None: re-read the stored state), and `HEARTBEAT` after each quiet
    `heartbeat_s` while `fresh()` (else it is tried again every `PROBE_S`); ends when
    `expires_in()` (seconds left, inf: no TTL, None: gone), asked once the `left` seconds known at
    the start have passed, says the document is gone. Raises `StoreUnavailable` on `STORE_LOST`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + left
    wait = heartbeat_s
    while True:
        try:
            async with asyncio.timeout(wait):  # no task per wait, unlike wait_for
                batch = await feed.get()
        except TimeoutError:
            pass
        else:
            if isinstance(batch, StoreLost):
                raise StoreUnavailable("this gateway lost its store; watch again on another gateway")
            wait = heartbeat_s
            yield batch
            continue
        if not fresh():  # Redis has not answered lately: no heartbeat until it does (or is lost)
            wait = min(heartbeat_s, PROBE_S)
            continue
        wait = heartbeat_s
        if loop.time() >= deadline:
            now_left = await expires_in()
            if now_left is None:
                return
            deadline = loop.time() + now_left
        yield HEARTBEAT
