"""Rules errors, the `RulesError` branch of the error tree drawn in `flotilla.errors` (where they
are defined): engines import them from here, their own layer. Nothing was applied when one is raised.
"""

from __future__ import annotations

from flotilla.errors import (
    CannotAfford,
    GameFinished,
    IllegalAction,
    InvalidAction,
    InvalidConfig,
    NotYourTurn,
    RulesError,
)

__all__ = [
    "CannotAfford",
    "GameFinished",
    "IllegalAction",
    "InvalidAction",
    "InvalidConfig",
    "NotYourTurn",
    "RulesError",
]
