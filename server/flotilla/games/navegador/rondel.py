"""The rondel move (spec 4.1, D2, R2-R4)."""

from __future__ import annotations

from flotilla.rules import CannotAfford, IllegalAction, InvalidAction, Seat, Transition
from flotilla.rules.evolve import evolve

from . import ids
from .actions import Action, MoveMarker, PlaceMarker, SacrificeShip
from .economy import lose_ships, receive, with_player
from .events import Event, MarkerMoved, MarkerPlaced, ShipSacrificed
from .state import PayShips, State
from .tables import FREE_RONDEL_STEPS, KNIGHT_PASSING_BONUS, PORTUGAL, REGION_IDS, RONDEL_SIZE, SPACES, Space
from .turns import action_phase

MAX_STEPS = RONDEL_SIZE


def step_cost(steps: int) -> int:
    """Ships owed for a move of `steps`: every step beyond 3 costs one."""
    return max(0, steps - FREE_RONDEL_STEPS)


def passes_knight(start: Space, steps: int) -> bool:
    """True if the Knight space lies strictly between the start and the destination (R2)."""
    return any((start.value + i) % RONDEL_SIZE == Space.KNIGHT.value for i in range(1, steps))


_PLACEMENTS: tuple[Action, ...] = tuple(PlaceMarker(s) for s in SPACES)
_MOVES = tuple(MoveMarker(d) for d in range(1, MAX_STEPS + 1))


def legal(state: State, seat: Seat) -> tuple[Action, ...]:
    p = state.players[seat]
    if p.rondel is None:
        return _PLACEMENTS
    ships = sum(p.ships)
    return tuple(m for m in _MOVES if step_cost(m.steps) <= ships)


def default(state: State, seat: Seat) -> Action:
    """First turn: Sailing; later: one free step."""
    return PlaceMarker(Space.SAILING) if state.players[seat].rondel is None else MoveMarker(1)


def default_sacrifice(state: State, seat: Seat) -> Action:
    """Portugal first, then the region with the most own ships (lowest id on ties)."""
    ships = state.players[seat].ships
    if ships[PORTUGAL] > 0:
        return SacrificeShip(REGION_IDS[PORTUGAL])
    best = max(range(len(ships)), key=lambda r: (ships[r], -r))
    return SacrificeShip(REGION_IDS[best])


def legal_sacrifice(state: State, seat: Seat) -> tuple[Action, ...]:
    return tuple(SacrificeShip(REGION_IDS[r]) for r, n in enumerate(state.players[seat].ships) if n > 0)


def place(state: State, seat: Seat, action: PlaceMarker) -> Transition[State, Event]:
    if not isinstance(action.space, Space):
        msg = f"unknown rondel space {action.space!r}"
        raise InvalidAction(msg)
    if state.players[seat].rondel is not None:
        msg = "the marker is already on the rondel; move it with MoveMarker"
        raise IllegalAction(msg)
    state = with_player(state, seat, evolve(state.players[seat], rondel=action.space))
    state = evolve(state, phase=action_phase(state, seat, action.space))
    return Transition(state, (MarkerPlaced(seat, action.space),))


def move(state: State, seat: Seat, action: MoveMarker) -> Transition[State, Event]:
    steps = action.steps
    if type(steps) is not int or not 0 <= steps <= MAX_STEPS:
        msg = f"steps must be 1..{MAX_STEPS}, got {steps!r}"
        raise InvalidAction(msg, steps=str(steps))
    p = state.players[seat]
    if p.rondel is None:
        msg = "first turn: place the marker on any space with PlaceMarker"
        raise IllegalAction(msg)
    if steps == 0:
        msg = "the marker may not stay on its space; move 1..7 steps (7 repeats the action)"
        raise IllegalAction(msg, steps="0")
    cost = step_cost(steps)
    if cost > sum(p.ships):
        msg = f"moving {steps} steps costs {cost} ships; you have {sum(p.ships)}"
        raise CannotAfford(msg, steps=str(steps))
    space = SPACES[(p.rondel.value + steps) % RONDEL_SIZE]
    bonus = KNIGHT_PASSING_BONUS if passes_knight(p.rondel, steps) else 0
    state = with_player(state, seat, evolve(p, rondel=space))
    state = receive(state, seat, bonus)
    events: list[Event] = [MarkerMoved(seat, steps, space, cost, bonus)]
    state = _settle(state, seat, space, cost, events)
    return Transition(state, tuple(events))


def sacrifice(state: State, seat: Seat, phase: PayShips, action: SacrificeShip) -> Transition[State, Event]:
    r = ids.region(action.region)
    if state.players[seat].ships[r] == 0:
        msg = f"you have no ship in {action.region}"
        raise IllegalAction(msg, region=action.region)
    state = lose_ships(state, seat, r, 1)
    events: list[Event] = [ShipSacrificed(seat, action.region)]
    state = _settle(state, seat, phase.space, phase.owed - 1, events)
    return Transition(state, tuple(events))


def _settle(state: State, seat: Seat, space: Space, owed: int, events: list[Event]) -> State:
    """Take the owed ships where the choice is forced, ask otherwise; then open the action."""
    ships = state.players[seat].ships
    if owed > 0 and (owed == sum(ships) or sum(1 for n in ships if n > 0) == 1):
        for r, n in enumerate(ships):
            take = min(n, owed)
            if take:
                state = lose_ships(state, seat, r, take)
                events.extend(ShipSacrificed(seat, REGION_IDS[r]) for _ in range(take))
                owed -= take
    if owed > 0:
        return evolve(state, phase=PayShips(active=seat, space=space, owed=owed))
    return evolve(state, phase=action_phase(state, seat, space))
