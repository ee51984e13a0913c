"""Options a Navegador game is created with."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import InvalidConfig

from .tables import MAX_SEATS, MIN_SEATS


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """`seats` players (2-5, no rule changes by count, R21); colours dealt at random if asked (spec 6)."""

    seats: int = 3
    random_colours: bool = False

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            msg = f"navegador is for {MIN_SEATS} to {MAX_SEATS} players, not {self.seats}"
            raise InvalidConfig(msg, seats=str(self.seats))
