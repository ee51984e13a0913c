"""The worker against a real Redis: reclaiming a dead worker's messages, applying at most once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from flotilla.app.outcome import Outcome
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker, work_streams
from worker.counter_work import new_counter_game, work

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis of this module's own: its workers count what they apply, and a worker also fires
    the due turn timers of every game in its Redis (what other modules' games left would count)."""
    server = RedisServer(Path(tmp_path_factory.mktemp("loop")), aof=False).start()
    yield server.url
    server.stop()


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    """A store on the module's Redis, closed after the test (no socket left for the collector)."""
    opened = RedisStore.from_url(redis_url)
    yield opened
    await opened.close()


async def run_until(worker: Worker, store: RedisStore, inbox: str, outcomes: int) -> None:
    """Run the worker until `inbox` holds `outcomes` outcomes (not for a fixed time: a loaded
    machine may need longer), then stop it. Entries without an outcome (the inbox's opening
    entry) do not count."""
    task = asyncio.create_task(worker.run())
    after, seen = b"0-0", 0
    try:
        async with asyncio.timeout(30):
            while seen < outcomes:
                for _stream, entries in await store.redis.xread({inbox: after}, count=100, block=1000) or []:
                    seen += sum(1 for _id, fields in entries if b"o" in fields)
                    after = entries[-1][0]
    finally:
        worker.stop()
        await asyncio.wait_for(task, 10)


async def test_a_message_left_pending_by_a_dead_worker_is_reclaimed_and_applied_once(store: RedisStore) -> None:
    game_id = "reclaim-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)  # workers reply only to an inbox that exists
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    await store.enqueue(stream, work(game_id, 0, 7, "r1", inbox))
    # A worker reads the message and dies before applying or acknowledging it.
    taken = await store.read_work([stream], "dead-worker", 10, 100)
    assert [w[2][b"r"] for w in taken] == [b"r1"]
    # The same request is also re-sent by an impatient client.
    await store.enqueue(stream, work(game_id, 0, 7, "r1", inbox))
    alive = Worker(store, shards=1, kinds=["counter"], consumer="alive", claim_idle_ms=300, block_ms=100)
    await run_until(alive, store, inbox, 2)  # the reclaimed message's outcome and the re-sent one's
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == 2  # applied once
    outcomes = [Outcome.loads(fields[b"o"]) for _id, fields in await store.read_inbox(inbox, "0-0", 10)]
    assert len(outcomes) == 2
    assert all(o.ok and o.version == 2 for o in outcomes)
    pending = await store.redis.xpending(stream, keys.WORKER_GROUP)
    assert pending["pending"] == 0
    await store.close()


async def test_what_a_worker_was_given_in_a_lost_reply_is_read_again_not_left_for_the_claim(store: RedisStore) -> None:
    """A read whose reply was lost with its connection leaves the entries pending for the
    reader. The worker reads its own pending entries first (at start, and after every broken
    read or batch), so they are applied now, not when XAUTOCLAIM finds them idle (here a
    minute: the test's own timeout would end first)."""
    game_id = "own-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    await store.enqueue(stream, work(game_id, 0, 7, "lost-reply", inbox))
    consumer = "own-" + game_id
    assert [w[2][b"r"] for w in await store.read_work([stream], consumer, 10, 100)] == [b"lost-reply"]
    worker = Worker(store, shards=1, kinds=["counter"], consumer=consumer, claim_idle_ms=60_000, block_ms=100)
    await run_until(worker, store, inbox, 1)
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == 2  # applied (once)
    assert worker.reclaimed == 1
    assert (await store.redis.xpending(stream, keys.WORKER_GROUP))["pending"] == 0
    await store.close()


async def test_a_rejected_request_id_answers_the_same_when_resent(store: RedisStore) -> None:
    game_id = "reject-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)  # workers reply only to an inbox that exists
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    await store.enqueue(stream, work(game_id, 1, 1, "out-of-turn", inbox))
    worker = Worker(store, shards=1, kinds=["counter"], consumer="w", block_ms=100)
    await run_until(worker, store, inbox, 1)
    await store.enqueue(stream, work(game_id, 0, 1, "ok", inbox))
    await store.enqueue(stream, work(game_id, 1, 1, "out-of-turn", inbox))  # now it would be legal
    await run_until(worker, store, inbox, 3)
    outcomes = {
        fields[b"r"].decode() + str(i): Outcome.loads(fields[b"o"])
        for i, (_id, fields) in enumerate(await store.read_inbox(inbox, "0-0", 10))
    }
    assert [o.reason for k, o in sorted(outcomes.items()) if k.startswith("out-of-turn")] == [
        "NOT_YOUR_TURN",
        "NOT_YOUR_TURN",
    ]
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == 2
    await store.close()


async def test_a_game_is_kept_for_the_retention_period_once_it_ends(store: RedisStore) -> None:
    game_id = "retained-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)  # workers reply only to an inbox that exists
    await new_counter_game(store, game_id, {"moves": "2"})
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    worker = Worker(store, shards=1, kinds=["counter"], consumer="w", block_ms=100, finished_ttl_s=3600)
    await store.enqueue(stream, work(game_id, 0, 1, "m1", inbox))
    await run_until(worker, store, inbox, 1)
    assert await store.redis.ttl(keys.game(game_id)) == -1  # still running: kept
    await store.enqueue(stream, work(game_id, 1, 1, "m2", inbox))
    await run_until(worker, store, inbox, 2)
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.status == "finished"
    for key in (keys.game(game_id), keys.game_events(game_id), keys.game_actions(game_id)):
        assert 3500 < await store.redis.ttl(key) <= 3600
    await store.close()


async def test_a_resent_request_is_answered_from_its_first_outcome_on_a_warm_cache(store: RedisStore) -> None:
    """The worker plans on its cached state without reading the game (one worker: the cache is
    fresh); a re-sent request that the cache says is out of turn now was applied already, and
    is answered with that first outcome, not refused."""
    game_id = "warm-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.redis.delete(stream)  # it counts applies: no entry another test left on the shared stream
    await store.ensure_group(stream)
    worker = Worker(store, shards=1, kinds=["counter"], consumer="warm", block_ms=100)
    task = asyncio.create_task(worker.run())
    try:
        outcomes: list[Outcome] = []
        after = b"0-0"
        for n, request_id in enumerate(["r1", "r2", "r1"]):
            await store.enqueue(stream, work(game_id, 0 if request_id == "r1" else 1, 1, request_id, inbox))
            async with asyncio.timeout(30):
                while len(outcomes) <= n:
                    for _stream, entries in await store.redis.xread({inbox: after}, count=10, block=1000) or []:
                        after = entries[-1][0]
                        outcomes += [Outcome.loads(f[b"o"]) for _id, f in entries if b"o" in f]
        assert [(o.ok, o.version) for o in outcomes] == [(True, 2), (True, 3), (True, 2)]
        assert worker.applied == 2
        assert worker.rejected == 0
    finally:
        worker.stop()
        await asyncio.wait_for(task, 10)
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == 3
    await store.close()


async def test_a_worker_stopped_before_it_runs_returns_at_once(store: RedisStore) -> None:
    """A SIGTERM (or a test's stop) that lands before the worker's task first runs is not lost."""
    worker = Worker(store, shards=1, kinds=["counter"], consumer="early-stop-" + str(time.time_ns()), block_ms=100)
    task = asyncio.create_task(worker.run())
    worker.stop()  # before the task has run a step
    try:
        await asyncio.wait_for(task, 10)
    finally:
        task.cancel()
        await store.close()
