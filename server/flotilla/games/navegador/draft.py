"""Setup step 4: the building draft (D1, R23)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat, Transition
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import ids
from .actions import Action, ChooseBuilding
from .economy import with_player
from .events import BuildingChosen, Event
from .state import Draft, Holding, State
from .tables import BUILDING_IDS
from .turns import start_turn


def legal(state: State) -> tuple[Action, ...]:
    return tuple(ChooseBuilding(b) for b, h in zip(BUILDING_IDS, state.buildings, strict=True) if h.owner is None)


def default(state: State) -> Action:
    return legal(state)[0]


def choose(state: State, seat: Seat, phase: Draft, action: ChooseBuilding) -> Transition[State, Event]:
    b = ids.building(action.building)
    if state.buildings[b].owner is not None:
        msg = f"{action.building} is taken; in setup each player picks an empty building (R23)"
        raise IllegalAction(msg, building=action.building)
    p = state.players[seat]
    state = with_player(state, seat, evolve(p, lisbon=p.lisbon - 1))
    state = evolve(state, buildings=replace_at(state.buildings, b, Holding(owner=seat, workers=1)))
    events: list[Event] = [BuildingChosen(seat, action.building)]
    if phase.picks_left > 1:
        state = evolve(
            state, phase=Draft(chooser=Seat((seat + 1) % state.config.seats), picks_left=phase.picks_left - 1)
        )
    else:
        state = start_turn(state, state.start_player, events)
    return Transition(state, tuple(events))
