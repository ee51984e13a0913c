"""Derived numbers of a personal display (swords, VP, ability counts), spec §0.2, §2.6."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CARDS, CardId, Colour, Kind, Role

_ROLE = {c: info.role for c, info in CARDS.items()}
_VP = {c: info.vp for c, info in CARDS.items()}
_SWORDS = {c: info.swords for c, info in CARDS.items()}
_COLOUR = {c: info.colour for c, info in CARDS.items()}


def swords(display: Iterable[CardId]) -> int:
    """Sum of Sailor and Pirate swords."""
    return sum(_SWORDS[c] for c in display)


def display_vp(display: Iterable[CardId]) -> int:
    """Printed VP of persons and expeditions in a personal display."""
    return sum(_VP[c] for c in display)


def count_role(display: Iterable[CardId], role: Role) -> int:
    """How many persons of `role` the display holds."""
    return sum(1 for c in display if _ROLE[c] is role)


def count_role_colour(display: Iterable[CardId], role: Role, colour: Colour) -> int:
    """How many persons of `role` and `colour` (Traders, Clerks) the display holds."""
    return sum(1 for c in display if _ROLE[c] is role and _COLOUR[c] is colour)


def harbor_colours(harbor: Iterable[CardId]) -> int:
    """Distinct ship colours in the harbor display."""
    return len({_COLOUR[c] for c in harbor if CARDS[c].kind is Kind.SHIP})


def harbor_ships(harbor: Iterable[CardId]) -> int:
    """Ships in the harbor display."""
    return sum(1 for c in harbor if CARDS[c].kind is Kind.SHIP)


def hire_price(display: Iterable[CardId], card: CardId) -> int:
    """Printed cost minus one per Mademoiselle, not below 0."""
    return max(0, CARDS[card].cost - count_role(display, Role.MADEMOISELLE))
