"""Heartbeats of idle watch streams come from one shared ticker; subscriptions stay bounded."""

from __future__ import annotations

import asyncio
import time
import uuid

from flotilla.store.feeds import TICK_S, Feeds, Signal, Subscription
from flotilla.store.redis_store import RedisStore


async def test_idle_subscriptions_get_heartbeats_from_one_task(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    feeds = Feeds(store, block_ms=500)
    try:
        async with feeds.subscribe(uuid.uuid4().hex, 0) as first:
            tasks = len(asyncio.all_tasks())  # the game's reader and the ticker are running now
            first.beat_every(0.5)
            async with feeds.subscribe(uuid.uuid4().hex, 0) as second:
                second.beat_every(0.5)
                subscriptions = [first, second]
                started = time.monotonic()
                signals = await asyncio.wait_for(asyncio.gather(*(s.get() for s in subscriptions)), 5)
                waited = time.monotonic() - started
                assert signals == [Signal.IDLE, Signal.IDLE]
                assert 0.5 - TICK_S <= waited <= 0.5 + 4 * TICK_S + 1.0  # due at 0.5 s, on a tick
                assert len(asyncio.all_tasks()) <= tasks + 1  # the second game's reader: nothing per stream
    finally:
        await feeds.close()
        await store.close()


async def test_no_heartbeat_while_entries_flow(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    feeds = Feeds(store, block_ms=500)
    try:
        async with feeds.subscribe(uuid.uuid4().hex, 0) as live:
            live.beat_every(0.6)
            got = []
            for _ in range(8):  # 1.6 s of activity every 0.2 s: never idle for 0.6 s
                live.push([])
                got.append(await asyncio.wait_for(live.get(), 5))
                await asyncio.sleep(0.2)
            assert Signal.IDLE not in got
            assert await asyncio.wait_for(live.get(), 5) is Signal.IDLE  # then idle: a heartbeat
    finally:
        await feeds.close()
        await store.close()


async def test_a_subscription_is_bounded_and_keeps_a_rewind() -> None:
    live = Subscription(2)
    for _ in range(3):
        live.push([])
    assert await live.get() is Signal.BEHIND  # overflowed: re-read the gap from the store
    live.push([])
    live.push([])
    live.push([])  # overflows again ...
    live.rewind()  # ... but a rewind is never lost
    assert await live.get() is Signal.REWOUND
    live.idle()
    live.push([])
    assert await live.get() == []  # entries make the heartbeat due meanwhile unnecessary
    live.push([])
    assert await live.get() == []  # (it was dropped, not kept for later)
    live.idle()
    assert await live.get() is Signal.IDLE
