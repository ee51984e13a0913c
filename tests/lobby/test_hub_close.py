"""A gateway stops at once after a WatchRoom: closing the lobby's StreamHub lets the command its
reader has in flight finish (or unblocks its XREAD) before cancelling it. Cancelling the reader's
first command mid-connect used to hold `Gateway.stop` for 5 s (docs/notes.md)."""

from __future__ import annotations

import asyncio
import time

from flotilla.gateway.server import start_gateway
from flotilla.settings import Settings
from flotilla_client import FlotillaClient

STALL_S = 2.5  # the stall was 5 s (the connect timeout); a stop takes ~20 ms here


def test_gateway_stops_at_once_after_a_room_was_watched(redis_url: str) -> None:
    async def run() -> float:
        gateway = await start_gateway(Settings(redis_url=redis_url, bind="127.0.0.1:0"))
        async with FlotillaClient(f"127.0.0.1:{gateway.port}") as client:
            await client.sign_in("watcher")
            room = await client.create_room("counter", 2)
            async for update in client.watch_room(room.name):
                assert update.room.name == room.name
                break
        started = time.monotonic()
        await asyncio.wait_for(gateway.stop(), 30)
        return time.monotonic() - started

    took = asyncio.run(run())
    assert took < STALL_S, f"Gateway.stop took {took:.1f} s after a WatchRoom"
