"""Buildings (4.3), Colony (4.6) and the displacement chain (4.9, R5-R8, R20)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat, Transition
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import ids
from .actions import (
    Action,
    DeclineBuilding,
    PlaceOnBuilding,
    PlaceOnColony,
    Relocate,
    ReturnToLisbon,
    StopColonizing,
)
from .economy import receive, with_player
from .events import (
    BuildingDeclined,
    ColonizingStopped,
    Event,
    WorkersDisplaced,
    WorkersPlaced,
    WorkersRelocated,
    WorkersReturned,
)
from .state import Colonies, Displaced, Holding, State
from .tables import BUILDING_IDS, COLONY_IDS, COLONY_REGION, DISPLACED_TO_LISBON_PER_WORKER
from .turns import end_turn


def _holder_error(holding: Holding, seat: Seat, workers: int, place: str) -> str | None:
    """Why `workers` of `seat` may not go onto `holding` (None if they may)."""
    if holding.owner is None or holding.owner == seat or workers >= holding.workers + 1:
        return None
    return (
        f"{place} is held by seat {holding.owner} with {holding.workers} workers; "
        f"you need at least {holding.workers + 1}"
    )


def _placement_error(state: State, seat: Seat, holding: Holding, workers: int, place: str) -> str | None:
    if workers < 1:
        return "place at least 1 worker"
    lisbon = state.players[seat].lisbon
    if workers > lisbon:
        return f"you have only {lisbon} workers in Lisbon"
    return _holder_error(holding, seat, workers, place)


def least_workers(holding: Holding, seat: Seat) -> int:
    """The fewest workers `seat` may place on `holding` (one more than another holder's)."""
    return 1 if holding.owner in (None, seat) else holding.workers + 1


def pick_error(state: State, seat: Seat, *, on_colony: bool, index: int) -> str | None:
    """Why no number of `seat`'s workers may go onto this building or colony now (None if some may)."""
    if on_colony:
        holding, place = state.colonies[index], COLONY_IDS[index]
        ship = _no_ship_error(state, seat, index)
        if ship:
            return ship
    else:
        holding, place = state.buildings[index], BUILDING_IDS[index]
    return _placement_error(state, seat, holding, least_workers(holding, seat), place)


def _no_ship_error(state: State, seat: Seat, colony: int) -> str | None:
    if state.players[seat].ships[COLONY_REGION[colony]] > 0:
        return None
    return f"{COLONY_IDS[colony]} needs one of your ships in SR{COLONY_REGION[colony]} next to it (R6)"


def _put(state: State, seat: Seat, on_colony: bool, index: int, workers: int) -> tuple[State, Holding]:
    """Stand `workers` of `seat` on a place; returns the new state and the holding it replaced."""
    places = state.colonies if on_colony else state.buildings
    old = places[index]
    new = Holding(owner=seat, workers=old.workers + workers if old.owner == seat else workers)
    places = replace_at(places, index, new)
    state = evolve(state, colonies=places) if on_colony else evolve(state, buildings=places)
    return state, old


def _place_from_lisbon(
    state: State, active: Seat, *, on_colony: bool, index: int, workers: int, events: list[Event]
) -> State:
    p = state.players[active]
    state = with_player(state, active, evolve(p, lisbon=p.lisbon - workers))
    state, old = _put(state, active, on_colony, index, workers)
    place = COLONY_IDS[index] if on_colony else BUILDING_IDS[index]
    events.append(WorkersPlaced(active, place, workers, state_holding(state, on_colony, index).workers))
    state, _ = _displace(state, active, old, new_owner=active, place=place, on_colony=on_colony, events=events)
    return state


def state_holding(state: State, on_colony: bool, index: int) -> Holding:
    return state.colonies[index] if on_colony else state.buildings[index]


def _displace(
    state: State,
    active: Seat,
    old: Holding,
    *,
    new_owner: Seat,
    place: str,
    on_colony: bool,
    events: list[Event],
) -> tuple[State, bool]:
    """If `old` was another player's group, that player must now decide where it goes (R7)."""
    if old.owner is None or old.owner == new_owner:
        return state, False
    events.append(WorkersDisplaced(old.owner, place, old.workers))
    phase = Displaced(active=active, seat=old.owner, workers=old.workers, origin=place, on_colony=on_colony)
    return evolve(state, phase=phase), True


# --- Buildings ---


def legal_buildings(state: State, seat: Seat) -> tuple[Action, ...]:
    out: list[Action] = [DeclineBuilding()]
    lisbon = state.players[seat].lisbon
    for b, holding in enumerate(state.buildings):
        low = least_workers(holding, seat)
        out.extend(PlaceOnBuilding(BUILDING_IDS[b], w) for w in range(low, lisbon + 1))
    return tuple(out)


def decline_building(state: State, seat: Seat) -> Transition[State, Event]:
    return end_turn(state, seat, [BuildingDeclined(seat)])


def place_on_building(state: State, seat: Seat, action: PlaceOnBuilding) -> Transition[State, Event]:
    b = ids.building(action.building)
    w = ids.count(action.workers, "workers")
    error = _placement_error(state, seat, state.buildings[b], w, action.building)
    if error:
        raise IllegalAction(error, building=action.building, workers=str(w))
    events: list[Event] = []
    state = _place_from_lisbon(state, seat, on_colony=False, index=b, workers=w, events=events)
    if isinstance(state.phase, Displaced):
        return Transition(state, tuple(events))
    return end_turn(state, seat, events)


# --- Colony ---


def legal_colonies(state: State, seat: Seat) -> tuple[Action, ...]:
    out: list[Action] = [StopColonizing()]
    p = state.players[seat]
    for c, holding in enumerate(state.colonies):
        if p.ships[COLONY_REGION[c]] == 0:
            continue
        low = least_workers(holding, seat)
        out.extend(PlaceOnColony(COLONY_IDS[c], w) for w in range(low, p.lisbon + 1))
    return tuple(out)


def stop_colonizing(state: State, seat: Seat) -> Transition[State, Event]:
    return end_turn(state, seat, [ColonizingStopped(seat)])


def place_on_colony(state: State, seat: Seat, action: PlaceOnColony) -> Transition[State, Event]:
    c = ids.colony(action.colony)
    w = ids.count(action.workers, "workers")
    error = _no_ship_error(state, seat, c) or _placement_error(state, seat, state.colonies[c], w, action.colony)
    if error:
        raise IllegalAction(error, colony=action.colony, workers=str(w))
    events: list[Event] = []
    state = _place_from_lisbon(state, seat, on_colony=True, index=c, workers=w, events=events)
    return Transition(state, tuple(events))


# --- Displacement (out of turn) ---


def legal_displaced(state: State, phase: Displaced) -> tuple[Action, ...]:
    out: list[Action] = [ReturnToLisbon()]
    q, m = phase.seat, phase.workers
    if phase.on_colony:
        ships = state.players[q].ships
        out.extend(
            Relocate(COLONY_IDS[c])
            for c, h in enumerate(state.colonies)
            if COLONY_IDS[c] != phase.origin and ships[COLONY_REGION[c]] > 0 and _holder_error(h, q, m, "") is None
        )
    else:
        out.extend(
            Relocate(BUILDING_IDS[b])
            for b, h in enumerate(state.buildings)
            if BUILDING_IDS[b] != phase.origin and _holder_error(h, q, m, "") is None
        )
    return tuple(out)


def _resume(state: State, phase: Displaced, events: list[Event]) -> Transition[State, Event]:
    """The chain is over: back to the Colony action, or end the Buildings turn."""
    if phase.on_colony:
        return Transition(evolve(state, phase=Colonies(active=phase.active)), tuple(events))
    return end_turn(state, phase.active, events)


def return_to_lisbon(state: State, phase: Displaced) -> Transition[State, Event]:
    q, m = phase.seat, phase.workers
    p = state.players[q]
    state = with_player(state, q, evolve(p, lisbon=p.lisbon + m))
    paid = DISPLACED_TO_LISBON_PER_WORKER * m
    state = receive(state, q, paid)
    return _resume(state, phase, [WorkersReturned(q, m, paid)])


def relocate(state: State, phase: Displaced, action: Relocate) -> Transition[State, Event]:
    q, m = phase.seat, phase.workers
    if phase.on_colony:
        index = ids.colony(action.place)
        error = _no_ship_error(state, q, index)
    else:
        index = ids.building(action.place)
        error = None
    if action.place == phase.origin:
        error = f"the group must go to another {'colony' if phase.on_colony else 'building'} or to Lisbon"
    places = state.colonies if phase.on_colony else state.buildings
    error = error or _holder_error(places[index], q, m, action.place)
    if error:
        raise IllegalAction(error, place=action.place)
    state, old = _put(state, q, phase.on_colony, index, m)
    events: list[Event] = [WorkersRelocated(q, action.place, m, state_holding(state, phase.on_colony, index).workers)]
    state, chained = _displace(
        state, phase.active, old, new_owner=q, place=action.place, on_colony=phase.on_colony, events=events
    )
    if chained:
        return Transition(state, tuple(events))
    return _resume(state, phase, events)
