"""The worker's loops survive a bug, and reclaimed entries are screened by their delivery count
(worker/loop.py), against a real Redis. The rules bugs themselves, through the public API:
tests/worker/test_rules_bugs.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flotilla import metrics
from flotilla.app.outcome import Outcome
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.deadletter import DELIVERIES, DeadLetters
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import ISOLATE_FROM, Message, Worker, work_streams
from flotilla.worker.plan import Work
from support import until
from worker.counter_work import new_counter_game, work

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis of this module's own: no other test's timers or dead consumers reach these workers."""
    server = RedisServer(Path(tmp_path_factory.mktemp("loop-failures")), aof=False).start()
    yield server.url
    server.stop()


def failures(loop: str) -> float:
    return metrics.HELPER_FAILURES.labels(loop)._value.get()


class BuggyWorker(Worker):
    """Its first batch, timer pass and sweep raise a bug; then it works."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls = {"work": 0, "timers": 0, "sweep": 0}

    def _bug(self, loop: str) -> None:
        self.calls[loop] += 1
        if self.calls[loop] == 1:
            msg = f"a planted bug in the {loop} loop"
            raise RuntimeError(msg)

    async def handle(self, batch: list[Work], *, read_ahead: bool = False) -> None:
        self._bug("work")
        await super().handle(batch, read_ahead=read_ahead)

    async def timer_pass(self) -> bool:
        self._bug("timers")
        return await super().timer_pass()

    async def reclaim_dead(self, *, full: bool | None = None) -> int:
        self._bug("sweep")
        return await super().reclaim_dead(full=full)


class BuggyLeases(RedisStore):
    """A store whose first janitor lease raises a bug (the janitor loop's first step)."""

    leases = 0

    async def take_lease(self, key: str, owner: str, ms: int) -> bool:
        self.leases += 1
        if self.leases == 1:
            msg = "a planted bug in the janitor"
            raise RuntimeError(msg)
        return await super().take_lease(key, owner, ms)


async def test_every_loop_of_a_worker_logs_a_bug_and_goes_on(own_redis: str) -> None:
    store = BuggyLeases.from_url(own_redis)
    game_id = "buggy-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    await store.enqueue(stream, work(game_id, 0, 7, "after-a-bug", inbox))
    before = {loop: failures(loop) for loop in ("work", "timers", "sweep", "janitor")}
    worker = BuggyWorker(
        store, shards=1, kinds=["counter"], consumer=game_id, block_ms=100, janitor_interval_s=0.05, sweep_ms=20
    )
    task = asyncio.create_task(worker.run())

    async def all_went_on() -> bool:
        assert not task.done(), "the worker stopped"
        applied = await store.game_meta(game_id)
        return applied is not None and applied.version == 2 and min(worker.calls.values()) >= 2 and store.leases >= 2

    try:
        await until(all_went_on, 30, "every loop to run again after its bug", every_s=0.02)
    finally:
        worker.stop()
        await asyncio.wait_for(task, 10)
    # The batch that raised was read again and applied, once; each bug logged (and counted) once.
    [(_id, fields)] = await store.read_inbox(inbox, "0-0", 10)
    assert Outcome.loads(fields[b"o"]).version == 2
    assert {loop: failures(loop) - before[loop] for loop in before} == dict.fromkeys(before, 1)
    await store.close()


class Recorder(Worker):
    """Records the batches it is given instead of applying them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.batches: list[list[str]] = []

    async def handle(self, batch: list[Work], *, read_ahead: bool = False) -> None:
        self.batches.append([w.request_id for w in batch])


async def test_reclaimed_entries_go_alone_from_the_third_delivery_and_aside_past_the_most(own_redis: str) -> None:
    store = RedisStore.from_url(own_redis)
    tag = str(time.time_ns())
    stream = f"flotilla:work:{{test-deliveries-{tag}}}"
    inbox = keys.inbox("test-" + tag)
    await store.keep_inbox(inbox, 60_000)
    await store.ensure_group(stream)
    deliveries = {"twice": 2, "thrice": ISOLATE_FROM, "also-thrice": ISOLATE_FROM, "too-often": 6}
    for request_id in deliveries:
        await store.redis.xadd(stream, work(f"g-{tag}", 0, 1, request_id, inbox))
    first = await store.read_work([stream], "first", 10, 100)  # delivered once
    request_of = {msg_id: fields[b"r"].decode() for _s, msg_id, fields in first}
    claimed: dict[bytes, Message] = {}
    for delivery in range(2, 7):  # each XCLAIM is one more delivery
        due = [msg_id for msg_id, request_id in request_of.items() if deliveries[request_id] >= delivery]
        for msg_id, fields in await store.redis.xclaim(stream, keys.WORKER_GROUP, "sweeper", 0, due):
            claimed[msg_id] = (stream, msg_id, fields)
    reclaimed = sorted(claimed.values(), key=lambda m: m[1])
    worker = Recorder(store, shards=1, kinds=["counter"], consumer="sweeper", max_deliveries=5)
    await worker.handle_messages([], reclaimed)
    assert worker.batches == [["twice"], ["thrice"], ["also-thrice"]]
    letters = [letter for letter in await DeadLetters(store.redis).page(1000) if letter.stream == stream]
    assert [(letter.fields[b"r"], letter.why, letter.deliveries) for letter in letters] == [
        (b"too-often", DELIVERIES, 6)
    ]
    [(_id, fields)] = await store.read_inbox(inbox, "0-0", 10)  # its client is told, not blamed
    assert Outcome.loads(fields[b"o"]).reason == "ENGINE_FAILURE"
    assert len(await store.redis.xpending_range(stream, keys.WORKER_GROUP, "-", "+", 10)) == 3  # acknowledged
    await store.redis.delete(stream)
    await store.close()
