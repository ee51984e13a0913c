"""Pirates of Nassau: the four scoring categories (notoriety, motley crew, best ship, wealth)
ranked as the final scoring ranks them, plus each category's raw value, the hold's cargo and the
ship's fighting strength."""

from __future__ import annotations

from flotilla.bots.heuristic.driver import TABLES, GameTable
from flotilla.games.pirates_of_nassau.scoring import categories, victory_points
from flotilla.games.pirates_of_nassau.state import State
from flotilla.games.pirates_of_nassau.tables import TOKENS
from flotilla.rules import Seat

WEIGHTS = {
    "vp": 1.0,  # a final VP of the category ranking as it stands
    "notoriety": 0.4,
    "motley": 0.5,
    "best_ship": 0.5,
    "chest": 0.6,  # a buried peso
    "peso": 0.35,  # a peso still in the hold (can be lost or spent)
    "resource": 0.12,  # gunpowder, goods or rum in the hold (buys tokens and sections)
    "hostage": 0.3,
    "strength": 0.3,  # a sail or cannon fitted
}


def evaluate(s: State, seat: Seat) -> float:
    """The seat's worth in final VP."""
    p = s.players[seat]
    c = categories(p)
    worth = WEIGHTS["vp"] * victory_points(s.players)[seat]
    worth += WEIGHTS["notoriety"] * c.notoriety + WEIGHTS["motley"] * c.motley
    worth += WEIGHTS["best_ship"] * c.best_ship + WEIGHTS["chest"] * c.wealth
    h = p.hold
    worth += WEIGHTS["peso"] * h.pesos + WEIGHTS["resource"] * (h.gunpowder + h.goods + h.rum)
    worth += WEIGHTS["hostage"] * h.hostages
    worth += WEIGHTS["strength"] * sum(TOKENS[f.token].sail + TOKENS[f.token].cannon for f in p.fitted)
    return worth


TABLES["pirates_of_nassau"] = GameTable(evaluate=evaluate, scale=3.0, lookahead=2)
