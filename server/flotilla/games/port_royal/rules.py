"""Dispatch: who acts, what is legal, and applying an action (spec §4, §5)."""

from __future__ import annotations

from functools import lru_cache

from flotilla.rules import (
    CannotAfford,
    GameFinished,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    Seat,
    Transition,
)

from . import contracts, discover, expeditions, trade
from .actions import (
    ACTION_TYPES,
    Action,
    AdmitShip,
    CompleteContract,
    DeclineContract,
    DiscoverCard,
    FulfillExpedition,
    HirePerson,
    KeepTimeCard,
    MoveTimeCard,
    Pass,
    RepelShip,
    StopDiscovering,
    TradeShip,
)
from .cards import CARDS, CONTRACTS, JINX, ORDER, TAX_OFFICER, CardId, Kind
from .events import Event, TimeCardMoved
from .state import Discover, Finished, Gamester, Jinx, Repel, State, TaxOfficer, TimeCard, Window
from .stats import hire_price
from .tables import NON_ACTIVE_FEE
from .work import GameOver, Work

_PASS = Pass()


def to_act(s: State) -> frozenset[Seat]:
    """The one seat that must decide now (empty once finished)."""
    phase = s.phase
    if isinstance(phase, Finished):
        return frozenset()
    if isinstance(phase, Window):
        return frozenset((phase.seat,))
    if isinstance(phase, TaxOfficer):
        return frozenset((phase.queue[0],))
    return frozenset((s.active,))


def _acting(s: State) -> Seat | None:
    phase = s.phase
    if isinstance(phase, Finished):
        return None
    if isinstance(phase, Window):
        return phase.seat
    if isinstance(phase, TaxOfficer):
        return phase.queue[0]
    return s.active


@lru_cache(maxsize=4096)  # displays and expedition rows recur from step to step
def _fulfilments(display: tuple[CardId, ...], shown: tuple[CardId, ...]) -> tuple[FulfillExpedition, ...]:
    """Every way to fulfil each expedition of `shown` from `display`, in a stable order."""
    return tuple(FulfillExpedition(e, combo) for e in shown for combo in expeditions.payments(display, e))


def _own_moments(s: State | Work, seat: Seat) -> list[Action]:
    """Expeditions and state contracts at a D3 point or in the seat's own window (spec §4.7, §4.8.1)."""
    out: list[Action] = []
    if seat == s.active and s.expeditions:
        out.extend(_fulfilments(tuple(s.players[seat].display), tuple(s.expeditions)))
    out.extend(CompleteContract(c) for c in contracts.state_contracts_available(s, seat))
    return out


def _takes(s: State | Work, seat: Seat, allowance: int) -> list[Action]:
    if allowance < 1 or not s.harbor:
        return []
    out: list[Action] = []
    p = s.players[seat]
    n = len(s.players)
    active = seat == s.active
    fee = 0 if active else NON_ACTIVE_FEE
    for card in s.harbor:
        info = CARDS[card]
        if info.kind is Kind.SHIP:
            if info.special and n > 1:
                out.extend(TradeShip(card, Seat((seat + i) % n)) for i in range(1, n))
            else:
                out.append(TradeShip(card))
            foe = trade.FOE_BY_COLOUR.get(info.colour)  # type: ignore[arg-type]
            if (
                foe is not None
                and (active or len(p.coins) >= NON_ACTIVE_FEE)
                and contracts.is_eligible(s.contracts, p.completed, seat, foe)
            ):
                out.append(TradeShip(card, None, True))
        elif len(p.coins) >= hire_price(p.display, card) + fee:
            out.append(HirePerson(card))
    return out


def legal_actions(s: State, seat: Seat) -> tuple[Action, ...]:
    """Every action `apply` accepts from `seat` now, in a stable order."""
    if _acting(s) != seat:
        return ()
    phase = s.phase
    if isinstance(phase, Discover):
        if s.revealed == 0:
            return (DiscoverCard(),)
        return (DiscoverCard(), StopDiscovering(), *_own_moments(s, seat))
    if isinstance(phase, Window):
        return (*_takes(s, seat, phase.allowance), *_own_moments(s, seat), _PASS)
    if isinstance(phase, Repel):
        return (RepelShip(), AdmitShip())
    if isinstance(phase, Gamester):
        return (CompleteContract(phase.queue[0]), DeclineContract(phase.queue[0]))
    if isinstance(phase, Jinx):
        return (CompleteContract(JINX), DeclineContract(JINX))
    if isinstance(phase, TaxOfficer):
        return (CompleteContract(TAX_OFFICER), DeclineContract(TAX_OFFICER))
    if isinstance(phase, TimeCard):
        return (MoveTimeCard(), KeepTimeCard())
    return ()


def default_action(s: State, seat: Seat) -> Action:
    """The spec's timeout choice (spec §5)."""
    phase = s.phase
    if isinstance(phase, Discover):
        return DiscoverCard() if s.revealed == 0 else StopDiscovering()
    if isinstance(phase, Repel):
        return RepelShip() if discover.would_bust(s.harbor, phase.ship) else AdmitShip()
    if isinstance(phase, Gamester):
        return DeclineContract(phase.queue[0])
    if isinstance(phase, Jinx):
        return DeclineContract(JINX)
    if isinstance(phase, TaxOfficer):
        return DeclineContract(TAX_OFFICER)
    if isinstance(phase, TimeCard):
        return KeepTimeCard()
    return _PASS


