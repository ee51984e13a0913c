"""Conservation checks run after every step in tests (pesos, resources, hostages, winds, tokens, cards)."""

from __future__ import annotations

from functools import cache

from flotilla.rules.cards import check_conserved

from .state import Player, State
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

_ALL_TOKENS = sorted(TOKENS)
_ALL_MERCHANTS = sorted(MERCHANTS)
_CAPTAINS = frozenset(CAPTAIN_CARDS)


@cache
def _navy_cards(seats: int, *, finished: bool) -> list[str]:
    cards = [*navy_cards_for(seats, 1), *navy_cards_for(seats, 2)]
    return sorted(cards if finished else [*cards, END_CARD])


def check_invariants(state: State) -> None:
    """Raise AssertionError when a supply count, a seat's board or a card or token is off."""
    _check_supplies(state)
    over_capacity_allowed = hasattr(state.phase, "hold_before") or type(state.phase).__name__ in ("Buying", "HoldCheck")
    hold_is_checked = not over_capacity_allowed  # step 5 (and burial) may exceed the hold until it is checked
    for i, p in enumerate(state.players):
        _check_player(i, p, hold_is_checked=hold_is_checked)
    spaces = [track_space(p.notoriety) for p in state.players]
    assert len(set(spaces)) == len(spaces), f"two markers share a track space: {spaces}"
    _check_pieces(state)
    assert len(set(state.sacked)) == len(state.sacked)


def _check_supplies(state: State) -> None:
    """Resources, hostages, trade winds and pesos: supply plus what the seats hold is constant."""
    players = state.players
    s = state.supply
    holds = [p.hold for p in players]
    for name, held in (
        ("gunpowder", sum(h.gunpowder for h in holds)),
        ("goods", sum(h.goods for h in holds)),
        ("rum", sum(h.rum for h in holds)),
    ):
        total = getattr(s, name) + held
        assert total == RESOURCE_SUPPLY, f"{name}: {total} in play, expected {RESOURCE_SUPPLY}"
    hostages = s.hostages + sum(p.hold.hostages + p.plank for p in players)
    assert hostages == HOSTAGE_SUPPLY, f"hostages: {hostages}"
    winds = s.winds + sum(int(p.wind_held) + p.winds_spent for p in players)
    assert winds == TRADE_WIND_SUPPLY, f"trade winds: {winds}"
    pesos = sum(p.hold.pesos + p.chest for p in players)
    assert pesos == state.pesos_issued, f"pesos: {pesos} held, ledger {state.pesos_issued}"


def _check_player(i: int, p: Player, *, hold_is_checked: bool) -> None:
    """One seat's board: counts never negative, captains and dice in range, tokens fitted legally."""
    h = p.hold
    for name, amount in (
        ("pesos", h.pesos),
        ("gunpowder", h.gunpowder),
        ("goods", h.goods),
        ("rum", h.rum),
        ("hostages", h.hostages),
    ):
        assert amount >= 0, f"seat {i} holds {name} < 0"
    assert p.chest >= 0
    assert p.notoriety >= 1
    hand = set(p.hand)
    assert len(hand) == len(p.hand)
    assert hand <= _CAPTAINS
    assert 0 <= p.sections <= 2
    assert len(p.dice) + len(p.trail) <= 3
    assert sum(d.wind for d in p.trail) <= p.winds_spent
    fitted_tokens = set()
    fitted_slots = set()
    for f in p.fitted:
        slot = SLOT_BY_ID[f.slot]
        kind = TOKENS[f.token]
        assert slot.section <= p.sections
        assert (slot.type, slot.border) == (kind.slot, kind.border)
        fitted_tokens.add(f.token)
        fitted_slots.add(f.slot)
    assert len(fitted_slots) == len(p.fitted)
    assert fitted_tokens.issuperset(p.face_down)
    if hold_is_checked:
        assert h.total <= capacity(p.sections), f"seat {i} over capacity outside step 5"


def _check_pieces(state: State) -> None:
    """Every token, merchant card and navy card in exactly one place."""
    players = state.players
    tokens = [*state.display, *(t for pile in state.piles for t in (*pile.hidden, *pile.discard))]
    tokens += [f.token for p in players for f in p.fitted]
    check_conserved("tokens", tokens, _ALL_TOKENS)
    cards = [r.card for r in state.routes]
    cards += [c for deck in state.decks for c in (*deck.hidden, *deck.bottom)]
    cards += [c for p in players for c in p.plundered]
    check_conserved("merchant cards", cards, _ALL_MERCHANTS)
    navy = [*state.navy.phase1, *state.navy.phase2, *state.navy.bottom, *state.navy_display]
    expected = _navy_cards(state.config.seats, finished=type(state.phase).__name__ == "Finished")
    check_conserved("navy cards", navy, expected)
