"""A seat taken in a game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat taken in a game: its index and the token that acts for it."""

    game: str
    seat: int
    token: str
