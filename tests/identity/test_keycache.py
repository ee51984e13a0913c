"""KeyCache: reload on an unknown kid, paced and single-flight, with a negative cache."""

from __future__ import annotations

import asyncio

from flotilla.aside import PLACE
from flotilla.clock import ManualClock
from flotilla.identity.keycache import KeyCache, KeySet
from support import until


class Source:
    """A key source that counts its loads and can be changed or broken."""

    def __init__(self) -> None:
        self.keys: dict[str, str] = {"a": "key-a"}
        self.loads = 0
        self.broken = False

    async def load(self) -> KeySet[str]:
        self.loads += 1
        await asyncio.sleep(0)
        if self.broken:
            msg = "source down"
            raise OSError(msg)
        return KeySet(dict(self.keys), current="a")


async def started(source: Source, **pacing: float) -> KeyCache[str]:
    cache = KeyCache(source.load, name="test", refresh_s=0, **pacing)
    await cache.start()
    return cache


async def test_known_kids_cost_no_load_and_a_new_kid_one() -> None:
    source = Source()
    cache = await started(source, min_reload_s=0)
    assert await cache.get("a") == "key-a"
    assert source.loads == 1
    source.keys["b"] = "key-b"  # rotated at the source
    assert await cache.get("b") == "key-b"
    assert source.loads == 2
    assert await cache.get("b") == "key-b"
    assert source.loads == 2


async def test_an_unknown_kid_is_remembered_and_forged_kids_share_paced_loads() -> None:
    source = Source()
    cache = await started(source, min_reload_s=0.2, negative_ttl_s=60)
    assert await cache.get("forged-1") is None
    loads = source.loads
    assert await cache.get("forged-1") is None  # remembered: no load
    assert source.loads == loads
    found = await asyncio.gather(*(cache.get(f"forged-{i}") for i in range(2, 50)))
    assert found == [None] * 48
    assert source.loads - loads == 1  # one load in flight served them all
    assert await cache.get("not a kid!") is None  # malformed: refused before any load
    assert source.loads - loads == 1


async def test_an_unknown_kid_is_looked_up_again_once_its_negative_entry_lapses() -> None:
    """On a manual clock (flotilla/clock.py): the negative cache's 60 s pass at once."""
    source, clock = Source(), ManualClock()
    cache = KeyCache(source.load, name="test", refresh_s=0, min_reload_s=0, negative_ttl_s=60, clock=clock)
    await cache.start()
    assert await cache.get("later") is None
    loads = source.loads
    clock.advance(59.9)
    assert await cache.get("later") is None  # still remembered: no load
    assert source.loads == loads
    source.keys["later"] = "key-later"  # rotated in at the source meanwhile
    clock.advance(0.2)
    assert await cache.get("later") == "key-later"  # lapsed: loaded again
    assert source.loads == loads + 1


async def test_a_failed_load_keeps_the_keys_and_proves_nothing_about_the_kid() -> None:
    source = Source()
    cache = await started(source, min_reload_s=0)
    source.broken = True
    source.keys["b"] = "key-b"
    assert await cache.get("b") is None
    assert await cache.get("a") == "key-a"  # the keys it had still verify
    source.broken = False
    assert await cache.get("b") == "key-b"  # not negatively cached after the failure


async def test_an_optional_source_down_at_start_is_tried_again_later() -> None:
    source = Source()
    source.broken = True
    cache = KeyCache(source.load, name="test", refresh_s=0, min_reload_s=0)
    await cache.start(required=False)
    assert await cache.get("a") is None
    source.broken = False
    assert await cache.get("a") == "key-a"


class Place:
    """An admission place as flotilla.aside sees it, recording whether it is held."""

    def __init__(self) -> None:
        self.held = True

    def release(self) -> bool:
        was, self.held = self.held, False
        return was

    def retake(self) -> None:
        self.held = True


async def test_a_caller_waiting_for_a_reload_gives_its_place_back_meanwhile() -> None:
    source = Source()
    cache = await started(source, min_reload_s=0.2)
    place = Place()

    async def call() -> str | None:
        PLACE.set(place)  # what admission control does for each call (its own task, its own context)
        return await cache.get("forged")

    waiting = asyncio.create_task(call())
    await until(lambda: _is(cache.waiting == 1), 5, "the caller to wait for the paced reload")
    assert place.held is False  # free for other callers while it waits
    assert await waiting is None
    assert place.held is True  # taken back: the call goes on (and is refused by its caller)


async def test_no_more_than_max_waiting_callers_wait_the_others_are_refused_at_once() -> None:
    source = Source()
    cache = await started(source, min_reload_s=0.5, max_waiting=10)
    loop = asyncio.get_running_loop()
    waiters = [asyncio.create_task(cache.get(f"forged-{i}")) for i in range(10)]
    await until(lambda: _is(cache.waiting == 10), 5, "ten callers waiting")
    began = loop.time()
    assert await cache.get("one-more") is None  # refused without waiting for the load
    assert loop.time() - began < 0.2
    assert "one-more" not in cache._unknown  # no load proved it unknown: not remembered
    source.keys["b"] = "key-b"
    assert await asyncio.gather(*waiters) == [None] * 10
    assert cache.waiting == 0
    assert await cache.get("b") == "key-b"  # a real new kid is still accepted once the flood is over


async def _is(value: bool) -> bool:
    return value
