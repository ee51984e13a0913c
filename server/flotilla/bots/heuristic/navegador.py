"""Navegador: the final score as it stands (base points times knights), money counted to the
coin rather than per hundred, and a little for workers and ships the seat can still use."""

from __future__ import annotations

from flotilla.bots.heuristic.driver import TABLES, GameTable
from flotilla.games.navegador.economy import held_buildings, held_colonies
from flotilla.games.navegador.scoring import tiles_of
from flotilla.games.navegador.state import State
from flotilla.games.navegador.tables import (
    KNIGHT_PRICES,
    KNIGHTS_FOR_SALE,
    MONEY_PER_POINT,
    POINTS_BUILDING,
    POINTS_COLONY,
    POINTS_LISBON_WORKER,
    POINTS_SHIP,
    POINTS_TILE,
)
from flotilla.rules import Seat

WEIGHTS = {
    "money": 1.5 / MONEY_PER_POINT,  # money buys points later: worth more than its final rate
    "building": float(POINTS_BUILDING),
    "colony": float(POINTS_COLONY),
    "tile": float(POINTS_TILE),
    "worker": float(POINTS_LISBON_WORKER),
    "ship": float(POINTS_SHIP),
    "knight": 1.0,  # the multiplier counts as knights + this share of one per knight held
    "next_knight": 0.5,  # the share of a knight that the money and workers held toward the next are worth
}


def evaluate(s: State, seat: Seat) -> float:
    """The seat's worth in final points."""
    p = s.players[seat]
    base = (
        WEIGHTS["building"] * held_buildings(s, seat)
        + WEIGHTS["colony"] * held_colonies(s, seat)
        + WEIGHTS["tile"] * len(tiles_of(s, seat))
        + WEIGHTS["worker"] * p.lisbon
        + WEIGHTS["ship"] * sum(p.ships)
        + WEIGHTS["money"] * p.money
    )
    return base * (p.knights + WEIGHTS["next_knight"] * toward_knight(s, seat)) * WEIGHTS["knight"]


def toward_knight(s: State, seat: Seat) -> float:
    """How far the seat is toward buying the next knight, 0..1: the share of its price held times
    the share of its Lisbon workers held. Without it a knight two turns away (workers to buy
    first) is beyond the search's horizon, and a seat with the money and no workers (or the
    workers and no money) never buys one: the game stalls short of the 15th knight."""
    if s.knights_sold >= KNIGHTS_FOR_SALE:
        return 0.0
    p = s.players[seat]
    cost, workers = KNIGHT_PRICES[s.knight_step], s.knight_phase
    return min(1.0, p.money / cost) * min(1.0, p.lisbon / workers)


TABLES["navegador"] = GameTable(
    evaluate=evaluate,
    scale=8.0,
    lookahead=3,
    bias=4.0,
    rollout=0,
    relative=True,
    spread=0.02,
    chain=True,
    horizon=True,
    temperature=(0.1, 0.08, 0.01),
    nodes=(24, 40, 120),
)
"""The search: no random rollout (through stepwise prompts it was noise: the prior, the greedy
follow-through, is the leaf's value), rewards relative to the decision (scores multiply by
knights, so a seat behind saw every action as lost and played at random), bias 4 (lean on the
evaluation); `horizon`: the tree ends at the seat's next turn (a leaf past the other seat's moves
counted its progress and one inside the seat's own prompts did not, so the search preferred long
chains of its own prompts, sailed to and fro and bought no knights; more playouts played worse);
`chain`: a rondel move is worth its best follow-up (what to buy, where to sail), not the mean of
the random ones tried; `spread` 0.02: actions differ by a few points in scores of hundreds, so
values count relative to their siblings'. Measured in bench/results/bots.md and
bench/results/navsearch.md.
Difficulty 0 is less noisy than the driver's (temperature 0.1, not 0.35, and 24 nodes, not 12):
one choice is several stepwise prompts, and noise in each made 3-seat games run to ~580-680
decisions (now 386, bench/results/bots.md)."""
