"""Seat takeover (flotilla.bots.takeover): an absent seat is played by the takeover policy, a single
timeout by the game's default action; the choice is the same however often it is planned; on a
real stack the absent seat's recorded moves are the policy's and the game replays from its log."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson
import pytest

from flotilla.app import clocks
from flotilla.app.host import host_for
from flotilla.bots import Decision, register
from flotilla.bots.takeover import Takeover, resolve
from flotilla.records import CLOCK
from flotilla.rules import Seat
from flotilla.settings import Settings
from flotilla.store.redis_store import RedisStore
from flotilla.worker.plan import Clocks, Loaded, Work, plan_step
from flotilla_client import FlotillaClient, RandomBot, run_bot
from support import Stack, assert_stored_state_replays

HOST = host_for("counter")


@register("test-last")
class LastPolicy:
    """The last legal action (never the counter's default, its first)."""

    name = "test-last"

    def __init__(self, rules: Any, difficulty: int = 0) -> None:
        del rules, difficulty

    def choose(self, decision: Decision, rng: random.Random) -> Any:
        return decision.legal[-1]


def _clock_work(absent: bool, max_timeouts: int = 3) -> tuple[Work, Loaded, Clocks]:
    state = HOST.rules.new_game(HOST.config(2, {"moves": "50"}), seed=3)
    config = clocks.ClockConfig(turn_ms=1000, max_timeouts=max_timeouts)
    seat_clocks = clocks.schedule(config, clocks.initial(config, 2), [0], None, 0, running=True)
    if absent:
        seat_clocks = clocks.leave(config, seat_clocks, 0, 0)
    raw = orjson.dumps(clocks.dump(seat_clocks))
    return Work("g", 0, "@clock", kind=CLOCK), Loaded(HOST, 1, state, False, 2, "l1"), Clocks("active", config, raw)


def _played(planned: Any) -> Any:
    assert planned is not None
    _step, _clocks, record = planned
    return orjson.loads(record)[1]


def test_an_absent_seat_is_played_by_the_policy_and_a_timeout_by_the_default_action() -> None:
    takeover = Takeover("test-last")
    work, loaded, clock = _clock_work(absent=True)
    state = loaded.state
    last = HOST.codec.to_plain(HOST.rules.legal_actions(state, Seat(0))[-1])
    default = HOST.codec.to_plain(HOST.rules.default_action(state, Seat(0)))
    assert last != default
    assert _played(plan_step(work, loaded, clock, 5000, takeover)) == last
    assert _played(plan_step(work, loaded, clock, 5000, None)) == default  # no takeover: as before
    work, loaded, clock = _clock_work(absent=False)
    assert _played(plan_step(work, loaded, clock, 5000, takeover)) == default  # one timeout in three
    work, loaded, clock = _clock_work(absent=False, max_timeouts=1)
    assert _played(plan_step(work, loaded, clock, 5000, takeover)) == last  # this timeout makes it absent


KINDS = [
    ("counter", 2, {"moves": "30"}),
    ("sail_away", 2, {}),
    ("port_royal", 2, {"mode": "contract_coop"}),
    ("pirates_of_nassau", 2, {}),
    ("navegador", 3, {}),
]


@pytest.mark.parametrize(("kind", "seats", "options"), KINDS, ids=[k[0] for k in KINDS])
def test_the_prompts_name_the_action_a_timeout_plays(kind: str, seats: int, options: dict[str, str]) -> None:
    """Along a random game, each acting seat's stored default (field p's "d") is what the worker
    plays when that seat's clock runs out (a policy for absent seats does not change it)."""
    host = host_for(kind)
    config = clocks.ClockConfig(turn_ms=1000)
    state = host.rules.new_game(host.config(seats, options), seed=7)
    driver, checked = random.Random(7), 0
    for step in range(40):
        prompts, to_act = host.prompts(state)
        if not to_act:
            break
        seat_clocks = clocks.schedule(config, clocks.initial(config, seats), to_act, None, 0, running=True)
        loaded = Loaded(host, step + 1, state, False, seats, "l1")
        clock = Clocks("active", config, orjson.dumps(clocks.dump(seat_clocks)))
        for seat in to_act:
            played = _played(
                plan_step(Work("g", seat, "@clock", kind=CLOCK), loaded, clock, 5000, Takeover("test-last"))
            )
            assert played == prompts[str(seat)][prompts["d"][str(seat)]]
            checked += 1
        seat = Seat(driver.choice(to_act))
        state = host.rules.apply(state, seat, driver.choice(host.rules.legal_actions(state, seat))).state
    assert checked >= 20


def test_the_takeover_choice_depends_only_on_the_game() -> None:
    """Planned again (a retried commit, another worker), the same random choice."""
    rules = host_for("pirates_of_nassau").rules
    state = rules.new_game(host_for("pirates_of_nassau").config(2, {}), 11)
    seat = Seat(min(rules.to_act(state)))
    picks = {repr(Takeover("random").action(rules, state, seat, 1)) for _ in range(5)}
    assert len(picks) == 1
    assert len({repr(Takeover("random").action(rules, state, seat, v)) for v in range(1, 40)}) > 1


def test_the_takeover_setting_names_a_policy() -> None:
    assert resolve("default") == ""
    assert resolve("auto") in ("heuristic", "random")
    assert resolve("random") == "random"
    with pytest.raises(ValueError, match="known: "):
        resolve("nope")


@pytest.mark.redis
@pytest.mark.timeout(120)
async def test_an_abandoned_seat_plays_the_takeover_policy_and_the_game_replays(stack: Stack) -> None:
    async with FlotillaClient(stack.gateways[0]) as ada, FlotillaClient(stack.gateways[1]) as bob:
        await ada.sign_in("ada")
        await bob.sign_in("bob")
        game = await ada.create_game("pirates_of_nassau", 2)
        mine, theirs = await ada.join(game.name), await bob.join(game.name)
        await bob.leave(theirs)  # absent from now on: the worker plays seat 1
        played = await asyncio.wait_for(run_bot(ada, mine, RandomBot(random.Random(5))), 90)
    assert played.decisions > 0
    await assert_stored_state_replays(stack.redis_url, game.name)
    settings = Settings()
    takeover = Takeover.of(settings.takeover_policy, settings.takeover_difficulty)  # the stack's
    store = RedisStore.from_url(stack.redis_url)
    try:
        game_id = game.name.removeprefix("games/")
        row = await store.load(game_id)
        assert row is not None
        meta, raw = row
        host = host_for(meta.kind, meta.rules_version)
        rules = host.rules
        state = rules.new_game(host.config(meta.seat_count, meta.options), host.loads(raw).rng.seed)
        taken = 0
        for record in await store.actions_log(game_id):
            action = host.codec.from_plain(record.action)
            after, events = rules.apply(state, Seat(record.seat), action)
            if record.seat == 1:
                assert record.by == CLOCK
                before = record.version - len(events) - (rules.result(after) is not None)
                assert action == takeover.action(rules, state, Seat(1), before), "not the takeover policy's move"
                taken += 1
            state = after
        assert taken > 0
    finally:
        await store.close()
