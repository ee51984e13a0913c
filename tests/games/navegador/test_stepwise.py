"""Rules version 2 asks D5, D6, D7 and D9 step by step: every version 1 one-shot choice is reached
by its picks and does exactly what version 1 does, nothing else is reached, prompts hold one
building, colony, route or good at a time, and the one-shot actions are refused without their picks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from flotilla.games.navegador import RULES, RULES_V1
from flotilla.games.navegador.actions import (
    DeclineBuilding,
    PickBuilding,
    PickColony,
    PickFleetDestination,
    PickFleetOrigin,
    PickSale,
    PlaceOnBuilding,
    PlaceOnColony,
    SailFleet,
    SellGoods,
    StopColonizing,
    StopSailing,
)
from flotilla.games.navegador.config import Config
from flotilla.games.navegador.events import (
    BuildingPicked,
    ColonyPicked,
    FleetDestinationPicked,
    FleetOriginPicked,
    SalePicked,
)
from flotilla.games.navegador.state import Buildings, Colonies, Sailing, Sell, State
from flotilla.games.navegador.tables import Good
from flotilla.rules import IllegalAction, RulesError, Seat
from flotilla.rules.testing import game_seed

PICKS = (PickBuilding, PickColony, PickFleetOrigin, PickFleetDestination, PickSale)
PICKED = (BuildingPicked, ColonyPicked, FleetOriginPicked, FleetDestinationPicked, SalePicked)
STEPPED = (Buildings, Colonies, Sailing, Sell)
WAYS_OUT = (DeclineBuilding, StopColonizing, StopSailing, SellGoods(0, 0, 0))


def _way_out(action: Any) -> bool:
    return any(action == w if isinstance(w, SellGoods) else isinstance(action, w) for w in WAYS_OUT)


def _completions(state: State, seat: Seat) -> dict[Any, tuple[State, tuple[Any, ...]]]:
    """Every final action reached through version 2's picks from `state`, with the state and the
    events (the picks' events left out) it leads to."""
    out: dict[Any, tuple[State, tuple[Any, ...]]] = {}
    for action in RULES.legal_actions(state, seat):
        after, events = RULES.apply(state, seat, action)
        if isinstance(action, PICKS):
            assert [type(e) for e in events] in ([t] for t in PICKED)
            assert after.players == state.players  # a pick moves nothing
            for final, (end, more) in _completions(after, seat).items():
                if final in out:  # only the way out stays legal after a pick, and does the same
                    assert _way_out(final), f"{final} is reached twice"
                    assert out[final] == (end, more)
                out[final] = (end, more)
        else:
            out[action] = (after, events)
    return out


def _decisions(seats: int, seed: int, rules: Any) -> list[State]:
    """The states of one random game (driven by `rules`) where D5, D6 or D7 is asked, nothing picked."""
    driver = random.Random(seed)
    state = rules.new_game(Config(seats=seats), game_seed(seed))
    found = []
    while acting := rules.to_act(state):
        seat = driver.choice(sorted(acting))
        if isinstance(state.phase, STEPPED) and not _picked(state):
            found.append(state)
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
    return found


def _picked(state: State) -> bool:
    phase = state.phase
    return bool(getattr(phase, "picked", None) or getattr(phase, "origin", None))


def _sellable(action: Any) -> int:
    """How many goods a `SellGoods` sells some of."""
    return sum(u > 0 for u in (action.sugar, action.gold, action.spice))


@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (3, 1), (5, 2)])
def test_every_version_1_choice_is_reached_stepwise_and_does_the_same(seats: int, seed: int) -> None:
    states = _decisions(seats, seed, RULES_V1)  # version 1's play reaches large one-shot prompts
    assert len(states) > 50
    kinds = set()
    sales = 0
    for state in states:
        seat = next(iter(RULES.to_act(state)))
        one_shot = RULES_V1.legal_actions(state, seat)
        stepwise = _completions(state, seat)
        assert set(stepwise) == set(one_shot)
        for action in one_shot:
            kinds.add(type(action))
            sales = max(sales, _sellable(action) if isinstance(action, SellGoods) else 0)
            assert stepwise[action] == tuple(RULES_V1.apply(state, seat, action)), action
    assert {PlaceOnBuilding, SailFleet, PlaceOnColony, SellGoods} <= kinds
    assert sales >= 2  # a sale of two goods at once: reached through a PickSale


