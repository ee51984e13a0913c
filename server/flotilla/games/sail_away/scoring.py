"""Final scoring (§8.2) and the result."""

from __future__ import annotations

from flotilla.rules import Result, Seat
from flotilla.rules.scoring import ranked_result

from .cards import OBJECTIVES, SHIPS, Resource
from .state import PlayerState, State


def resource_count(p: PlayerState, resource: Resource) -> int:
    """Printed spaces of `resource` on the seat's launched ships, coin spaces included (SR18)."""
    return sum(SHIPS[ls.card].spaces.count(resource) for ls in p.launched)


def public_objective_winner(s: State) -> Seat | None:
    """The single seat with the strictly highest count of the public resource, else None (§8.2.1)."""
    resource = OBJECTIVES[s.public_objective]
    counts = [resource_count(p, resource) for p in s.players]
    best = max(counts)
    return Seat(counts.index(best)) if counts.count(best) == 1 else None


def scores(s: State) -> tuple[int, ...]:
    """Ship points + money + objective tokens (the public one only for its winner, SR19)."""
    winner = public_objective_winner(s)
    public = OBJECTIVES[s.public_objective]
    out = []
    for seat, p in enumerate(s.players):
        total = sum(SHIPS[ls.card].points for ls in p.launched) + p.coins
        total += resource_count(p, OBJECTIVES[p.objective])
        if seat == winner:
            total += resource_count(p, public)
        out.append(total)
    return tuple(out)


def final_result(s: State) -> Result:
    """Ranks by score, then launched ships, then money (SR20); a full tie is shared."""
    totals = scores(s)
    keys = [(totals[i], len(p.launched), p.coins) for i, p in enumerate(s.players)]
    return ranked_result(totals, keys)
