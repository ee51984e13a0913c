"""Following a stored document (a room, a ticket) through its change stream, for a watch.

Changes come from the gateway's `StreamHub`; a quiet period gives a heartbeat made from memory,
without any Redis command. The document may still vanish without a change (its TTL runs out), so
its remaining TTL is read with it at the start, and again only once that time has passed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable

from flotilla.store.lobby_store import StreamEntries


class Heartbeat:
    """Yielded after a quiet heartbeat period."""


HEARTBEAT = Heartbeat()


async def follow(
    feed: asyncio.Queue[StreamEntries | None],
    heartbeat_s: float,
    expires_in: Callable[[], Awaitable[float | None]],
    left: float,
) -> AsyncGenerator[StreamEntries | Heartbeat | None]:
    """The feed's batches (None: re-read the stored state), and `HEARTBEAT` after each quiet
    `heartbeat_s`; ends when `expires_in()` (seconds left, inf: no TTL, None: gone), asked once
    the `left` seconds known at the start have passed, says the document is gone."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + left
    while True:
        try:
            async with asyncio.timeout(heartbeat_s):  # no task per wait, unlike wait_for
                batch = await feed.get()
        except TimeoutError:
            pass
        else:
            yield batch
            continue
        if loop.time() >= deadline:
            now_left = await expires_in()
            if now_left is None:
                return
            deadline = loop.time() + now_left
        yield HEARTBEAT
