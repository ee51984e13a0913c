"""A turn clock fired twice for the same decision (a lease that ran out while the first worker
was still at it) is applied once: the worker's clock request ids are scoped to (game, seat)."""

from __future__ import annotations

import time
import uuid

import orjson
import pytest

from flotilla.app import clocks
from flotilla.app.host import host_for
from flotilla.records import CLOCK, dump_rows
from flotilla.rules import Seat
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker
from flotilla.worker.plan import SERVER_REQUEST, Work

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


async def test_a_clock_fired_twice_for_one_decision_is_applied_once(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    game_id = "clock-dedupe-" + uuid.uuid4().hex
    host = host_for("counter")
    now = int(time.time() * 1000)
    config = clocks.ClockConfig()  # untimed: an absent seat is played at once
    step = host.start(host.config(2, {}), 7, {}, now)
    left = clocks.leave(config, clocks.initial(config, 2), 0, now)  # seat 0, to act first, has left
    absent = clocks.schedule(config, left, step.to_act, None, now, running=True)
    await store.create_game(
        game_id,
        kind="counter",
        rules_version=host.rules.version,
        seat_count=2,
        options={},
        created_ms=now,
        version=step.version,
        state=host.dumps(step.state),
        events=dump_rows(step.events),
        prompts=orjson.dumps(step.prompts),
        to_act=orjson.dumps(step.to_act),
        seed_sha256="",
        clock=orjson.dumps(config.plain()),
        seatclock=orjson.dumps(clocks.dump(absent)),
    )
    worker = Worker(store, shards=1, kinds=["counter"], consumer="w")

    def fire() -> Work:  # what Worker.timer_pass makes of a due clock
        return Work(
            stream="",
            msg_id=f"clock:{game_id}:{step.version}".encode(),
            game_id=game_id,
            seat=Seat(0),
            action=b"",
            request_id=f"{SERVER_REQUEST}clock:{step.version}",
            etag="",
            inbox="",
            kind=CLOCK,
        )

    await worker.handle([fire()])
    await worker.handle([fire()])  # a second worker with the same claim
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == step.version + 1  # the default action for seat 0, once
    assert [row.seat for row in await store.actions_log(game_id)] == [0]
    assert await store.redis.exists(keys.game_reply(game_id, 0, f"{SERVER_REQUEST}clock:{step.version}"))
    await store.close()
