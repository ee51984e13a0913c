"""The worker's pure steps (worker/plan.py), without Redis: what a round commits and what results mean."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import orjson

from flotilla.app import clocks
from flotilla.app.host import GameHost, host_for
from flotilla.app.outcome import Outcome
from flotilla.records import CLOCK, LEAVE
from flotilla.store.commit_script import Committed
from flotilla.store.commits import commit_request
from flotilla.worker.plan import (
    CAS_RETRIES,
    ENGINE_RETRY_MS,
    Clocks,
    FastPath,
    Loaded,
    MessageKey,
    Work,
    plan_round,
    reannounced,
    settle_round,
)

HOST = host_for("counter")
NO_CLOCKS = Clocks("active", clocks.ClockConfig(), None)


def _loaded(moves: int = 200) -> Loaded:
    state = HOST.rules.new_game(HOST.config(2, {"moves": str(moves)}), seed=7)
    return Loaded(HOST, 1, state, False, 2, "l1")


_call = functools.partial(commit_request, outcome_ttl_s=60, settles_work=False)  # the store's, without a store


def _add(game: str, seat: int, n: int, request_id: str, **extra: Any) -> Work:
    extra.setdefault("msg_id", request_id.encode())
    return Work(game, seat, request_id, action=orjson.dumps({"Add": [n]}), inbox="in", **extra)


def _plan(works: list[Work], cache: dict[str, Loaded], earlier: list[bytes | None] | None = None) -> Any:
    earlier = earlier if earlier is not None else [None] * len(works)
    return plan_round(
        works, cache, earlier, [NO_CLOCKS] * len(works), 1000, _call, retain_s=60, new_lineage=lambda: "l2"
    )


def test_a_legal_move_becomes_one_commit_at_the_cached_version() -> None:
    plan = _plan([_add("g", 0, 3, "r1")], {"g": _loaded()})
    assert not plan.replies
    (pending,) = plan.commits
    args = pending.call.args
    assert (args.expected_version, args.version, args.expected_lineage, args.lineage) == (1, 2, "l1", "l2")
    assert pending.after.version == 2
    assert pending.after.state.total == 3
    assert pending.outcome.ok
    assert pending.outcome.etag == "2.l2"
    assert orjson.loads(args.record) == [0, {"Add": [3]}, 2, "", "r1"]


def test_refusals_are_answered_without_a_commit() -> None:
    works = [
        _add("g", 1, 3, "wrong-seat"),
        _add("h", 0, 3, "no-game"),
        _add("k", 0, 3, "stale", etag="9.zz"),
        Work("m", 0, "garbage", action=b"{", inbox="in", msg_id=b"garbage"),
    ]
    cache = {"g": _loaded(), "k": _loaded(), "m": _loaded()}
    plan = _plan(works, cache)
    assert not plan.commits
    reasons = [(r.work.request_id, r.outcome.reason, r.cache_it) for r in plan.replies]
    assert reasons == [
        ("wrong-seat", "NOT_YOUR_TURN", True),  # a rules refusal is recorded under its request id
        ("no-game", "GAME_NOT_FOUND", False),
        ("stale", "STALE_GAME_VERSION", False),
        ("garbage", "INVALID_ACTION", False),
    ]


def test_an_applied_request_is_answered_from_its_first_outcome() -> None:
    first = Outcome.accepted(2, [], "l9").dumps()
    plan = _plan([_add("g", 0, 3, "r1")], {"g": _loaded()}, earlier=[first])
    assert not plan.commits
    assert plan.replies[0].outcome.etag == "2.l9"
    assert plan.duplicates == 1


def test_a_leave_of_an_absent_seat_changes_nothing() -> None:
    absent = clocks.dump(clocks.leave(clocks.ClockConfig(), clocks.initial(clocks.ClockConfig(), 2), 1, 0))
    plan = plan_round(
        [Work("g", 1, "bye", inbox="in", kind=LEAVE, msg_id=b"bye")],
        {"g": _loaded()},
        [None],
        [Clocks("active", clocks.ClockConfig(), orjson.dumps(absent))],
        1000,
        _call,
        retain_s=60,
    )
    assert not plan.commits
    assert plan.replies[0].outcome.ok
    assert plan.replies[0].outcome.version == 1


def test_results_answer_retry_and_update_the_cache() -> None:
    works = [_add("a", 0, 1, "ok", follows=True), _add("b", 0, 1, "dup"), _add("c", 0, 1, "moved")]
    plan = _plan(works, {g: _loaded() for g in "abc"})
    earlier = Outcome.accepted(2, [], "old").dumps()
    attempts: dict[MessageKey, int] = {}
    result = settle_round(
        plan, [Committed(1), Committed(0, outcome=earlier), Committed(-1, current_version=5)], attempts, 1000
    )
    assert [r.work.request_id for r in result.replies] == ["ok", "dup"]
    assert result.replies[1].outcome.etag == "2.old"
    assert result.answered == {("", b"ok")}  # a followed game's commit answers it on the feed
    assert result.unconfirmed == {("", b"dup")}
    assert result.retry == {("", b"moved")}
    assert set(result.remember) == {"a"}
    assert result.forget == {"b", "c"}
    assert (result.duplicates, result.conflicts) == (1, 1)
    assert result.wake["b"] == 1000  # the first attempt may have died before setting its timer


def test_a_commit_that_keeps_losing_is_refused_after_the_retries() -> None:
    attempts: dict[MessageKey, int] = {}
    for n in range(CAS_RETRIES):
        plan = _plan([_add("g", 0, 1, "r")], {"g": _loaded()})
        result = settle_round(plan, [Committed(-1, current_version=9)], attempts, 1000)
        assert (("", b"r") in result.retry) == (n < CAS_RETRIES - 1)
    assert result.replies[0].outcome.reason == "STALE_GAME_VERSION"


def test_an_unreplicated_commit_is_not_given_out_and_not_announced() -> None:
    plan = _plan([_add("g", 0, 1, "r", follows=True)], {"g": _loaded()})
    result = settle_round(plan, [Committed(1, durable=False)], {}, 1000)
    assert result.replies[0].outcome.reason == "STORE_UNAVAILABLE"
    assert not result.answered


def test_a_finishing_move_is_announced_and_reannounced_when_answered_from_its_record() -> None:
    loaded = _loaded(moves=1)
    plan = _plan([_add("g", 0, 1, "last")], {"g": loaded})
    result = settle_round(plan, [Committed(1)], {}, 1000)
    assert result.finished == ["g"]
    again = _plan([_add("g", 0, 1, "last")], {"g": loaded}, earlier=[plan.commits[0].outcome.dumps()])
    settled = settle_round(again, [], {}, 1000)
    assert reannounced(settled.replies, settled.unconfirmed) == ["g"]


def test_a_due_clock_plays_the_default_action() -> None:
    config = clocks.ClockConfig(turn_ms=1000)
    running = clocks.schedule(config, clocks.initial(config, 2), [0], None, 0, running=True)
    plan = plan_round(
        [Work("g", 0, "@clock:1", kind=CLOCK, msg_id=b"clock")],
        {"g": _loaded()},
        [None],
        [Clocks("active", config, orjson.dumps(clocks.dump(running)))],
        5000,
        _call,
        retain_s=60,
    )
    (pending,) = plan.commits
    assert orjson.loads(pending.call.args.record)[3] == CLOCK
    assert pending.outcome.events[0][2] == "t"  # SeatTimedOut first


def test_where_the_script_settles_the_work_the_worker_neither_answers_nor_acknowledges() -> None:
    works = [_add("a", 0, 1, "ok", stream="s"), _add("b", 0, 1, "dup", stream="s")]
    plan = plan_round(
        works,
        {g: _loaded() for g in "ab"},
        [None, None],
        [NO_CLOCKS] * 2,
        1000,
        functools.partial(commit_request, outcome_ttl_s=60, settles_work=True),
        retain_s=60,
        settles_work=True,
    )
    call = plan.commits[0].call
    assert (call.keys.work_stream, call.args.ack, call.args.entry_id) == ("s", "1", b"ok")
    assert (call.keys.inbox, call.args.answer) == ("in", "1")
    assert (call.args.compare_clocks, call.args.expected_status, call.args.expected_seatclock) == ("1", "active", b"")
    result = settle_round(plan, [Committed(1), Committed(0, outcome=Outcome.accepted(2, []).dumps())], {}, 1000)
    assert result.answered == result.acked == {("s", b"ok"), ("s", b"dup")}


def test_a_refusal_sharing_its_entry_id_with_another_shards_commit_is_still_answered_and_acknowledged() -> None:
    """Shards' streams give out the same entry ids (two gateways queueing in the same millisecond):
    a commit the script settled must not settle a refusal of the same id in another stream (its
    mover would wait for the deadline, its entry for the idle reclaim)."""
    same = b"1796178727373-0"
    works = [
        _add("a", 0, 1, "ok", stream="work:1", msg_id=same),
        _add("b", 0, 1, "stale", stream="work:2", msg_id=same, etag="9.zz"),
    ]
    plan = plan_round(
        works, {g: _loaded() for g in "ab"}, [None, None], [NO_CLOCKS] * 2, 1000, _call, retain_s=60, settles_work=True
    )
    result = settle_round(plan, [Committed(1)], {}, 1000)
    assert result.answered == result.acked == {("work:1", same)}
    (refusal,) = [r for r in result.replies if not r.outcome.ok]
    assert refusal.work.key not in result.answered | result.acked


def test_the_fast_path_pauses_while_the_cache_is_often_stale() -> None:
    fast = FastPath(window=4, max_refused=0.25, pause_rounds=3)
    plan = _plan([_add(g, 0, 1, g) for g in "abcd"], {g: _loaded() for g in "abcd"})
    unread = {("", g.encode()) for g in "abcd"}
    fast.count(plan.commits, [Committed(1), Committed(1), Committed(1), Committed(-1)], unread)
    assert fast.on()  # one in four refused: still worth it
    fast.count(plan.commits, [Committed(-1), Committed(-1), Committed(1), Committed(1)], unread)
    assert [fast.on() for _ in range(4)] == [False, False, False, True]


def _faulty_host(**broken: Any) -> GameHost:
    """Counter with rules functions replaced by `broken` (a rules bug, as a worker meets it)."""
    return GameHost(dataclasses.replace(HOST.rules, **broken))


def _raises(exc: Exception) -> Any:
    def rules_function(*_args: Any) -> Any:
        raise exc

    return rules_function


def test_a_rules_exception_fails_its_work_alone_and_is_never_blamed_on_the_action() -> None:
    state = HOST.rules.new_game(HOST.config(2, {}), seed=7)
    cache = {
        "key-error": Loaded(_faulty_host(apply=_raises(KeyError("bug"))), 1, state, False, 2, "l1"),
        "runtime": Loaded(_faulty_host(apply=_raises(RuntimeError("bug"))), 1, state, False, 2, "l1"),
        "sound": _loaded(),
        "garbage": _loaded(),
        "undecodable": _loaded(),
    }
    works = [
        _add("key-error", 0, 1, "a"),
        _add("runtime", 0, 1, "b"),
        _add("sound", 0, 1, "c"),
        Work("garbage", 0, "d", action=b"{", inbox="in", msg_id=b"d"),
        _add("undecodable", 0, 1, "e"),
    ]
    plan = plan_round(
        works, cache, [None] * 5, [NO_CLOCKS] * 5, 1000, _call, retain_s=60, broken={"undecodable": ValueError("x")}
    )
    assert [p.work.request_id for p in plan.commits] == ["c"]  # the round goes on
    reasons = [(r.work.request_id, r.outcome.reason, r.cache_it) for r in plan.replies]
    assert reasons == [
        ("a", "ENGINE_FAILURE", False),  # a KeyError in the rules is not "malformed action"
        ("b", "ENGINE_FAILURE", False),  # never recorded as the request's outcome
        ("d", "INVALID_ACTION", False),  # an undecodable action still is
        ("e", "ENGINE_FAILURE", False),  # a stored state the rules cannot decode
    ]
    assert [work.request_id for work, _error in plan.failed] == ["a", "b", "e"]
    for reply, (_work, error) in zip([plan.replies[i] for i in (0, 1, 3)], plan.failed, strict=True):
        assert reply.outcome.metadata == {"incident": error.metadata["incident"]}
        assert error.metadata["incident"] in reply.outcome.message


def test_a_clock_the_rules_fail_on_is_looked_at_again_later_not_in_a_loop() -> None:
    state = HOST.rules.new_game(HOST.config(2, {}), seed=7)
    loaded = Loaded(_faulty_host(to_act=_raises(RuntimeError("bug"))), 1, state, False, 2, "l1")
    clock = Work("g", 0, "@clock:1", kind=CLOCK, msg_id=b"clock:g:1", leased_until=3000)
    plan = plan_round([clock], {"g": loaded}, [None], [NO_CLOCKS], 1000, _call, retain_s=60)
    assert plan.replies[0].outcome.reason == "ENGINE_FAILURE"
    assert plan.settle == {"g": 1000 + ENGINE_RETRY_MS}
