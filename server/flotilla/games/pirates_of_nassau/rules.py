"""to_act, legal_actions, default_action and apply (through `dispatch.dispatch`, a table of handlers)."""

from __future__ import annotations

import functools
import types
import typing

from flotilla.rules import (
    GameFinished,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RulesError,
    Seat,
    Transition,
)

from . import nassau, navy, notoriety, sea
from .actions import (
    ACTION_TYPES,
    AcceptPenalty,
    Action,
    AdjustNotoriety,
    Boost,
    BuyToken,
    DiscardItem,
    EvadeNavy,
    FinishBurying,
    FlipFiddler,
    Move,
    MoveKind,
    MoveMarker,
    Pass,
    Penalty,
    TakeNavyCard,
    WalkPlank,
)
from .actions import Direction as Dir
from .common import boost_options, default_loss, first_usable, held_items, usable_of
from .dispatch import dispatch
from .state import (
    Adjusting,
    AfterSmuggle,
    Burying,
    Buying,
    Collision,
    Finished,
    HoldCheck,
    LosingCargo,
    NavyChoice,
    NavyFight,
    NavyPenalty,
    PirateAction,
    PirateMove,
    State,
    TakingLoot,
    active_seat,
)
from .tables import CAPTAIN_CARDS, NAVY, SLOT_BY_ID, TOKENS, Fight

Events = list[object]


def to_act(state: State) -> frozenset[Seat]:
    seat = active_seat(state.phase)
    return frozenset() if seat is None else frozenset({seat})


# --- Legal actions ---------------------------------------------------------------------------
def free_actions(state: State, seat: Seat) -> list[Action]:
    hold = state.players[seat].hold
    out: list[Action] = [DiscardItem(i) for i in held_items(hold)]
    if hold.hostages > 0:
        out.append(WalkPlank())
    return out


def _choices(state: State, seat: Seat) -> list[Action]:
    phase = state.phase
    p = state.players[seat]
    match phase:
        case PirateMove():
            return sea.legal_moves(state, seat) + free_actions(state, seat)
        case PirateAction():
            return sea.action_choices(state, phase, seat) + free_actions(state, seat)
        case TakingLoot():
            return [*sea.loot_choices(state, seat, phase.card), *free_actions(state, seat)]
        case AfterSmuggle():
            return [Pass(), *sea.ransom_options(state, seat), *free_actions(state, seat)]
        case Adjusting():
            out: list[Action] = [AdjustNotoriety(False)]
            if p.wind_held:
                out.insert(0, AdjustNotoriety(True))
            if not phase.fiddler:
                out.extend(FlipFiddler(t) for t in usable_of(p, "Fiddler"))
            return out + free_actions(state, seat)
        case Collision():
            return [MoveMarker(d) for d in notoriety.directions(state, phase)]
        case NavyChoice():
            return [TakeNavyCard(c) for c in sorted(state.navy_display)] + free_actions(state, seat)
        case NavyFight():
            out = [EvadeNavy(c) for c in p.hand]
            out.extend(Boost(t) for t in boost_options(p, Fight.NAVY, phase.boosts))
            return out + free_actions(state, seat)
        case NavyPenalty():
            return [AcceptPenalty(k, s) for k, s in navy.penalty_options(state, phase)] + free_actions(state, seat)
        case LosingCargo():
            return [DiscardItem(i) for i in held_items(p.hold)]
        case Buying():
            return nassau.buy_choices(state, seat) + nassau.exchange_choices(state, seat) + free_actions(state, seat)
        case Burying():
            return nassau.burying_choices(state, seat)
        case HoldCheck():
            return free_actions(state, seat)
        case _:
            return []


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    if seat not in to_act(state):
        return ()
    return tuple(_choices(state, seat))


# --- Defaults (the turn timer, §5) --------------------------------------------------------------
def _navy_default(state: State, seat: Seat) -> Action:
    p = state.players[seat]
    empties = sorted(c for c in state.navy_display if NAVY[c].empty)
    if empties:
        return TakeNavyCard(empties[0])

    def key(card: str) -> tuple[int, int, str]:
        best = max(navy.successes(state, seat, card, c, ()) for c in p.hand)
        return (-best, NAVY[card].sail + NAVY[card].cannon, card)

    return TakeNavyCard(min(state.navy_display, key=key))