def _validate(s: State, seat: Seat, action: Action) -> None:
    """Raise InvalidAction for malformed actions and a specific IllegalAction when possible."""
    if not isinstance(action, ACTION_TYPES):
        msg = f"not a port_royal action: {type(action).__name__}"
        raise InvalidAction(msg)
    card = getattr(action, "card", None) or getattr(action, "expedition", None)
    if card is not None and card not in CARDS:
        msg = f"unknown card id {card!r}"
        raise InvalidAction(msg, card=str(card))
    contract = getattr(action, "contract", None)
    if contract is not None and contract not in CONTRACTS:
        msg = f"unknown contract id {contract!r}"
        raise InvalidAction(msg, contract=str(contract))
    if isinstance(action, TradeShip) and action.gift_to is not None and not 0 <= action.gift_to < len(s.players):
        msg = f"gift_to {action.gift_to} is not a seat"
        raise InvalidAction(msg)
    if isinstance(action, FulfillExpedition) and any(p not in CARDS for p in action.persons):
        msg = "unknown card id among persons"
        raise InvalidAction(msg)
    phase = s.phase
    if isinstance(action, (TradeShip, HirePerson)):
        if not isinstance(phase, Window):
            msg = "cards are taken only in a Trade & Hire window"
            raise IllegalAction(msg, phase=type(phase).__name__)
        if action.card not in s.harbor:
            msg = f"{action.card} is not in the harbor display"
            raise IllegalAction(msg, card=action.card)
        if phase.allowance < 1:
            msg = "no card allowance left in this window; pass"
            raise IllegalAction(msg)
        if isinstance(action, HirePerson):
            if CARDS[action.card].kind is not Kind.PERSON:
                msg = f"{action.card} is a ship; trade it"
                raise IllegalAction(msg, card=action.card)
            p = s.players[seat]
            need = hire_price(p.display, action.card) + (0 if seat == s.active else NON_ACTIVE_FEE)
            if len(p.coins) < need:
                msg = f"hiring {action.card} needs {need} coins, you own {len(p.coins)}"
                raise CannotAfford(msg, card=action.card, need=str(need))


def apply(s: State, seat: Seat, action: Action) -> Transition[State, Event]:
    """Apply `action` by `seat`; the input state is never changed."""
    if isinstance(s.phase, Finished):
        msg = "the game is over"
        raise GameFinished(msg)
    if _acting(s) != seat:
        msg = f"seat {seat} may not act now; waiting for {sorted(to_act(s))}"
        raise NotYourTurn(msg, seat=str(seat))
    _validate(s, seat, action)
    if action not in legal_actions(s, seat):
        msg = f"{type(action).__name__} is not allowed now (phase {type(s.phase).__name__})"
        raise IllegalAction(msg, phase=type(s.phase).__name__, action=type(action).__name__)
    w = Work(s)
    try:
        _dispatch(w, seat, action)
        # A window whose only choice is Pass closes by itself (nothing to take, nothing to complete).
        while isinstance(w.phase, Window):
            window_seat = w.phase.seat
            if _takes(w, window_seat, w.phase.allowance) or _own_moments(w, window_seat):
                break
            trade.close_window(w, window_seat)
    except GameOver:
        pass
    return Transition(w.freeze(), tuple(w.events))


def _dispatch(w: Work, seat: Seat, action: Action) -> None:
    phase = w.phase
    if isinstance(action, DiscoverCard):
        discover.reveal(w)
    elif isinstance(action, StopDiscovering):
        trade.stop(w)
    elif isinstance(action, (RepelShip, AdmitShip)):
        assert isinstance(phase, Repel)
        if isinstance(action, RepelShip):
            discover.repel(w, phase.ship)
        else:
            discover.admit(w, phase.ship)
    elif isinstance(action, TradeShip):
        trade.trade(w, seat, action.card, action.gift_to, action.refuse_coins)
    elif isinstance(action, HirePerson):
        trade.hire(w, seat, action.card)
    elif isinstance(action, FulfillExpedition):
        expeditions.fulfil(w, seat, action.expedition, action.persons)
    elif isinstance(action, (CompleteContract, DeclineContract)):
        accept = isinstance(action, CompleteContract)
        if isinstance(phase, Gamester):
            discover.gamester_answer(w, action.contract, accept)
        elif isinstance(phase, Jinx):
            discover.jinx_answer(w, accept)
        elif isinstance(phase, TaxOfficer):
            discover.tax_officer_answer(w, seat, accept)
        else:
            contracts.complete(w, seat, action.contract)
    elif isinstance(action, (MoveTimeCard, KeepTimeCard)):
        moved = isinstance(action, MoveTimeCard)
        if moved:
            w.victory_pile.append(w.draw_from(w.time_pile))
            w.victory_pile.sort(key=ORDER.__getitem__)
        w.emit(TimeCardMoved(seat, moved))
        w.phase = Discover()
    else:
        trade.close_window(w, seat)
