"""Claiming an island (§4.2 "Claiming", L3, SR4)."""

from __future__ import annotations

from flotilla.rules import Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from .board import EventList, island_index, push_task, set_player
from .events import IslandClaimed
from .state import Resolution, State


def claim(s: State, seat: Seat, card: str, ev: EventList) -> State:
    """Put a post on the island (it resolves at the end of the step) or, without a post, resolve it now."""
    p = s.players[seat]
    if p.posts > 0:
        pos = island_index(s, card)
        island = evolve(s.islands[pos], post=seat)
        s = set_player(s, seat, evolve(p, posts=p.posts - 1))
        ev.append(IslandClaimed(seat, card, post=True))
        return evolve(s, islands=replace_at(s.islands, pos, island), claims=(*s.claims, card))
    ev.append(IslandClaimed(seat, card, post=False))
    return push_task(s, Resolution(card, seat, posted=False))
