"""The feeds' shared reader (store/feeds.py) over a real Redis, in process: its multiplexed XREAD goes
packed on the reader's own held connection and its raw reply is parsed by the store
(`History.wait_entries_many`), not by redis-py's `xread`; a game that joins a blocked read wakes
it (CLIENT UNBLOCK of the held connection's id)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
import redis.asyncio

from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.feeds import Feeds
from flotilla.store.redis_store import RedisStore

pytestmark = pytest.mark.timeout(30)


async def commit(store: RedisStore, game: str, version: int) -> None:
    row = [version, 0, "r", {"Add": [version]}]
    fields = {"v": version, "e": orjson.dumps([row]), "p": b"{}", "a": b"[0]", "h": f"l{version}"}
    await store.redis.xadd(keys.game_events(game), fields, id=f"0-{version}")


async def test_the_shared_reader_reads_many_games_packed_on_its_own_connection(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def generic(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the feed reader read through redis-py's xread")

    monkeypatch.setattr(redis.asyncio.Redis, "xread", generic)
    store = RedisStore.from_url(own_redis.url)
    feeds = Feeds(store, block_ms=10_000)  # the reader blocks: only CLIENT UNBLOCK brings in game b
    a, b = "fa" * 16, "fb" * 16
    try:
        async with feeds.subscribe(a, 0) as on_a:
            await asyncio.sleep(0.05)
            async with feeds.subscribe(b, 0) as on_b:
                assert feeds.is_cold(a) is False  # one hot reader covers both
                assert feeds.is_cold(b) is False
                await commit(store, a, 1)
                await commit(store, b, 1)
                await commit(store, b, 2)
                got_a = await asyncio.wait_for(on_a.get(), 5)
                got_b: list[Any] = []
                while len(got_b) < 2:
                    batch = await asyncio.wait_for(on_b.get(), 5)
                    assert isinstance(batch, list)
                    got_b.extend(batch)
                assert isinstance(got_a, list)
                assert [(e.version, e.lineage, e.to_act) for e in got_a] == [(1, "l1", [0])]
                assert [(e.version, e.events[0].payload) for e in got_b] == [(1, {"Add": [1]}), (2, {"Add": [2]})]
    finally:
        await feeds.close()
        await store.close()
