"""Pirates of Nassau (Gung Ho Games): raid merchants and ports, evade the Royal Navy, bury treasure.

Rules: rules/pirates-of-nassau.md (2-5 seats; 2 is the designed variant).
"""

from __future__ import annotations

from flotilla.rules import GameRules
from flotilla.rules.inits import compile_inits

from .actions import ACTION_TYPES
from .config import Config
from .describe import DESCRIBER
from .events import EVENT_TYPES
from .invariants import check_invariants
from .rebuild import from_view
from .rules import apply, default_action, legal_actions, to_act
from .scoring import result
from .setup import new_game
from .state import State
from .views import View, determinize, redact, view

RULES = GameRules(
    name="pirates_of_nassau",
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
    max_steps=20_000,
    describer=DESCRIBER,
    from_view=from_view,
)

compile_inits(RULES)

__all__ = ["RULES", "Config"]
