"""A Play submit (`follows`) is answered by its committed entry on the mover's gateway, so the
commit script writes no inbox reply for it. The same request sent again after it was applied (its
gateway queues it again when Redis came back, unsure the first entry survived) makes no new entry:
the script must answer the inbox with the first outcome, or the mover waits for its deadline
(the chaos suite's "a client waited 10 s" after a Redis restart)."""

from __future__ import annotations

import time

import orjson
import pytest

from flotilla.app.host import host_for
from flotilla.app.lineage import new_lineage
from flotilla.app.outcome import Outcome
from flotilla.games.counter import Add
from flotilla.records import dump_rows
from flotilla.rules import Seat
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from worker.counter_work import new_counter_game

pytestmark = pytest.mark.redis


async def test_a_followed_request_applied_before_is_answered_on_the_inbox(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    assert store.settles_work  # one Redis, no replica waits: the script answers
    game_id = "followed-" + str(time.time_ns())
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    start = await new_counter_game(store, game_id)
    host = host_for("counter")
    meta = await store.game_meta(game_id)
    assert meta is not None
    step = host.step(start.state, Seat(0), Add(3), meta.version, int(time.time() * 1000))
    outcome = Outcome.accepted(step.version, step.events, new_lineage())

    def commit() -> tuple[list[str], list[object]]:  # the same request, planned on the same state
        return store.commit_args(
            game_id,
            0,
            "r1",
            expected=meta.version,
            version=step.version,
            state=host.dumps(step.state),
            events=dump_rows(step.events),
            prompts=orjson.dumps(step.prompts),
            to_act=orjson.dumps(step.to_act),
            status="",
            result=b"",
            record=orjson.dumps([0, host.codec.to_plain(Add(3)), step.version, ""]),
            outcome=outcome.dumps(),
            expected_lineage=meta.head,
            lineage=outcome.lineage,
            answer_to=inbox,
            answer_commit=False,
        )

    first = await store.commit_many([commit()])
    assert [c.code for c in first] == [1]
    assert not [f for _id, f in await store.redis.xrange(inbox) if b"o" in f]  # the entry answers it
    again = await store.commit_many([commit()])
    assert [c.code for c in again] == [0]
    replies = [Outcome.loads(f[b"o"]) for _id, f in await store.redis.xrange(inbox) if b"o" in f]
    assert [(o.ok, o.version) for o in replies] == [(True, step.version)]  # the first outcome, once
    await store.close()
