"""Navegador, as the seed describes it (spec: shared/rules/navegador.md).

Portuguese trading houses move on a seven-space rondel, hold buildings in Lisbon, explore the
sea route to Asia, found colonies, sell goods and buy knights, which multiply the final score.
Perfect information; the only random draws are the starting player (and optional colours).

`RULES` is rules version 2 (new games): Buildings, Sailing, Colony and sales choices are asked step
by step (stepwise.py). `LEGACY_RULES` keeps version 1 (every combination as one action) for games
created under it, unchanged.
"""

from __future__ import annotations

import dataclasses

from flotilla.rules import GameRules, Rng, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.inits import compile_inits

from . import stepwise
from .actions import ACTION_TYPES, STEP_ACTION_TYPES, Action
from .config import Config
from .describe import DESCRIBER
from .events import EVENT_TYPES, STEP_EVENT_TYPES, Event
from .invariants import check_invariants
from .rebuild import from_view
from .rules import apply, default_action, legal_actions, to_act
from .scoring import result
from .setup import new_game
from .state import State
from .views import View, redact, view


def determinize(state: State, _seat: Seat, rng: Rng) -> State:
    """Nothing is hidden (spec 7): the same state, with only the (unused after setup) RNG replaced."""
    return evolve(state, rng=rng)


RULES_V1: GameRules[Config, State, Action, Event, View] = GameRules(
    name="navegador",
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

RULES: GameRules[Config, State, Action, Event, View] = dataclasses.replace(
    RULES_V1,
    version="2",
    action_types=(*ACTION_TYPES, *STEP_ACTION_TYPES),
    event_types=(*EVENT_TYPES, *STEP_EVENT_TYPES),
    legal_actions=stepwise.legal_actions,
    apply=stepwise.apply,
)
LEGACY_RULES = (RULES_V1,)

compile_inits(RULES_V1)
compile_inits(RULES)

__all__ = ["LEGACY_RULES", "RULES", "RULES_V1"]
