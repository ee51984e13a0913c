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


def test_navegador_values_the_workers_and_money_its_next_knight_needs() -> None:
    """A seat with a knight's money and no Lisbon workers (or the workers and no money) values what
    it lacks above its final rate: the knight is otherwise two turns away, beyond the search, and
    the game stalls short of the 15th knight (bench/results/navsearch.md, "Stalls")."""
    from flotilla.bots.heuristic.navegador import WEIGHTS, toward_knight
    from flotilla.games.navegador.knights import price

    _, state = _a_position("navegador")
    game = TABLES["navegador"]
    p = state.players[SEAT]
    need = state.knight_phase
    rich = _with_player(state, money=10 * price(state), lisbon=0)
    ready = _with_player(rich, lisbon=need)
    assert toward_knight(rich, SEAT) == 0.0
    assert toward_knight(ready, SEAT) == 1.0
    at_rate = need * WEIGHTS["worker"] * p.knights
    assert game.evaluate(ready, SEAT) - game.evaluate(rich, SEAT) > at_rate
    poor = _with_player(state, money=0, lisbon=need)
    funded = _with_player(poor, money=price(state))
    assert game.evaluate(funded, SEAT) - game.evaluate(poor, SEAT) > price(state) * WEIGHTS["money"] * p.knights
