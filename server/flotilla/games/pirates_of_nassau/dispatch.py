"""`dispatch`: one handler per (phase, action kind), looked up in a table.

Each handler takes `(state, phase, seat, action, events)` and returns the new state, appending
its events. `HANDLERS` is keyed by the exact phase and action classes (none subclasses
another); an action with no entry for the phase falls back to `FREE_HANDLERS` (discarding an
item or walking the plank, allowed in most steps), then to an `IllegalAction`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve

from . import flow, nassau, navy, notoriety, sea
from .actions import (
    AcceptPenalty,
    Action,
    AdjustNotoriety,
    Boost,
    Bury,
    BuySection,
    BuyToken,
    DiscardItem,
    EvadeNavy,
    ExchangePeso,
    FinishBurying,
    FlipFiddler,
    Move,
    MoveMarker,
    Pass,
    Plunder,
    Raid,
    Ransom,
    RerollDie,
    RideTradeWinds,
    SellResources,
    Smuggle,
    TakeLoot,
    TakeNavyCard,
    WalkPlank,
)
from .common import flip, remove
from .events import BoostStaged, FiddlerFlipped, ItemDiscarded, PlankWalked
from .state import (
    Adjusting,
    AfterSmuggle,
    Burying,
    Buying,
    Collision,
    HoldCheck,
    LosingCargo,
    NavyChoice,
    NavyFight,
    NavyPenalty,
    PirateAction,
    PirateMove,
    State,
    TakingLoot,
    with_player,
)
from .tables import Item

Events = list[object]
# (state, phase, seat, action, events) -> new state; phase and action are the key's classes.
Handler = Callable[[State, Any, Seat, Any, Events], State]


def dispatch(state: State, seat: Seat, action: Action, events: Events) -> State:
    """Apply `action` in the current phase; `IllegalAction` when it is not an action of this step."""
    phase = state.phase
    handler = HANDLERS.get((type(phase), type(action))) or FREE_HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(
            f"{type(action).__name__} is not an action of this step ({type(phase).__name__})",
            phase=type(phase).__name__,
            action=type(action).__name__,
        )
    return handler(state, phase, seat, action, events)


# --- Free actions (any step that offers them) ----------------------------------------------------
def discard(state: State, phase: object, seat: Seat, action: DiscardItem, events: Events) -> State:
    state = remove(state, seat, action.item)
    events.append(ItemDiscarded(seat, action.item))
    return state


def walk_plank(state: State, phase: object, seat: Seat, action: WalkPlank, events: Events) -> State:
    p = state.players[seat]
    p = evolve(p, hold=p.hold.add(Item.HOSTAGE, -1), plank=p.plank + 1)
    events.append(PlankWalked(seat))
    return with_player(state, seat, p)


FREE_HANDLERS: dict[type, Handler] = {DiscardItem: discard, WalkPlank: walk_plank}


def _lose_cargo(state: State, phase: LosingCargo, seat: Seat, action: DiscardItem, events: Events) -> State:
    state = discard(state, phase, seat, action, events)
    return navy.continue_losing(
        state, phase.order, phase.index, phase.remaining - 1, phase.notoriety_loss, events=events
    )


def _hold_check(state: State, phase: HoldCheck, seat: Seat, action: DiscardItem | WalkPlank, events: Events) -> State:
    state = FREE_HANDLERS[type(action)](state, phase, seat, action, events)
    return nassau.hold_check_done(state, phase, seat, events)


# --- The pirate turn (sea.py) ---------------------------------------------------------------------
def _reroll(state: State, phase: PirateMove, seat: Seat, action: RerollDie, events: Events) -> State:
    return sea.reroll(state, seat, action, events)


def _move(state: State, phase: PirateMove, seat: Seat, action: Move, events: Events) -> State:
    return sea.move(state, phase, seat, action, events)


def _pass_turn(state: State, phase: PirateAction | AfterSmuggle, seat: Seat, action: Pass, events: Events) -> State:
    return sea.pass_turn(state, phase, seat, events)


def _boost(state: State, phase: PirateAction, seat: Seat, action: Boost, events: Events) -> State:
    return sea.stage_boost(state, phase, seat, action.token, events)


def _plunder(state: State, phase: PirateAction, seat: Seat, action: Plunder, events: Events) -> State:
    return sea.plunder(state, phase, seat, action.captain, events)


def _raid(state: State, phase: PirateAction, seat: Seat, action: Raid, events: Events) -> State:
    return sea.raid(state, phase, seat, action.captain, events)


def _ride_winds(state: State, phase: PirateAction, seat: Seat, action: RideTradeWinds, events: Events) -> State:
    return sea.ride_winds(state, phase, seat, events)


def _smuggle(state: State, phase: PirateAction, seat: Seat, action: Smuggle, events: Events) -> State:
    return sea.smuggle(state, phase, seat, action, events)


def _take_loot(state: State, phase: TakingLoot, seat: Seat, action: TakeLoot, events: Events) -> State:
    return sea.take_loot(state, phase, seat, action, events)


def _ransom(state: State, phase: AfterSmuggle, seat: Seat, action: Ransom, events: Events) -> State:
    return sea.ransom(state, phase, seat, action, events)


# --- Notoriety (step 3) -----------------------------------------------------------------------
def _flip_fiddler(state: State, phase: Adjusting, seat: Seat, action: FlipFiddler, events: Events) -> State:
    state = with_player(state, seat, flip(state.players[seat], action.token))
    events.append(FiddlerFlipped(seat, action.token))
    return evolve(state, phase=evolve(phase, fiddler=True))


def _adjust(state: State, phase: Adjusting, seat: Seat, action: AdjustNotoriety, events: Events) -> State:
    state, waiting = notoriety.score(
        state, 3, phase.order, phase.index, cash_wind=action.cash_wind, fiddler=phase.fiddler, events=events
    )
    return state if waiting else flow.run_step3(state, phase.order, phase.index + 1, events)


def _move_marker(state: State, phase: Collision, seat: Seat, action: MoveMarker, events: Events) -> State:
    return notoriety.resolve_collision(state, phase, action.direction, events)


# --- The navy (step 4) ----------------------------------------------------------------------------
def _take_navy_card(state: State, phase: NavyChoice, seat: Seat, action: TakeNavyCard, events: Events) -> State:
    state, waiting = navy.take(state, phase.order, phase.index, action.card, events)
    return state if waiting else flow.run_step4(state, phase.order, phase.index + 1, events)


def _navy_boost(state: State, phase: NavyFight, seat: Seat, action: Boost, events: Events) -> State:
    events.append(BoostStaged(seat, action.token))
    return evolve(state, phase=evolve(phase, boosts=(*phase.boosts, action.token)))


def _evade(state: State, phase: NavyFight, seat: Seat, action: EvadeNavy, events: Events) -> State:
    return navy.fight(state, phase, action.captain, events)


def _penalty(state: State, phase: NavyPenalty, seat: Seat, action: AcceptPenalty, events: Events) -> State:
    return navy.apply_penalty(state, phase.order, phase.index, action.penalty, surgeon=action.surgeon, events=events)


# --- Nassau (buying, burying) -----------------------------------------------------------------
def _pass_buying(state: State, phase: Buying, seat: Seat, action: Pass, events: Events) -> State:
    return nassau.pass_buying(state, phase, seat, events)


def _buy_section(state: State, phase: Buying, seat: Seat, action: BuySection, events: Events) -> State:
    return nassau.buy_section(state, phase, seat, action, events)


def _buy_token(state: State, phase: Buying, seat: Seat, action: BuyToken, events: Events) -> State:
    return nassau.buy_token(state, phase, seat, action, events)


def _exchange(state: State, phase: Buying | Burying, seat: Seat, action: ExchangePeso, events: Events) -> State:
    """A peso for resources: open while buying, secret while burying."""
    return nassau.exchange(state, seat, action.resource, events, secret=isinstance(phase, Burying))


def _bury(state: State, phase: Burying, seat: Seat, action: Bury, events: Events) -> State:
    return nassau.bury(state, seat, action.pesos, events)


def _sell(state: State, phase: Burying, seat: Seat, action: SellResources, events: Events) -> State:
    return nassau.sell(state, phase, seat, action, events)


def _finish_burying(state: State, phase: Burying, seat: Seat, action: FinishBurying, events: Events) -> State:
    return nassau.finish_burying(state, phase, seat, events)


HANDLERS: dict[tuple[type, type], Handler] = {
    (LosingCargo, DiscardItem): _lose_cargo,
    (HoldCheck, DiscardItem): _hold_check,
    (HoldCheck, WalkPlank): _hold_check,
    (PirateMove, RerollDie): _reroll,
    (PirateMove, Move): _move,
    (PirateAction, Pass): _pass_turn,
    (PirateAction, Boost): _boost,
    (PirateAction, Plunder): _plunder,
    (PirateAction, Raid): _raid,
    (PirateAction, RideTradeWinds): _ride_winds,
    (PirateAction, Smuggle): _smuggle,
    (TakingLoot, TakeLoot): _take_loot,
    (AfterSmuggle, Pass): _pass_turn,
    (AfterSmuggle, Ransom): _ransom,
    (Adjusting, FlipFiddler): _flip_fiddler,
    (Adjusting, AdjustNotoriety): _adjust,
    (Collision, MoveMarker): _move_marker,
    (NavyChoice, TakeNavyCard): _take_navy_card,
    (NavyFight, Boost): _navy_boost,
    (NavyFight, EvadeNavy): _evade,
    (NavyPenalty, AcceptPenalty): _penalty,
    (Buying, Pass): _pass_buying,
    (Buying, BuySection): _buy_section,
    (Buying, BuyToken): _buy_token,
    (Buying, ExchangePeso): _exchange,
    (Burying, ExchangePeso): _exchange,
    (Burying, Bury): _bury,
    (Burying, SellResources): _sell,
    (Burying, FinishBurying): _finish_burying,
}
