"""The `heuristic` policy: one greedy driver (`driver.py`) and one evaluation per game (a module
per game, each with its weights in a `WEIGHTS` table)."""

from flotilla.bots.heuristic import navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.bots.heuristic.driver import TABLES, GameTable, HeuristicPolicy, position, win_chance
from flotilla.bots.policy import Rules, register

__all__ = ["TABLES", "GameTable", "HeuristicPolicy", "position", "win_chance"]
del navegador, pirates_of_nassau, port_royal, sail_away


@register("heuristic")
def _heuristic(rules: Rules, difficulty: int) -> HeuristicPolicy:
    return HeuristicPolicy(rules, difficulty)
