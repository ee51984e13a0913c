"""Heartbeats of idle watch streams come from one shared ticker; subscriptions stay bounded."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.gateway.server import Gateway
from flotilla.store import feeds as feeds_module
from flotilla.store.feeds import TICK_S, Feeds, Signal, Subscription
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient
from inproc import own_gateway, own_worker
from support import assert_gapless, until

ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))


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


async def test_a_lost_store_ends_a_subscription_after_what_was_read() -> None:
    live = Subscription(2)
    live.push([])
    live.lose()
    assert await live.get() == []  # entries read before the loss still go out ...
    assert await live.get() is Signal.LOST  # ... then the stream ends
    behind = Subscription(1)
    for _ in range(3):
        behind.push([])
    behind.lose()
    assert await behind.get() is Signal.LOST  # no catch-up from a store that does not answer


async def test_no_heartbeat_while_the_store_does_not_answer(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    feeds = Feeds(store, block_ms=500)
    try:
        async with feeds.subscribe(uuid.uuid4().hex, 0) as live:
            live.beat_every(0.5)
            assert feeds.reach.task is not None
            feeds.reach.task.cancel()  # no probe from now on ...
            feeds.reach.answered_at -= 60  # ... and none answered for a minute
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(live.get(), 1.5)  # three heartbeat periods: no checkpoint
    finally:
        await feeds.close()
        await store.close()


@contextlib.asynccontextmanager
async def gateway(redis_url: str) -> AsyncIterator[Gateway]:
    """An in-process gateway and worker (no new processes: a unit-sized test)."""
    async with own_gateway(redis_url, heartbeat_s=0.5) as running, own_worker(redis_url, heartbeat_s=0.5):
        yield running


async def test_moves_of_a_game_read_cold_arrive_gapless(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that stops moving goes to a cold reader; its next move comes from there, and the game
    goes back to a hot reader; every event arrives once, in order. (Where the readers put the game
    is recorded as they do: a look at `is_cold` after the move raced the next cooling, 0.3 s later,
    on a loaded machine.)"""
    monkeypatch.setattr(feeds_module, "COOL_S", 0.3)
    async with gateway(redis_url) as running:
        placed: list[tuple[str, bool]] = []  # (game id, cold) of each hand-over between readers
        place = running.feeds._place

        async def recorded(feed: Any, cold: bool) -> None:
            placed.append((feed.game_id, cold))
            await place(feed, cold)

        monkeypatch.setattr(running.feeds, "_place", recorded)  # before any reader is made
        target = f"127.0.0.1:{running.port}"
        host, other = FlotillaClient(target), FlotillaClient(target)
        await host.sign_in("host")
        await other.sign_in("other")
        game = (await host.create_game("counter", 2)).name
        seats = [await host.join(game), await other.join(game)]
        game_id = game.removeprefix("games/")
        seen: list[int] = []

        async def spectate() -> None:
            async for update in host.watch(game):
                seen.extend(event.event_id for event in update.events)
                if update.HasField("view"):
                    seen.append(-update.view.through_event_id)  # a full view: the ids up to here are covered

        spectator = asyncio.create_task(spectate())
        try:
            for _ in range(3):
                await until(lambda: asyncio.sleep(0, running.feeds.is_cold(game_id) is True), 10, "a cold reader")
                since = len(placed)
                views = [await (host if s.seat == 0 else other).view(game, s) for s in seats]
                mover = next(s for s, view in zip(seats, views, strict=True) if view.prompt.legal_actions)
                client = host if mover.seat == 0 else other
                last = (await client.submit(game, mover, ADD, etag=views[mover.seat].prompt.etag)).through_event_id
                await until(lambda: asyncio.sleep(0, bool(seen) and seen[-1] >= last), 10, "the move")  # noqa: B023
                # The move, read cold, brought the game back to a hot reader (and nothing else moved it).
                assert placed[since:][:1] == [(game_id, False)], placed[since:]
            assert_gapless(seen, last)
            assert running.feeds.watched_games == 1
        finally:
            spectator.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await spectator
            await host.close()
            await other.close()
