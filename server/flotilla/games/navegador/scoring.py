"""Final scoring (spec section 8) and the result."""

from __future__ import annotations

from flotilla.rules import Result, Seat
from flotilla.rules.scoring import ranked_result

from .economy import held_buildings, held_colonies
from .state import Finished, PlayerState, State
from .tables import (
    EXPLORATION_BONUS,
    MONEY_PER_POINT,
    POINTS_BUILDING,
    POINTS_COLONY,
    POINTS_LISBON_WORKER,
    POINTS_SHIP,
    POINTS_TILE,
)


def tiles_of(state: State, seat: Seat) -> tuple[int, ...]:
    return tuple(r for r, owner in enumerate(state.tiles) if owner == seat)


def bonus_sum(state: State, seat: Seat) -> int:
    """Tie-break 1 (R18): the sum of the bonuses printed on the seat's exploration tiles."""
    return sum(EXPLORATION_BONUS[r] for r in tiles_of(state, seat))


def points(buildings: int, colonies: int, tiles: int, p: PlayerState) -> int:
    """The base score (before the knight multiplier) of a player holding these counts."""
    return (
        POINTS_BUILDING * buildings
        + POINTS_COLONY * colonies
        + POINTS_TILE * tiles
        + POINTS_LISBON_WORKER * p.lisbon
        + POINTS_SHIP * sum(p.ships)
        + p.money // MONEY_PER_POINT
    )


def base_points(state: State, seat: Seat) -> int:
    return points(
        held_buildings(state, seat),
        held_colonies(state, seat),
        len(tiles_of(state, seat)),
        state.players[seat],
    )


def score(state: State, seat: Seat) -> int:
    """base x knights."""
    return base_points(state, seat) * state.players[seat].knights


def result(state: State) -> Result | None:
    """Ranked by score, then bonus sum, then money; a tie on all three is a shared win."""
    if not isinstance(state.phase, Finished):
        return None
    seats = [Seat(i) for i in range(state.config.seats)]
    scores = [score(state, s) for s in seats]
    keys = [(scores[s], bonus_sum(state, s), state.players[s].money) for s in seats]
    return ranked_result(scores, keys)
