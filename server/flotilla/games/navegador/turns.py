"""Turn flow: starting an action from the rondel space, end-of-turn income (4.10) and the game end (4.11)."""

from __future__ import annotations

from flotilla.rules import Seat, Transition
from flotilla.rules.evolve import evolve

from . import scoring
from .economy import held_buildings, held_colonies, receive
from .events import Event, GameEnded, IncomeReceived, TurnStarted
from .state import (
    Buildings,
    Colonies,
    Consume,
    Finished,
    Knight,
    Phase,
    Rondel,
    Sailing,
    Ships,
    State,
    Workers,
)
from .tables import (
    ACADEMY,
    ACADEMY_INCOME_PER_REGION,
    BUILDING_IDS,
    CUSTOMS_HOUSE,
    CUSTOMS_INCOME_PER_COLONY,
    KNIGHTS_FOR_SALE,
    PALACE,
    PALACE_INCOME_PER_WORKER,
    RESIDENCE,
    RESIDENCE_INCOME_PER_BUILDING,
    Space,
)

Result = Transition[State, Event]


def action_phase(state: State, seat: Seat, space: Space) -> Phase:
    """The decision that opens the action of `space` for the active `seat`."""
    match space:
        case Space.SAILING:
            return Sailing(active=seat, moved=(0,) * len(state.tiles), explored=False)
        case Space.WORKERS:
            return Workers(active=seat)
        case Space.MARKET:
            return Consume(active=seat, chooser=seat, left=state.config.seats - 1)
        case Space.COLONY:
            return Colonies(active=seat)
        case Space.KNIGHT:
            return Knight(active=seat)
        case Space.SHIPS:
            return Ships(active=seat)
        case Space.BUILDINGS:
            return Buildings(active=seat)


def income(state: State, seat: Seat) -> tuple[int, int] | None:
    """(building index, amount) the active `seat` earns at the end of this turn, if any (4.10, R16)."""
    space = state.players[seat].rondel
    building: int
    if space is Space.BUILDINGS:
        building = RESIDENCE
        amount = RESIDENCE_INCOME_PER_BUILDING * held_buildings(state, seat)
    elif space is Space.SAILING:
        building = ACADEMY
        amount = ACADEMY_INCOME_PER_REGION * sum(1 for n in state.players[seat].ships if n > 0)
    elif space is Space.COLONY:
        building = CUSTOMS_HOUSE
        amount = CUSTOMS_INCOME_PER_COLONY * held_colonies(state, seat)
    elif space is Space.KNIGHT:
        building = PALACE
        amount = PALACE_INCOME_PER_WORKER * state.players[seat].lisbon
    else:
        return None
    if state.buildings[building].owner != seat:
        return None
    return building, amount


def start_turn(state: State, seat: Seat, events: list[Event]) -> State:
    turn = state.turn + 1
    events.append(TurnStarted(seat, turn))
    return evolve(state, phase=Rondel(active=seat), turn=turn)


def end_turn(state: State, seat: Seat, events: list[Event]) -> Result:
    """Pay the active player's end-of-turn income, then pass the turn on or end the game."""
    earned = income(state, seat)
    if earned is not None:
        building, amount = earned
        state = receive(state, seat, amount)
        events.append(IncomeReceived(seat, BUILDING_IDS[building], amount))
    if state.knights_sold >= KNIGHTS_FOR_SALE:
        state = evolve(state, phase=Finished())
        outcome = scoring.result(state)
        assert outcome is not None
        events.append(GameEnded(outcome.scores, tuple(sorted(outcome.winners))))
        return Transition(state, tuple(events))
    state = start_turn(state, Seat((seat + 1) % state.config.seats), events)
    return Transition(state, tuple(events))
