"""Expeditions (spec §4.7): which persons may pay for one, and fulfilling it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from flotilla.rules import Seat

from .cards import CARDS, ORDER, CardId, Role, Symbol
from .events import CoinReason, ExpeditionFulfilled
from .work import Work


def covers(needs: tuple[Symbol, ...], persons: tuple[CardId, ...]) -> bool:
    """`persons` (distinct cards) cover every symbol of `needs` one-to-one; Jacks cover any one."""
    if len(persons) != len(needs):
        return False
    want = Counter(needs)
    for card in persons:
        info = CARDS[card]
        if info.role is Role.JACK:
            continue
        if info.symbol is None or want[info.symbol] == 0:
            return False
        want[info.symbol] -= 1
    return True


def payments(display: Sequence[CardId], expedition: CardId) -> list[tuple[CardId, ...]]:
    """Every canonical-order set of persons in `display` that fulfils `expedition`."""
    needs = CARDS[expedition].needs
    useful = [c for c in display if CARDS[c].role is Role.JACK or CARDS[c].symbol in needs]
    if len(useful) < len(needs):
        return []

    useful.sort(key=ORDER.__getitem__)
    return [combo for combo in combinations(useful, len(needs)) if covers(needs, combo)]


def fulfil(w: Work, seat: Seat, expedition: CardId, persons: tuple[CardId, ...]) -> None:
    """Discard the persons, take the expedition, gain its coins (legality checked by the caller)."""
    p = w.players[seat]
    for card in persons:
        p.display.remove(card)
        w.discard.append(card)
    w.expeditions.remove(expedition)
    p.display.append(expedition)
    w.emit(ExpeditionFulfilled(seat, expedition, persons))
    w.gain(seat, CARDS[expedition].coins, CoinReason.EXPEDITION)
