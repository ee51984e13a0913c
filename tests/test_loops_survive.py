"""Long-lived loops outside the worker wait out a transient Redis error (a Redis Cluster's
CLUSTERDOWN included: it used to end the matchmaker) and log-and-survive a bug (store/transient.py
`survive`, `log_survived`): the matchmaker's former, bot runner, ratings consumer and room sweeper,
rooms' presence refresher and the key cache's refresher.

Each loop gets a stand-in for its store whose first call fails with a transient error, the next
with a bug, and the ones after succeed: the loop must reach a success, still running, having logged
a warning for the first and an error with an incident id for the second.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

from flotilla.errors import StoreUnreachable
from flotilla.identity.keycache import KeyCache, KeySet
from flotilla.lobby.presence import Presence
from flotilla.matchmaker.forming import Former
from flotilla.matchmaker.workers import BotRunner, RatingsConsumer, RoomSweeper
from flotilla.store.transient import log_survived

pytestmark = pytest.mark.timeout(60)


class Flaky:
    """Fails its first call with CLUSTERDOWN (as a store's method raises it: `StoreUnreachable`), its
    second with a bug; `ok` is set on a later one."""

    def __init__(self) -> None:
        self.failures: list[Exception] = [StoreUnreachable("CLUSTERDOWN The cluster is down"), KeyError("a bug")]
        self.ok = asyncio.Event()

    async def step(self, *_: object, **__: object) -> Any:
        await asyncio.sleep(0)
        if self.failures:
            raise self.failures.pop(0)
        self.ok.set()
        return []


class Store(Flaky):
    """A lobby store whose every call is one `step`."""

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        return self.step


@contextlib.contextmanager
def logs() -> Iterator[list[dict[str, Any]]]:
    with capture_logs() as lines:
        yield lines


async def survived(flaky: Flaky, run: Awaitable[None], lines: list[dict[str, Any]], where: str) -> None:
    """`run` reaches a success past both failures and is still running; each was logged its way."""
    task = asyncio.ensure_future(run)
    try:
        await asyncio.wait_for(flaky.ok.wait(), 20)
        assert not task.done()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    warned = [line for line in lines if line["log_level"] == "warning"]
    failed = [line for line in lines if line["log_level"] == "error"]
    assert [line["event"] for line in warned] == [f"{where}.redis_unavailable"]
    assert "CLUSTERDOWN" in warned[0]["error"]
    assert [line["event"] for line in failed] == [f"{where}.loop_failed"]
    assert isinstance(failed[0]["exc_info"], KeyError)
    assert len(failed[0]["incident"]) == 12


async def test_the_matchmakers_former_survives() -> None:
    store, stop = Store(), asyncio.Event()
    former = Former(store, None, None)  # type: ignore[arg-type]  # no queue: no games, no policy
    with logs() as lines:
        await survived(store, former.run(stop, interval_s=0.01), lines, "matchmaker")


async def test_the_bot_runner_survives() -> None:
    store, stop = Store(), asyncio.Event()
    runner = BotRunner(store, None, ["127.0.0.1:1"], block_ms=10)  # type: ignore[arg-type]  # no bot is played
    with logs() as lines:
        await survived(store, runner.run(stop), lines, "bots")


async def test_the_ratings_consumer_survives() -> None:
    store, stop = Store(), asyncio.Event()
    consumer = RatingsConsumer(store, None, block_ms=10)  # type: ignore[arg-type]  # no game is rated
    with logs() as lines:
        await survived(store, consumer.run(stop), lines, "ratings")


async def test_the_room_sweeper_survives() -> None:
    rooms, stop = Store(), asyncio.Event()
    sweeper = RoomSweeper(rooms, 1.0, interval_s=0.01)  # type: ignore[arg-type]
    with logs() as lines:
        await survived(rooms, sweeper.run(stop), lines, "rooms")


async def test_rooms_presence_refresher_survives() -> None:
    store = Store()
    presence = Presence(store, 0.01)  # type: ignore[arg-type]
    presence.watching["room-1", "user-1"] += 1
    with logs() as lines:
        await survived(store, presence._refresh(), lines, "presence")


async def test_the_key_caches_refresher_survives() -> None:
    source = Flaky()

    async def load() -> KeySet[str]:
        await source.step()
        return KeySet({"a": "key-a"}, current="a")

    cache = KeyCache(load, name="test", refresh_s=0.01, min_reload_s=0)
    with logs() as lines:
        await cache.start(required=False)  # the first load meets the transient error
        try:
            await asyncio.wait_for(source.ok.wait(), 20)
            assert cache._refresher is not None
            assert not cache._refresher.done()
            assert await cache.get("a") == "key-a"
        finally:
            await cache.close()
    assert [(line["log_level"], line["event"]) for line in lines] == [
        ("warning", "keys.load_failed"),
        ("error", "keys.load_failed"),
    ]
    assert len(lines[1]["incident"]) == 12


def test_log_survived_names_its_events() -> None:
    log = structlog.get_logger("test")
    with logs() as lines:
        log_survived(log, "x", ConnectionResetError(), unavailable="gone", failed="broke", extra="1")
        log_survived(log, "x", ValueError("a bug"))
    assert [(line["event"], line.get("extra")) for line in lines] == [("x.gone", "1"), ("x.loop_failed", None)]
