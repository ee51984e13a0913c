"""A new game (spec section 3 and the random calls of section 6)."""

from __future__ import annotations

from flotilla.rules import Rng, Seat, shuffled

from .config import Config
from .state import EMPTY, Draft, Ledger, PlayerState, State
from .tables import (
    COLONIES,
    COLOURS,
    GOODS,
    PORTUGAL,
    REGION_IDS,
    START_CUBES,
    START_KNIGHTS,
    START_MONEY,
    START_SHIPS,
    START_WORKERS,
)


def new_game(config: Config, seed: int) -> State:
    """Deal the board; the starting player (and colours, if asked) are the only random draws."""
    rng = Rng(seed)
    n = config.seats
    colours = COLOURS
    if config.random_colours:
        colours, rng = shuffled(COLOURS, rng)
    start, rng = rng.below(n)
    ships = tuple(START_SHIPS if r == PORTUGAL else 0 for r in range(len(REGION_IDS)))
    players = tuple(
        PlayerState(
            colour=colours[i],
            money=START_MONEY,
            lisbon=START_WORKERS,
            ships=ships,
            knights=START_KNIGHTS,
            rondel=None,
        )
        for i in range(n)
    )
    zeros = (0,) * n
    return State(
        config=config,
        rng=rng,
        start_player=Seat(start),
        players=players,
        buildings=(EMPTY,) * 7,
        colonies=(EMPTY,) * len(COLONIES),
        tiles=(None,) * len(REGION_IDS),
        cubes=(START_CUBES,) * len(GOODS),
        knight_phase=1,
        knight_step=0,
        knights_sold=0,
        phase=Draft(chooser=Seat(start), picks_left=n),
        turn=0,
        ledger=Ledger(workers_gained=zeros, workers_spent=zeros, ships_gained=zeros, ships_lost=zeros),
    )
