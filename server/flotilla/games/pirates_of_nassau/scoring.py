"""Final scoring: four categories at 7/5/3/1/0 with shared ranks; ties by Wealth, then N (§8)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Result
from flotilla.rules.scoring import ranked_result

from .state import Finished, Player, State
from .tables import RANK_POINTS, SECTION_BEST_SHIP, TOKENS, SlotType


@dataclass(frozen=True, slots=True)
class Categories:
    notoriety: int
    motley: int
    best_ship: int
    wealth: int


def motley(p: Player) -> int:
    return sum(TOKENS[f.token].motley for f in p.fitted if TOKENS[f.token].slot is SlotType.CREW)


def best_ship(p: Player) -> int:
    sections = sum(SECTION_BEST_SHIP[: p.sections + 1])
    return sections + sum(TOKENS[f.token].best_ship for f in p.fitted if TOKENS[f.token].slot is not SlotType.CREW)


def categories(p: Player) -> Categories:
    return Categories(p.notoriety, motley(p), best_ship(p), p.chest)


def rank_points(values: list[int]) -> list[int]:
    """Rank = 1 + the number of strictly greater values; points by rank."""
    return [RANK_POINTS[sum(1 for w in values if w > v)] for v in values]


def victory_points(players: tuple[Player, ...]) -> list[int]:
    cats = [categories(p) for p in players]
    total = [0] * len(players)
    for field in ("notoriety", "motley", "best_ship", "wealth"):
        for i, pts in enumerate(rank_points([getattr(c, field) for c in cats])):
            total[i] += pts
    return total


def result(state: State) -> Result | None:
    if not isinstance(state.phase, Finished):
        return None
    vp = victory_points(state.players)
    keys = [(vp[i], p.chest, p.notoriety) for i, p in enumerate(state.players)]
    return ranked_result(vp, keys)