@pytest.mark.parametrize("seats", [2, 4])
def test_a_version_2_prompt_offers_one_building_colony_or_route_at_a_time(seats: int) -> None:
    driver = random.Random(seats)
    state = RULES.new_game(Config(seats=seats), game_seed(seats))
    largest = {1: 0, 2: 0}
    while acting := RULES.to_act(state):
        seat = next(iter(acting))
        legal = RULES.legal_actions(state, seat)
        assert len({a.building for a in legal if isinstance(a, PlaceOnBuilding)}) <= 1
        assert len({a.colony for a in legal if isinstance(a, PlaceOnColony)}) <= 1
        assert len({(a.origin, a.destination) for a in legal if isinstance(a, SailFleet)}) <= 1
        assert len({a.good for a in legal if isinstance(a, PickSale)}) <= 1
        sales = {(a.sugar, a.gold, a.spice) for a in legal if isinstance(a, SellGoods)} - {(0, 0, 0)}
        assert sum(len(set(units)) > 1 for units in zip(*sales, strict=True)) <= 1  # one good asked
        assert not any(isinstance(a, PICKS) for a in legal) or not any(
            isinstance(a, PlaceOnBuilding | PlaceOnColony | SailFleet) for a in legal
        )
        assert RULES.default_action(state, seat) in legal
        largest[2] = max(largest[2], len(legal))
        largest[1] = max(largest[1], len(RULES_V1.legal_actions(state, seat)))
        state = RULES.apply(state, seat, driver.choice(legal)).state
    assert largest[2] < largest[1]


def _at_buildings() -> tuple[State, Seat]:
    driver = random.Random(3)
    state = RULES.new_game(Config(seats=3), game_seed(3))
    while not (isinstance(state.phase, Buildings) and len(RULES.legal_actions(state, state.phase.active)) > 2):
        seat = next(iter(RULES.to_act(state)))
        state = RULES.apply(state, seat, driver.choice(RULES.legal_actions(state, seat))).state
    return state, state.phase.active


def test_one_shot_placements_are_refused_without_their_pick() -> None:
    state, seat = _at_buildings()
    picks = [a for a in RULES.legal_actions(state, seat) if isinstance(a, PickBuilding)]
    one_shot = next(a for a in RULES_V1.legal_actions(state, seat) if isinstance(a, PlaceOnBuilding))
    with pytest.raises(IllegalAction, match="pick the building first"):
        RULES.apply(state, seat, one_shot)
    picked, events = RULES.apply(state, seat, picks[0])
    assert events == (BuildingPicked(seat, picks[0].building),)
    assert RULES.view(picked, None).picked_place == picks[0].building
    assert RULES.view(state, None).picked_place == ""
    assert DeclineBuilding() in RULES.legal_actions(picked, seat)  # the way out (and timer default) stays
    assert RULES.default_action(picked, seat) == DeclineBuilding()
    for refused in (picks[0], PlaceOnBuilding("B9" if picks[0].building != "B9" else "B1", 1)):
        with pytest.raises(IllegalAction):
            RULES.apply(picked, seat, refused)
    with pytest.raises(IllegalAction):
        RULES.apply(state, seat, PickFleetOrigin("SR0"))
    with pytest.raises(RulesError):
        RULES_V1.apply(state, seat, picks[0])  # version 1 knows no picks


def _at_sales() -> tuple[State, Seat]:
    """A version 2 sale with its first good asked by a `PickSale` (two goods or more to sell)."""
    for seed in range(20):
        driver = random.Random(seed)
        state = RULES.new_game(Config(seats=2), game_seed(seed))
        while acting := RULES.to_act(state):
            seat = next(iter(acting))
            legal = RULES.legal_actions(state, seat)
            if any(isinstance(a, PickSale) for a in legal):
                return state, seat
            state = RULES.apply(state, seat, driver.choice(legal)).state
    raise AssertionError("no sale of two goods in 20 games")


def test_sales_are_asked_one_good_at_a_time() -> None:
    state, seat = _at_sales()
    legal = RULES.legal_actions(state, seat)
    first = next(a for a in legal if isinstance(a, PickSale))
    assert legal == (SellGoods(0, 0, 0), *(PickSale(first.good, u) for u in range(len(legal) - 1)))
    two = next(a for a in RULES_V1.legal_actions(state, seat) if isinstance(a, SellGoods) and _sellable(a) == 2)
    with pytest.raises(IllegalAction, match="first \\(PickSale\\)"):
        RULES.apply(state, seat, two)
    later = next(g for g in (Good.GOLD, Good.SPICE) if g != first.good)
    with pytest.raises(IllegalAction, match="is not asked now"):
        RULES.apply(state, seat, PickSale(later, 0))
    with pytest.raises(IllegalAction, match="at most"):
        RULES.apply(state, seat, PickSale(first.good, len(legal)))
    with pytest.raises(RulesError):
        RULES.apply(state, seat, PickSale(first.good, -1))
    picked, events = RULES.apply(state, seat, legal[-1])
    assert events == (SalePicked(seat, first.good, legal[-1].units),)
    assert len(RULES.view(picked, None).picked_sales) == first.good.value + 1
    assert RULES.view(picked, None).picked_sales[-1] == legal[-1].units
    assert RULES.default_action(picked, seat) == SellGoods(0, 0, 0) in RULES.legal_actions(picked, seat)
    with pytest.raises(IllegalAction):
        RULES.apply(picked, seat, legal[-1])  # a pick is not taken twice
    with pytest.raises(RulesError):
        RULES_V1.apply(state, seat, first)  # version 1 knows no picks
