"""Options of a Sail Away game."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import InvalidConfig

from . import tables


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """2-4 seats; `max_rounds` is the designed round cap (module `rules` docstring, SA-R1)."""

    seats: int = 2
    max_rounds: int = tables.MAX_ROUNDS

    def __post_init__(self) -> None:
        if not tables.PLAYERS_MIN <= self.seats <= tables.PLAYERS_MAX:
            msg = f"Sail Away is for {tables.PLAYERS_MIN}-{tables.PLAYERS_MAX} seats, not {self.seats}"
            raise InvalidConfig(msg, option="seats")
        if not 1 <= self.max_rounds <= 1000:
            msg = f"max_rounds must be 1..1000, got {self.max_rounds}"
            raise InvalidConfig(msg, option="max_rounds")
