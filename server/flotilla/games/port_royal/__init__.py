"""Port Royal with the "Just One More Contract" expansion (spec: shared/rules/port-royal.md)."""

from __future__ import annotations

from flotilla.rules import GameRules
from flotilla.rules.inits import compile_inits

from .actions import ACTION_TYPES, Action
from .config import Config, Mode
from .describe import DESCRIBER
from .events import EVENT_TYPES, Event
from .hidden import determinize, from_view
from .invariants import check_invariants
from .rules import apply, default_action, legal_actions, to_act
from .scoring import result
from .setup import new_game
from .state import State
from .views import View, redact, view

RULES: GameRules[Config, State, Action, Event, View] = GameRules(
    name="port_royal",
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
    max_steps=60_000,
    describer=DESCRIBER,
    from_view=from_view,
)

compile_inits(RULES)

__all__ = ["RULES", "Config", "Mode"]
