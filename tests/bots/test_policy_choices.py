"""`heuristic` and `ismcts` only ever pick one of `decision.legal`, cannot tell a state from any
determinization of it (they never read hidden state), and are deterministic for a fixed rng."""

from __future__ import annotations

import dataclasses
import random

import pytest

from flotilla.bots import decision_from_state, make
from flotilla.bots.heuristic.driver import table
from flotilla.bots.ismcts import IsmctsPolicy
from flotilla.bots.policy import Policy, Rules
from flotilla.games import REGISTRY
from flotilla.rules import Rng, Seat
from policy_positions import GAMES, IDS, acting, positions


def _policies(rules: Rules) -> list[Policy]:
    search = make("ismcts", rules, 0)
    search.playouts = 12  # type: ignore[attr-defined]
    return [make("heuristic", rules, 0), make("heuristic", rules, 2), search]


@pytest.mark.parametrize(("kind", "seats", "options"), GAMES, ids=IDS)
def test_choices_are_legal_and_blind_to_hidden_state(kind: str, seats: int, options: dict[str, str]) -> None:
    rng = random.Random(7)
    for rules, state in positions(kind, seats, options, 4, seed=100):
        seat = acting(rules, state, rng)
        real = decision_from_state(rules, state, seat)
        world = rules.determinize(state, seat, Rng(rng.getrandbits(64)))
        assert world != state or kind == "navegador"  # something was re-drawn (Navegador: the RNG only)
        twin = decision_from_state(rules, world, seat)
        assert twin.legal == real.legal
        for policy in _policies(rules):
            k = rng.getrandbits(32)
            chosen = policy.choose(real, random.Random(k))
            assert chosen in real.legal, (policy.name, chosen)
            assert policy.choose(twin, random.Random(k)) == chosen, (policy.name, kind)
            assert policy.choose(real, random.Random(k)) == chosen, "not deterministic for a fixed rng"


@pytest.mark.parametrize(("kind", "seats", "options"), GAMES, ids=IDS)
def test_heuristic_plays_whole_games_legally(kind: str, seats: int, options: dict[str, str]) -> None:
    for rules, start in positions(kind, seats, options, 1, seed=300):
        state = start
        policy = make("heuristic", rules, 0)
        rng = random.Random(3)
        for _ in range(60):
            if rules.result(state) is not None:
                break
            seat = acting(rules, state, rng)
            decision = decision_from_state(rules, state, seat)
            action = policy.choose(decision, rng)
            assert action in decision.legal
            state = rules.apply(state, seat, action).state
            rules.check_invariants(state)


def test_search_handles_seats_that_act_at_once() -> None:
    rules = REGISTRY["sail_away"]
    state = rules.new_game(rules.config_type(seats=3), 5)
    seats = sorted(rules.to_act(state))
    assert len(seats) == 3  # the ship choice of setup is simultaneous
    search = IsmctsPolicy(rules, 0)
    search.playouts = 30
    for seat in seats:
        decision = decision_from_state(rules, state, seat)
        chosen = search.choose(decision, random.Random(seat))
        assert chosen in decision.legal
        assert search.choose(decision, random.Random(seat)) == chosen


def test_relative_rewards_count_the_lead_gained_since_the_decision() -> None:
    rules = REGISTRY["navegador"]
    game = table(rules)
    assert game.relative
    assert game.rollout == 0
    _, state = next(iter(positions("navegador", 2, {}, 1, seed=60)))
    search = IsmctsPolicy(rules, 0)
    base = search._base(game, state)
    assert sorted(base) == [0, 1]
    assert [search._value(game, state, Seat(s), base) for s in (0, 1)] == [0.5, 0.5]  # nothing gained yet
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], money=players[0].money + 500)
    richer = dataclasses.replace(state, players=tuple(players))
    assert search._value(game, richer, Seat(0), base) > 0.5 > search._value(game, richer, Seat(1), base)
