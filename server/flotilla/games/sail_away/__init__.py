"""Sail Away (Mattel, 2016) for 2-4 seats: spec `shared/rules/sail-away.md`.

Rulings of this implementation are listed in `rules` (SA-R1..); the round cap is SA-R1.
"""

from __future__ import annotations

from flotilla.rules import GameRules, Result
from flotilla.rules.inits import compile_inits

from .actions import ACTION_TYPES, Action
from .config import Config
from .describe import DESCRIBER
from .events import EVENT_TYPES, Event
from .invariants import check_invariants
from .rebuild import from_view
from .rules import apply, default_action, legal_actions, to_act
from .scoring import final_result
from .setup import new_game
from .state import Phase, State
from .views import View, determinize, redact, view


def result(s: State) -> Result | None:
    """The final result once the game is over."""
    return final_result(s) if s.phase is Phase.FINISHED else None


RULES: GameRules[Config, State, Action, Event, View] = GameRules(
    name="sail_away",
    version="1",
    config_type=Config,
    state_type=State,
    action_types=ACTION_TYPES,
    event_types=EVENT_TYPES,
    view_type=View,
    new_game=new_game,
    to_act=to_act,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    redact=redact,
    default_action=default_action,
    determinize=determinize,
    result=result,
    check_invariants=check_invariants,
    max_steps=100_000,
    describer=DESCRIBER,
    from_view=from_view,
)

compile_inits(RULES)

__all__ = ["RULES", "Config"]
