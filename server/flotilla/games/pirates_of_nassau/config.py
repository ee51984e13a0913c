"""Game options."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import InvalidConfig

MIN_SEATS = 2
MAX_SEATS = 5


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """2-5 seats (3-5 as published; 2 is the designed variant of §3.2)."""

    seats: int = 4

    def __post_init__(self) -> None:
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            msg = f"Pirates of Nassau is for {MIN_SEATS}-{MAX_SEATS} seats, not {self.seats}"
            raise InvalidConfig(msg, seats=str(self.seats))

    @property
    def display_size(self) -> int:
        """D = V: tokens per pile in Nassau and navy cards revealed (3 for 2 players)."""
        return max(self.seats, 3)
