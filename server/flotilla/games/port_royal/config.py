"""Game options: mode (spec §1) and the co-op difficulty (spec §3.3 step 5)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from flotilla.rules import InvalidConfig

from .tables import MAX_DIFFICULTY


class Mode(enum.Enum):
    """The four modes of spec §1."""

    BASE = "base"
    BASE_PLUS = "base_plus"
    CONTRACT_COMP = "contract_comp"
    CONTRACT_COOP = "contract_coop"


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """`seats` players; `mode`; `difficulty` = k time cards moved to the victory pile (co-op only)."""

    seats: int = 2
    mode: Mode = Mode.BASE
    difficulty: int = 0

    def __post_init__(self) -> None:
        low = 1 if self.mode is Mode.CONTRACT_COOP else 2
        if not low <= self.seats <= 5:
            msg = f"{self.mode.value} is for {low}-5 players, not {self.seats}"
            raise InvalidConfig(msg, option="seats")
        if self.mode is not Mode.CONTRACT_COOP and self.difficulty != 0:
            msg = "difficulty applies to the contract_coop mode only"
            raise InvalidConfig(msg, option="difficulty")
        if not 0 <= self.difficulty <= MAX_DIFFICULTY:
            msg = f"difficulty must be 0..{MAX_DIFFICULTY}, got {self.difficulty}"
            raise InvalidConfig(msg, option="difficulty")

    @property
    def expansion(self) -> bool:
        """The new persons and ships are in the deck."""
        return self.mode is not Mode.BASE

    @property
    def contracts(self) -> bool:
        """Contracts are in play."""
        return self.mode is Mode.CONTRACT_COMP or self.mode is Mode.CONTRACT_COOP

    @property
    def coop(self) -> bool:
        """The co-operative mode."""
        return self.mode is Mode.CONTRACT_COOP
