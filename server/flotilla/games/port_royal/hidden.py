"""`determinize`: re-deal what nobody can see (spec §7)."""

from __future__ import annotations

from flotilla.rules import Rng, Seat, shuffled
from flotilla.rules.evolve import evolve

from .cards import ORDER
from .state import State


def determinize(s: State, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell apart from `s`: every face-down card (draw pile, all coin
    stacks, time and victory piles — nobody sees any of them) is re-dealt at random. The pool is
    sorted first, so the result depends on the view and `rng` only, never on where the hidden
    cards were (a policy sampling worlds cannot tell `s` from any determinization of it)."""
    del seat
    players = s.players
    pool = [*s.draw_pile, *(c for p in players for c in p.coins), *s.time_pile, *s.victory_pile]
    pool.sort(key=ORDER.__getitem__)
    mixed, _ = shuffled(pool, rng.fork(1))
    at = 0

    def take(k: int) -> tuple[str, ...]:
        nonlocal at
        out = mixed[at : at + k]
        at += k
        return out

    draw_pile = tuple(sorted(take(len(s.draw_pile)), key=ORDER.__getitem__))
    new_players = tuple(evolve(p, coins=take(len(p.coins))) for p in players)
    time_pile = tuple(sorted(take(len(s.time_pile)), key=ORDER.__getitem__))
    victory_pile = tuple(sorted(take(len(s.victory_pile)), key=ORDER.__getitem__))
    return evolve(s, rng=rng, draw_pile=draw_pile, players=new_players, time_pile=time_pile, victory_pile=victory_pile)
