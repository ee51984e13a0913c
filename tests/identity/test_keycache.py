"""KeyCache: reload on an unknown kid, paced and single-flight, with a negative cache."""

from __future__ import annotations

import asyncio

from flotilla.identity.keycache import KeyCache, KeySet


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
