"""The shared frame for rules engines: pure, stdlib only."""

from flotilla.rules.errors import (
    CannotAfford,
    GameFinished,
    IllegalAction,
    InvalidAction,
    InvalidConfig,
    NotYourTurn,
    RulesError,
)
from flotilla.rules.rng import Rng, draw, draw_many, shuffled
from flotilla.rules.types import GameRules, Result, Seat, Transition

__all__ = [
    "CannotAfford",
    "GameFinished",
    "GameRules",
    "IllegalAction",
    "InvalidAction",
    "InvalidConfig",
    "NotYourTurn",
    "Result",
    "Rng",
    "RulesError",
    "Seat",
    "Transition",
    "draw",
    "draw_many",
    "shuffled",
]
