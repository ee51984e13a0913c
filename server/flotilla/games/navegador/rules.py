"""Dispatch: who acts, what is legal, what an action does, and the timer defaults (spec section 5)."""

from __future__ import annotations

from collections.abc import Callable

from flotilla.rules import GameFinished, IllegalAction, InvalidAction, NotYourTurn, Seat, Transition

from . import draft, knights, market, placement, purchases, rondel, sailing
from .actions import (
    ACTION_TYPES,
    Action,
    BuyKnight,
    BuyShips,
    BuyWorkers,
    ChooseBuilding,
    ConsumeGood,
    DeclineBuilding,
    DeclineKnight,
    MoveMarker,
    PlaceMarker,
    PlaceOnBuilding,
    PlaceOnColony,
    Relocate,
    ReturnToLisbon,
    SacrificeShip,
    SailFleet,
    SellGoods,
    StopColonizing,
    StopSailing,
)
from .events import Event
from .state import (
    Buildings,
    Colonies,
    Consume,
    Displaced,
    Draft,
    Finished,
    Knight,
    PayShips,
    Phase,
    Rondel,
    Sailing,
    Sell,
    Ships,
    State,
    Workers,
)


def deciding(phase: Phase) -> Seat | None:
    """The one seat that decides now (spec 5: a single seat acts at any time)."""
    match phase:
        case Draft(chooser=s) | Consume(chooser=s) | Displaced(seat=s):
            return s
        case Finished():
            return None
        case _:
            return phase.active


def to_act(state: State) -> frozenset[Seat]:
    seat = deciding(state.phase)
    return frozenset() if seat is None else frozenset({seat})


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    """Every action `apply` accepts from `seat` now, in a stable order; () if `seat` is not to act."""
    if deciding(state.phase) != seat:
        return ()
    match state.phase:
        case Draft():
            return draft.legal(state)
        case Rondel():
            return rondel.legal(state, seat)
        case PayShips():
            return rondel.legal_sacrifice(state, seat)
        case Workers():
            return purchases.legal_workers(state, seat)
        case Ships():
            return purchases.legal_ships(state, seat)
        case Buildings():
            return placement.legal_buildings(state, seat)
        case Sailing() as phase:
            return sailing.legal(state, seat, phase)
        case Colonies():
            return placement.legal_colonies(state, seat)
        case Consume():
            return market.legal_consume()
        case Sell():
            return market.legal_sell(state, seat)
        case Knight():
            return knights.legal(state, seat)
        case Displaced() as phase:
            return placement.legal_displaced(state, phase)
    return ()


def default_action(state: State, seat: Seat) -> Action:
    """The spec's timeout choice for `seat` (table of section 5); always legal."""
    match state.phase:
        case Draft():
            return draft.default(state)
        case Rondel():
            return rondel.default(state, seat)
        case PayShips():
            return rondel.default_sacrifice(state, seat)
        case Workers():
            return BuyWorkers(0)
        case Ships():
            return BuyShips(0)
        case Buildings():
            return DeclineBuilding()
        case Sailing():
            return StopSailing()
        case Colonies():
            return StopColonizing()
        case Consume():
            return market.default_consume(state)
        case Sell():
            return SellGoods(0, 0, 0)
        case Knight():
            return DeclineKnight()
        case Displaced():
            return ReturnToLisbon()
    msg = "no decision is pending"
    raise IllegalAction(msg)


# Decisions that are taken automatically when exactly one option is legal (a forced pass is no choice).
_AUTOMATIC = (Workers, Ships, Buildings, Sailing, Colonies, Sell, Knight, Displaced)


def apply(state: State, seat: Seat, action: Action) -> Transition[State, Event]:
    """Apply `action` by `seat`; never mutates `state`; raises a RulesError and changes nothing if refused.

    Afterwards, any decision left with a single legal option (say DeclineKnight for a player who
    cannot pay) is taken at once, so nobody is asked to confirm a forced move.
    """
    return settle(apply_once(state, seat, action), legal_actions, apply_once)


Legal = Callable[[State, Seat], tuple[Action, ...]]
Step = Callable[[State, Seat, Action], Transition[State, Event]]


def settle(done: Transition[State, Event], legal: Legal, step: Step) -> Transition[State, Event]:
    """`done`, then every decision left with a single legal option (by `legal`), taken at once by `step`."""
    state, events = done
    while isinstance(state.phase, _AUTOMATIC):
        decider = deciding(state.phase)
        assert decider is not None
        options = legal(state, decider)
        if len(options) != 1:
            break
        state, more = step(state, decider, options[0])
        events += more
    return Transition(state, events)


def apply_once(state: State, seat: Seat, action: Action) -> Transition[State, Event]:
    """One decision, without taking the forced ones after it (`apply` does)."""
    phase = state.phase
    if isinstance(phase, Finished):
        msg = "the game is over"
        raise GameFinished(msg)
    if deciding(phase) != seat:
        msg = f"seat {deciding(phase)} is to act, not seat {seat}"
        raise NotYourTurn(msg, seat=str(seat))
    if type(action) not in ACTION_TYPES:
        msg = f"not a navegador action: {type(action).__name__}"
        raise InvalidAction(msg)
    match phase, action:
        case Draft(), ChooseBuilding():
            return draft.choose(state, seat, phase, action)
        case Rondel(), PlaceMarker():
            return rondel.place(state, seat, action)
        case Rondel(), MoveMarker():
            return rondel.move(state, seat, action)
        case PayShips(), SacrificeShip():
            return rondel.sacrifice(state, seat, phase, action)
        case Workers(), BuyWorkers():
            return purchases.buy_workers(state, seat, action)
        case Ships(), BuyShips():
            return purchases.buy_ships(state, seat, action)
        case Buildings(), PlaceOnBuilding():
            return placement.place_on_building(state, seat, action)
        case Buildings(), DeclineBuilding():
            return placement.decline_building(state, seat)
        case Sailing(), SailFleet():
            return sailing.sail(state, seat, phase, action)
        case Sailing(), StopSailing():
            return sailing.stop(state, seat)
        case Colonies(), PlaceOnColony():
            return placement.place_on_colony(state, seat, action)
        case Colonies(), StopColonizing():
            return placement.stop_colonizing(state, seat)
        case Consume(), ConsumeGood():
            return market.consume(state, seat, phase, action)
        case Sell(), SellGoods():
            return market.sell(state, seat, action)
        case Knight(), BuyKnight():
            return knights.buy(state, seat)
        case Knight(), DeclineKnight():
            return knights.decline(state, seat)
        case Displaced(), ReturnToLisbon():
            return placement.return_to_lisbon(state, phase)
        case Displaced(), Relocate():
            return placement.relocate(state, phase, action)
    msg = f"{type(action).__name__} is not possible now: {type(phase).__name__} is pending"
    raise IllegalAction(msg, phase=type(phase).__name__, action=type(action).__name__)