def default_action(state: State, seat: Seat) -> Action:
    phase = state.phase
    p = state.players[seat]
    match phase:
        case PirateMove():
            return Move(min(p.dice), MoveKind.VALUE if p.space == 0 else MoveKind.FORWARD)
        case PirateAction():
            return sea.default_fight(state, phase, seat) if phase.boosts else Pass()
        case TakingLoot():
            return sea.default_loot(state, seat, phase.card)
        case AfterSmuggle():
            return Pass()
        case Adjusting():
            return AdjustNotoriety(p.wind_held)
        case Collision():
            return MoveMarker(Dir.UP)
        case NavyChoice():
            return _navy_default(state, seat)
        case NavyFight():
            wins = {c: navy.successes(state, seat, phase.card, c, phase.boosts) for c in p.hand}
            return EvadeNavy(sea.default_captain(p, wins))
        case NavyPenalty():
            return AcceptPenalty(Penalty.CARGO if phase.successes == 1 else Penalty.BOTH)
        case LosingCargo() | HoldCheck():
            return DiscardItem(default_loss(p.hold))
        case Buying():
            return Pass()
        case Burying():
            return FinishBurying()
    raise GameFinished("the game is over")


# --- Apply -----------------------------------------------------------------------------------
@functools.cache
def _hints(cls: type) -> tuple[tuple[str, object], ...]:
    return tuple(typing.get_type_hints(cls).items())


def _check_types(action: Action) -> None:
    cls: type = type(action)
    for name, hint in _hints(cls):
        value = getattr(action, name)
        options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        if not any(value is None if t is type(None) else type(value) is t for t in options):
            raise InvalidAction(f"{type(action).__name__}.{name} has the wrong type", field=name)


def _check_ids(action: Action) -> None:
    if type(action) not in ACTION_TYPES:
        raise InvalidAction(f"not a Pirates of Nassau action: {type(action).__name__}")
    _check_types(action)
    token = getattr(action, "token", None)
    if token is not None and token not in TOKENS:
        raise InvalidAction(f"unknown token {token!r}", token=str(token))
    captain = getattr(action, "captain", None)
    if captain is not None and captain not in CAPTAIN_CARDS:
        raise InvalidAction(f"unknown captain card {captain!r}; one of C12, C21, C22, C33")
    if isinstance(action, TakeNavyCard) and action.card not in NAVY:
        raise InvalidAction(f"unknown navy card {action.card!r}")
    if isinstance(action, BuyToken) and action.slot not in SLOT_BY_ID:
        raise InvalidAction(f"unknown slot {action.slot!r}")
    for name in ("count", "pesos", "gunpowder", "goods", "rum", "hostages", "die"):
        value = getattr(action, name, 0)
        if not isinstance(value, int) or value < 0:
            raise InvalidAction(f"{name} must be a whole number >= 0")


def apply(state: State, seat: Seat, action: Action) -> Transition[State, object]:
    """Apply `seat`'s action; an illegal one gets the most specific refusal its handler raises."""
    if isinstance(state.phase, Finished):
        raise GameFinished("the game is over")
    if seat not in to_act(state):
        raise NotYourTurn(f"seat {active_seat(state.phase)} is to act", seat=str(seat))
    _check_ids(action)
    events: Events = []
    if action not in legal_actions(state, seat):
        try:
            dispatch(state, seat, action, events)
        except RulesError:
            raise
        except (AssertionError, ValueError, KeyError, IndexError, TypeError, AttributeError):
            pass
        msg = f"{type(action).__name__} is not allowed now ({type(state.phase).__name__}); see legal actions"
        raise IllegalAction(msg, phase=type(state.phase).__name__, action=type(action).__name__)
    after = dispatch(state, seat, action, events)
    return Transition(after, tuple(events))


__all__ = ["apply", "default_action", "first_usable", "legal_actions", "to_act"]
