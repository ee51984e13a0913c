"""Sailing (4.5, D6, R9, R10, R27): fleets declared one at a time, each checked against the board as it is."""

from __future__ import annotations

from collections import deque
from functools import cache

from flotilla.rules import IllegalAction, Seat, Transition
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import ids
from .actions import Action, SailFleet, StopSailing
from .economy import lose_ships, move_ships, receive
from .events import Event, FleetSailed, RegionExplored, SailingStopped
from .state import Sailing, State
from .tables import (
    EXPLORATION_BONUS,
    EXPLORATION_MIN_SHIPS,
    EXPLORATION_SHIP_LOSS,
    NEIGHBOURS,
    REGION_IDS,
)
from .turns import end_turn

REGIONS = len(REGION_IDS)


def explored_mask(state: State) -> int:
    mask = 1
    for r, owner in enumerate(state.tiles):
        if owner is not None:
            mask |= 1 << r
    return mask


@cache
def distances(origin: int, mask: int) -> tuple[int, ...]:
    """Shortest path length from `origin` to every region through explored regions only (-1: no path).

    An unexplored region can be a destination but never a waypoint.
    """
    dist = [-1] * REGIONS
    dist[origin] = 0
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for nxt in NEIGHBOURS[here]:
            if dist[nxt] < 0:
                dist[nxt] = dist[here] + 1
                if mask >> nxt & 1:
                    queue.append(nxt)
    return tuple(dist)


def fleet_error(state: State, seat: Seat, phase: Sailing, *, origin: int, ships: int, dest: int) -> str | None:
    """Why this fleet may not sail now (None if it may)."""
    available = state.players[seat].ships[origin] - phase.moved[origin]
    if ships < 1:
        return "a fleet needs at least 1 ship"
    if ships > available:
        return f"only {available} of your ships in {REGION_IDS[origin]} can still move this action"
    if dest == origin:
        return "a fleet must cross at least one border"
    length = distances(origin, explored_mask(state))[dest]
    if length < 0:
        return f"no path from {REGION_IDS[origin]} to {REGION_IDS[dest]} through explored regions"
    arrive = ships - max(0, length - state.knight_phase)
    if state.tiles[dest] is not None or dest == 0:
        if arrive < 1:
            return f"the voyage costs {ships - arrive} ships; no ship would arrive"
        return None
    if phase.explored:
        return "only one exploration per Sailing action"
    if arrive < EXPLORATION_MIN_SHIPS:
        need = EXPLORATION_MIN_SHIPS
        return f"exploring needs {need} ships arriving in one fleet; {max(arrive, 0)} would arrive"
    return None


def legal(state: State, seat: Seat, phase: Sailing) -> tuple[Action, ...]:
    out: list[Action] = [StopSailing()]
    mask = explored_mask(state)
    free = state.knight_phase
    ships = state.players[seat].ships
    for origin in range(REGIONS):
        available = ships[origin] - phase.moved[origin]
        if available <= 0:
            continue
        dist = distances(origin, mask)
        for dest in range(REGIONS):
            length = dist[dest]
            if length <= 0:
                continue
            cost = max(0, length - free)
            if mask >> dest & 1:
                low = cost + 1
            elif phase.explored:
                continue
            else:
                low = cost + EXPLORATION_MIN_SHIPS
            out.extend(SailFleet(REGION_IDS[origin], k, REGION_IDS[dest]) for k in range(low, available + 1))
    return tuple(out)


def stop(state: State, seat: Seat) -> Transition[State, Event]:
    return end_turn(state, seat, [SailingStopped(seat)])


def sail(state: State, seat: Seat, phase: Sailing, action: SailFleet) -> Transition[State, Event]:
    origin = ids.region(action.origin)
    dest = ids.region(action.destination)
    k = ids.count(action.ships, "ships")
    error = fleet_error(state, seat, phase, origin=origin, ships=k, dest=dest)
    if error:
        raise IllegalAction(error, origin=action.origin, destination=action.destination, ships=str(k))
    length = distances(origin, explored_mask(state))[dest]
    lost = max(0, length - state.knight_phase)
    arrived = k - lost
    state = lose_ships(state, seat, origin, lost)
    state = move_ships(state, seat, origin, dest, arrived)
    events: list[Event] = [FleetSailed(seat, action.origin, action.destination, length, k, lost, arrived)]
    explored = phase.explored
    stay = arrived
    if dest != 0 and state.tiles[dest] is None:
        state = lose_ships(state, seat, dest, EXPLORATION_SHIP_LOSS)
        state = evolve(state, tiles=replace_at(state.tiles, dest, seat))
        state = receive(state, seat, EXPLORATION_BONUS[dest])
        events.append(RegionExplored(seat, action.destination, EXPLORATION_SHIP_LOSS, EXPLORATION_BONUS[dest]))
        explored = True
        stay -= EXPLORATION_SHIP_LOSS
    moved = replace_at(phase.moved, dest, phase.moved[dest] + stay)
    state = evolve(state, phase=Sailing(active=seat, moved=moved, explored=explored))
    return Transition(state, tuple(events))
