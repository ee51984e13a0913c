"""The app layer in process: `Games`, `Access` and a Play session over a real redis-server of this
module's own (listings see only its games), with an in-process worker applying the moves."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.app_support import App
from flotilla.app.authorize import Access
from flotilla.app.games import Games
from flotilla.app.inbox import Inbox
from flotilla.app.limits import Limiter, parse_limits
from flotilla.redis_server import RedisServer
from flotilla.store.auth_store import AuthStore
from flotilla.store.feeds import Feeds
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(Path(tmp_path_factory.mktemp("redis")), aof=False).start()
    yield server
    server.stop()


@pytest.fixture
async def app(own_redis: RedisServer) -> AsyncIterator[App]:
    store = RedisStore.from_url(own_redis.url)
    inbox = Inbox(store, ttl_s=60)
    await inbox.start()
    feeds = Feeds(store, block_ms=200)
    games = Games(store, inbox, feeds, shards=1, submit_timeout_s=20, heartbeat_s=1)
    limiter = Limiter(store.limits, parse_limits(""), held_ttl_s=3600)
    auth = AuthStore.of(store)
    worker = Worker(RedisStore.from_url(own_redis.url), shards=1, kinds=["counter"], consumer=uuid.uuid4().hex[:8])
    running = asyncio.create_task(worker.run())
    try:
        yield App(store, games, Access(games, auth, limiter), auth, limiter)
    finally:
        worker.stop()
        await asyncio.wait_for(running, 10)
        await worker.store.close()
        await feeds.close()
        await inbox.stop()
        await store.close()
