"""Each game's heuristic evaluation rises with what the game rewards (coins, VP, knights...)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from flotilla.bots.heuristic import TABLES, position
from flotilla.bots.policy import Rules
from flotilla.rules import Seat
from policy_positions import positions

SEAT = Seat(0)


def _a_position(kind: str, seats: int = 2, options: dict[str, str] | None = None) -> tuple[Rules, Any]:
    return next(iter(positions(kind, seats, options or {}, 1, seed=11)))


def _with_player(state: Any, **changes: Any) -> Any:
    players = list(state.players)
    players[SEAT] = dataclasses.replace(players[SEAT], **changes)
    return dataclasses.replace(state, players=tuple(players))


def _gains(kind: str, better: Any, state: Any, rules: Rules) -> None:
    game = TABLES[kind]
    assert game.evaluate(better, SEAT) > game.evaluate(state, SEAT)
    assert position(rules, game, better, SEAT) > position(rules, game, state, SEAT)


def test_port_royal_rewards_coins_and_vp() -> None:
    rules, state = _a_position("port_royal")
    p = state.players[SEAT]
    _gains("port_royal", _with_player(state, coins=(*p.coins, "Y01")), state, rules)
    _gains("port_royal", _with_player(state, display=(*p.display, "SA10")), state, rules)  # a 3-VP sailor
    _gains("port_royal", _with_player(state, tokens=p.tokens + 1), state, rules)


def test_port_royal_coop_rewards_completed_contracts() -> None:
    _, state = _a_position("port_royal", options={"mode": "contract_coop"})
    first = state.contracts[0]
    done = dataclasses.replace(state, contracts=(dataclasses.replace(first, slots=(SEAT,)), *state.contracts[1:]))
    game = TABLES["port_royal"]
    assert game.shared(state)
    assert game.evaluate(done, SEAT) > game.evaluate(state, SEAT)
    assert game.evaluate(done, Seat(1)) == game.evaluate(done, SEAT)  # the team's worth, for every seat


def test_sail_away_rewards_coins() -> None:
    rules, state = _a_position("sail_away")
    _gains("sail_away", _with_player(state, coins=state.players[SEAT].coins + 3), state, rules)


def test_pirates_of_nassau_rewards_chest_and_notoriety() -> None:
    rules, state = _a_position("pirates_of_nassau", seats=3)
    p = state.players[SEAT]
    _gains("pirates_of_nassau", _with_player(state, chest=p.chest + 3), state, rules)
    _gains("pirates_of_nassau", _with_player(state, notoriety=p.notoriety + 2), state, rules)


@pytest.mark.parametrize("change", [{"money": 250}, {"knights": 2}, {"lisbon": 5}])
def test_navegador_rewards_money_knights_and_workers(change: dict[str, int]) -> None:
    rules, state = _a_position("navegador")
    p = state.players[SEAT]
    bigger = {k: getattr(p, k) + v for k, v in change.items()}
    _gains("navegador", _with_player(state, **bigger), state, rules)
