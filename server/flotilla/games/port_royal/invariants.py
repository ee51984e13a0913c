"""Conservation checks (every card in exactly one place, cubes and tokens add up)."""

from __future__ import annotations

from functools import cache

from flotilla.rules import Seat
from flotilla.rules.cards import check_conserved

from .cards import CONTRACTS, FIVE_PLAYER_EXPEDITION, ORDER, deck
from .contracts import free_cubes
from .state import Repel, State
from .tables import CUBES_PER_PLAYER, MAX_CONTRACTS, VP_TOKENS_FOR_COMPLETION


@cache
def _expected(expansion: bool, five: bool) -> list[str]:
    cards = [*deck(expansion), *((FIVE_PLAYER_EXPEDITION,) if five else ())]
    return sorted(cards)


def check_invariants(s: State) -> None:
    """Raise AssertionError when a card, cube or token is lost or duplicated."""
    expected = _expected(s.config.expansion, len(s.players) == 5)
    places: list[str] = [*s.draw_pile, *s.discard, *s.harbor, *s.expeditions, *s.time_pile, *s.victory_pile]
    for p in s.players:
        places.extend(p.display)
        places.extend(p.coins)
        places.extend(p.collection)
    if isinstance(s.phase, Repel):
        places.append(s.phase.ship)
    check_conserved("cards", places, expected)
    for pile in (s.draw_pile, s.time_pile, s.victory_pile):
        keys = [ORDER[c] for c in pile]
        assert keys == sorted(keys), "a face-down pile is not kept sorted"
    if not s.config.contracts:
        assert not s.contracts
        assert not s.contract_pile
        return
    total = len(CONTRACTS)  # competitive: the two co-op cards wait aside as spare tokens
    tokens = sum(p.tokens for p in s.players)
    held = len(s.contracts) + len(s.contract_pile) + len(s.spare_contracts) + tokens - s.token_counters
    assert held == total, f"contracts not conserved: {held} != {total}"
    for i, p in enumerate(s.players):
        assert len(p.completed) <= MAX_CONTRACTS
        assert len(set(p.completed)) == len(p.completed)
        assert p.tokens == sum(VP_TOKENS_FOR_COMPLETION[: len(p.completed) + 1])
        cubes = free_cubes(s.contracts, len(p.completed), Seat(i))
        assert 0 <= cubes <= CUBES_PER_PLAYER, f"seat {i} has {cubes} free cubes"
        on_slots = sum(c.slots.count(Seat(i)) for c in s.contracts)
        assert on_slots == len(p.completed)
    for c in s.contracts:
        assert len(c.slots) == len(set(c.slots)) <= len(CONTRACTS[c.contract].slots)
