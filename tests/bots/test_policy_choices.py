"""`heuristic` and `ismcts` only ever pick one of `decision.legal`, cannot tell a state from any
determinization of it (they never read hidden state), and are deterministic for a fixed rng."""

from __future__ import annotations

import dataclasses
import random

import pytest

from flotilla.bots import decision_from_state, make
from flotilla.bots.heuristic.driver import TABLES, table
from flotilla.bots.ismcts import IsmctsPolicy, Node, _spread
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


def test_spread_counts_values_relative_to_their_siblings() -> None:
    assert _spread([0.5, 0.507, 0.5], 0.02) == pytest.approx([0.0, 0.35, 0.0])  # a small gap, made visible
    assert _spread([0.2, 0.8, 0.5], 0.02) == pytest.approx([0.0, 1.0, 0.5])
    assert _spread([0.4, 0.4], 0.02) == [0.0, 0.0]  # all equal: no preference


def test_a_seats_consecutive_prompts_back_up_as_one_decision() -> None:
    assert table(REGISTRY["navegador"]).chain
    assert not table(REGISTRY["port_royal"]).chain  # its draws are chance: the mean stays

    def walk(path: list[tuple[Node, Seat]], reward: float, chain: bool = True) -> None:
        for node, mover in reversed(path):
            node.back_up(mover, reward, chain)

    me, them = Seat(0), Seat(1)
    for chain in (True, False):
        root, steady = Node(), Node()  # steady: a first step whose follow-ups are all middling
        first, buy, decline, reply = Node(), Node(), Node(), Node()
        root.children = {(me, "move far"): first, (me, "move near"): steady}
        first.children = {(me, "buy"): buy, (me, "decline"): decline}
        walk([(first, me), (buy, me)], 0.9, chain)
        walk([(first, me), (decline, me)], 0.1, chain)
        walk([(first, me), (decline, me)], 0.1, chain)
        walk([(steady, me)], 0.6, chain)
        if chain:  # the best second step is what the first step is worth
            assert first.value() == 0.9 > steady.value() == 0.6
            decline.children = {(them, "reply"): reply}  # another seat's prompt: its mean stays
            walk([(first, me), (decline, me), (reply, them)], 0.7)
            assert decline.value() == 0.3
            assert first.value() == 0.9
        else:  # the mean: one good and two bad second steps lose to a middling first step
            assert abs(first.value() - 1.1 / 3) < 1e-9
            assert first.value() < steady.value()


@pytest.mark.parametrize("horizon", [True, False])
def test_horizon_ends_the_tree_at_the_deciding_seats_next_turn(horizon: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = REGISTRY["navegador"]
    assert table(rules).horizon
    monkeypatch.setitem(TABLES, "navegador", dataclasses.replace(table(rules), horizon=horizon))
    rules, state = next(iter(positions("navegador", 2, {}, 1, seed=60)))
    me = min(rules.to_act(state))
    decision = decision_from_state(rules, state, me)
    search, root, rng = IsmctsPolicy(rules, 0), Node(), random.Random(5)
    for _ in range(150):
        search._playout(root, decision, rng)

    def next_turns(node: Node, left: bool) -> int:
        """Nodes of the deciding seat below another seat's (its next turn)."""
        return sum(
            (left and seat == me) + next_turns(child, left or seat != me) for (seat, _), child in node.children.items()
        )

    assert (next_turns(root, False) == 0) == horizon
