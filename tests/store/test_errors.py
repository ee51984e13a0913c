"""The store's own errors: a Redis that is gone is `StoreUnreachable` from every public method,
within a bounded time, never a redis-py error (store/transient.py)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from flotilla.errors import StoreUnreachable
from flotilla.records import WorkItem
from flotilla.redis_server import RedisCluster, RedisServer, free_port
from flotilla.store import keys
from flotilla.store.limits_store import Bucket
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, new_game, step

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

UNREACHABLE_WITHIN_S = 10.0
"""How long a call to a stopped Redis may take to fail (a cluster client first tries every node
it knows, then relearns the topology: about two seconds here)."""


class Stoppable:
    """A backend of this test's own, to stop under a store."""

    def __init__(self, backend: str, where: Path) -> None:
        self.server: RedisServer | RedisCluster = (
            RedisServer(where, aof=False) if backend == "redis" else RedisCluster(where, primaries=3, replicas=0)
        )

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(params=["redis", "cluster"])
def stoppable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stoppable]:
    backend = Stoppable(request.param, tmp_path)
    backend.server.start()
    yield backend
    backend.server.stop()


def calls(store: RedisStore, uid: str) -> dict[str, Callable[[], Awaitable[Any]]]:
    """One call of each kind a caller makes: a read, a script, a pipeline, the auto-pipelined queue,
    a blocking read, a rate limit."""
    return {
        "game_meta": lambda: store.game_meta(uid),
        "create_game": lambda: new_game(store, uid),
        "commit_many": lambda: store.commit_many([step(store, uid, at=FIRST, request_id="r1")]),
        "metas": lambda: store.metas([uid, uid + "x"]),
        "enqueue": lambda: store.enqueue(keys.work("k", "1", 0), WorkItem(uid, 0, "r1").fields()),
        "read_inbox": lambda: store.read_inbox(keys.inbox(uid), "0-0", 100),
        "limits": lambda: store.limits.take([Bucket(keys.limit_bucket("test", uid), 1000.0, 5)]),
    }


async def all_fail_unreachable(store: RedisStore, uid: str) -> None:
    """Every call of `calls` at once: each raises StoreUnreachable within UNREACHABLE_WITHIN_S."""
    chosen = calls(store, uid)

    async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[BaseException | None, float]:
        began = time.monotonic()
        try:
            await asyncio.wait_for(call(), UNREACHABLE_WITHIN_S * 2)
        except Exception as exc:
            return exc, time.monotonic() - began
        return None, time.monotonic() - began

    results = dict(zip(chosen, await asyncio.gather(*(timed(c) for c in chosen.values())), strict=True))
    wrong = {name: repr(exc) for name, (exc, _s) in results.items() if not isinstance(exc, StoreUnreachable)}
    assert not wrong, wrong
    slow = {name: took for name, (_exc, took) in results.items() if took > UNREACHABLE_WITHIN_S}
    assert not slow, slow


async def test_every_call_to_a_stopped_redis_raises_store_unreachable_soon(stoppable: Stoppable) -> None:
    uid = uuid.uuid4().hex[:12]  # not the suite's `uid`: this backend is the test's own
    store = RedisStore.from_url(stoppable.url)
    try:
        await new_game(store, uid)  # connected, slots learnt
        stoppable.server.stop()
        await all_fail_unreachable(store, uid)
    finally:
        await store.close()


@pytest.mark.parametrize("query", ["", "?cluster=true"])
async def test_a_store_that_never_connected_raises_store_unreachable(query: str) -> None:
    uid = uuid.uuid4().hex[:12]
    store = RedisStore.from_url(f"redis://127.0.0.1:{free_port()}{query}")  # nobody listens there
    try:
        await all_fail_unreachable(store, uid)
    finally:
        await store.close()
