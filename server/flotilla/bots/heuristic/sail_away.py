"""Sail Away: the final score so far (launched ships, coins, objectives) plus the ships still in
port by how full they are, and the seat's posts and crates still to place."""

from __future__ import annotations

from flotilla.bots.heuristic.driver import TABLES, GameTable
from flotilla.games.sail_away.cards import ISLANDS, OBJECTIVES, SHIPS
from flotilla.games.sail_away.scoring import resource_count, scores
from flotilla.games.sail_away.state import State
from flotilla.games.sail_away.tables import GOLD_COIN
from flotilla.rules import Seat

WEIGHTS = {
    "score": 1.0,  # one final point (launched ship points, coins, objective spaces)
    "loaded": 1.0,  # a ship in port's worth (points + gold coin) times (share of spaces filled) ** 1.5
    "load": 0.6,  # each crate loaded on a ship in port
    "objective": 0.5,  # each own-objective space of a ship in port, times its share filled
    "crate": 0.3,  # a crate still in the supply
    "post": 0.2,  # a claim post still in hand
    "on_island": 0.8,  # a crate of the seat's (or a pirate crate covering one) on an open island
    "wanted": 0.6,  # extra when the island space's resource fits an empty space of the seat's ships
}


def evaluate(s: State, seat: Seat) -> float:
    """The seat's worth in final points."""
    p = s.players[seat]
    worth = WEIGHTS["score"] * scores(s)[seat]
    wanted = OBJECTIVES[p.objective]
    for ship in p.ships:
        card = SHIPS[ship.card]
        loaded = sum(1 for c in ship.crates if c is not None)
        filled = loaded / max(1, len(card.spaces))
        full = card.points + (GOLD_COIN if card.coin_space is not None else 0)
        worth += WEIGHTS["loaded"] * full * filled**1.5 + WEIGHTS["load"] * loaded
        worth += filled * WEIGHTS["objective"] * card.spaces.count(wanted)
    worth += WEIGHTS["crate"] * (p.standard + p.pirate) + WEIGHTS["post"] * p.posts
    empty = [SHIPS[ship.card].spaces[i] for ship in p.ships for i, c in enumerate(ship.crates) if c is None]
    for island in s.islands:
        for resource, space in zip(ISLANDS[island.card].spaces, island.spaces, strict=True):
            crate = space.crate
            if space.cover == seat or (space.cover is None and crate is not None and crate.owner == seat):
                worth += WEIGHTS["on_island"] + (WEIGHTS["wanted"] if resource in empty else 0.0)
    return worth


def public_lead(s: State, seat: Seat) -> int:
    """How many spaces of the public objective's resource the seat's launched ships show."""
    return resource_count(s.players[seat], OBJECTIVES[s.public_objective])


TABLES["sail_away"] = GameTable(evaluate=evaluate, scale=5.0, lookahead=2)
