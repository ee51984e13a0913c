"""Conservation checks run after every step in tests (pesos, resources, hostages, winds, tokens, cards)."""

from __future__ import annotations

from functools import cache

from .state import State
from .tables import (
    CAPTAIN_CARDS,
    END_CARD,
    HOSTAGE_SUPPLY,
    MERCHANTS,
    RESOURCE_SUPPLY,
    SLOT_BY_ID,
    TOKENS,
    TRADE_WIND_SUPPLY,
    capacity,
    navy_cards_for,
    track_space,
)

_ALL_TOKENS = frozenset(TOKENS)
_ALL_MERCHANTS = frozenset(MERCHANTS)


@cache
def _navy_cards(seats: int, *, finished: bool) -> list[str]:
    cards = [*navy_cards_for(seats, 1), *navy_cards_for(seats, 2)]
    return sorted(cards if finished else [*cards, END_CARD])


def check_invariants(state: State) -> None:
    players = state.players
    s = state.supply
    for name in ("gunpowder", "goods", "rum"):
        total = getattr(s, name) + sum(getattr(p.hold, name) for p in players)
        assert total == RESOURCE_SUPPLY, f"{name}: {total} in play, expected {RESOURCE_SUPPLY}"
    hostages = s.hostages + sum(p.hold.hostages + p.plank for p in players)
    assert hostages == HOSTAGE_SUPPLY, f"hostages: {hostages}"
    winds = s.winds + sum(int(p.wind_held) + p.winds_spent for p in players)
    assert winds == TRADE_WIND_SUPPLY, f"trade winds: {winds}"
    pesos = sum(p.hold.pesos + p.chest for p in players)
    assert pesos == state.pesos_issued, f"pesos: {pesos} held, ledger {state.pesos_issued}"
    for i, p in enumerate(players):
        for name in ("pesos", "gunpowder", "goods", "rum", "hostages"):
            assert getattr(p.hold, name) >= 0, f"seat {i} holds {name} < 0"
        assert p.chest >= 0
        assert p.notoriety >= 1
        assert len(set(p.hand)) == len(p.hand)
        assert set(p.hand) <= set(CAPTAIN_CARDS)
        assert 0 <= p.sections <= 2
        assert len(p.dice) + len(p.trail) <= 3
        assert sum(d.wind for d in p.trail) <= p.winds_spent
        for f in p.fitted:
            slot = SLOT_BY_ID[f.slot]
            kind = TOKENS[f.token]
            assert slot.section <= p.sections
            assert (slot.type, slot.border) == (kind.slot, kind.border)
        assert len({f.slot for f in p.fitted}) == len(p.fitted)
        assert set(p.face_down) <= {f.token for f in p.fitted}
        if not hasattr(state.phase, "hold_before") and type(state.phase).__name__ not in (
            "Buying",
            "HoldCheck",
        ):
            assert p.hold.total <= capacity(p.sections), f"seat {i} over capacity outside step 5"
    spaces = [track_space(p.notoriety) for p in players]
    assert len(set(spaces)) == len(spaces), f"two markers share a track space: {spaces}"
    tokens = list(state.display)
    for pile in state.piles:
        tokens += pile.hidden
        tokens += pile.discard
    for p in players:
        tokens += [f.token for f in p.fitted]
    assert len(tokens) == len(_ALL_TOKENS), "token conservation broken (count)"
    assert set(tokens) == _ALL_TOKENS, "token conservation broken (ids)"
    cards = [r.card for r in state.routes]
    for deck in state.decks:
        cards += deck.hidden
        cards += deck.bottom
    for p in players:
        cards += p.plundered
    assert len(cards) == len(_ALL_MERCHANTS), "merchant card conservation broken (count)"
    assert set(cards) == _ALL_MERCHANTS, "merchant card conservation broken (ids)"
    navy = [*state.navy.phase1, *state.navy.phase2, *state.navy.bottom, *state.navy_display]
    expected = _navy_cards(state.config.seats, finished=type(state.phase).__name__ == "Finished")
    assert sorted(navy) == expected, "navy card conservation broken"
    assert len(set(state.sacked)) == len(state.sacked)
