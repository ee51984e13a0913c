"""Replaying a game: the rules are deterministic, so a game's seed and its applied actions give
back every state it went through. The one replay loop of the project (the server's GetViewAt,
the demo's deal check, the engine tests and the stored-state checks use it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flotilla.rules.types import GameRules, Seat


def play_on(rules: GameRules[Any, Any, Any, Any, Any], state: Any, moves: Iterable[tuple[Seat, Any]]) -> Any:
    """The state after applying `moves` (seat, action), in order, to `state` (RulesError if one is illegal)."""
    for seat, action in moves:
        state = rules.apply(state, seat, action).state
    return state


def replay(rules: GameRules[Any, Any, Any, Any, Any], config: Any, seed: int, moves: Iterable[tuple[Seat, Any]]) -> Any:
    """The state of a new game of `config` dealt from `seed` after `moves`."""
    return play_on(rules, rules.new_game(config, seed), moves)
