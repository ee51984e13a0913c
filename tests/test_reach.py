"""The gateway's Redis probe (store/reach.py) stops when it is closed, whenever the close comes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from flotilla.store.reach import StoreReach
from flotilla.store.redis_store import RedisStore

pytestmark = [pytest.mark.redis, pytest.mark.timeout(30)]


class AnswersAsItIsCancelled:
    """A Redis client whose PING is answered in the same turn of the loop as the probe's task is
    cancelled: the race in which Python 3.11's `asyncio.wait_for` returned the answer and dropped
    the cancel, so `StoreReach.close()` waited for ever (a gateway's stop hung in the tests)."""

    def __init__(self, client: Any, reach: StoreReach) -> None:
        self.client = client
        self.reach = reach

    async def ping(self, **_: Any) -> Any:
        answer = await self.client.ping()
        assert self.reach.task is not None
        self.reach.task.cancel()
        return answer

    async def aclose(self, **kwargs: Any) -> None:
        await self.client.aclose(**kwargs)


async def test_a_probe_cancelled_as_its_ping_is_answered_stops(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    try:
        reach = StoreReach(store)
        reach._client = AnswersAsItIsCancelled(store.dedicated_client(), reach)
        reach.start()
        assert reach.task is not None
        done, _ = await asyncio.wait({reach.task}, timeout=5)
        assert done, "the probe went on after its task was cancelled"
        assert reach.task.cancelled()
        await reach.close()
    finally:
        await store.close()
