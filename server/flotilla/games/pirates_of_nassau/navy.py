"""Step 4: evade the Royal Navy (§4.4)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve

from . import flow, notoriety
from .actions import Penalty
from .common import boost_totals, default_loss, fight_base, first_usable, flip, held_items, remove
from .events import ItemDiscarded, NavyCardReturned, NavyCardTaken, NavyFought, PenaltyAccepted
from .state import LosingCargo, NavyFight, NavyPenalty, State, with_player
from .tables import CAPTAIN_CARDS, NAVY, SURGEON_RELIEF, Fight

Events = list[object]


def take(state: State, order: tuple[Seat, ...], index: int, card: str, events: Events) -> tuple[State, bool]:
    """Take a display card; True when a fight declaration waits."""
    seat = order[index]
    display = tuple(c for c in state.navy_display if c != card)
    navy = evolve(state.navy, bottom=(*state.navy.bottom, card))
    state = evolve(state, navy_display=display, navy=navy)
    events.append(NavyCardTaken(seat, card))
    events.append(NavyCardReturned(card))
    if NAVY[card].empty:
        return state, False
    return evolve(state, phase=NavyFight(order=order, index=index, card=card)), True


def fight_totals(state: State, seat: Seat, captain: str, boosts: tuple[str, ...]) -> tuple[int, int]:
    p = state.players[seat]
    sail, cannon = fight_base(p, Fight.NAVY)
    bs, bc, _ = boost_totals(p, Fight.NAVY, boosts)
    cs, cc = CAPTAIN_CARDS[captain]
    return sail + cs + bs, cannon + cc + bc


def successes(state: State, seat: Seat, card: str, captain: str, boosts: tuple[str, ...]) -> int:
    sail, cannon = fight_totals(state, seat, captain, boosts)
    warship = NAVY[card]
    return int(sail > warship.sail) + int(cannon > warship.cannon)


def fight(state: State, phase: NavyFight, captain: str, events: Events) -> State:
    seat = phase.order[phase.index]
    p = state.players[seat]
    sail, cannon = fight_totals(state, seat, captain, phase.boosts)
    wins = successes(state, seat, phase.card, captain, phase.boosts)
    p = flip(evolve(p, hand=tuple(c for c in p.hand if c != captain)), *phase.boosts)
    state = with_player(state, seat, p)
    events.append(NavyFought(seat, phase.card, captain, phase.boosts, sail, cannon, wins))
    if wins == 2:
        return flow.run_step4(state, phase.order, phase.index + 1, events)
    if wins == 1 or first_usable(p, "Surgeon") is not None:
        return evolve(state, phase=NavyPenalty(order=phase.order, index=phase.index, card=phase.card, successes=wins))
    return apply_penalty(state, phase.order, phase.index, Penalty.BOTH, surgeon=False, events=events)


def penalty_options(state: State, phase: NavyPenalty) -> tuple[tuple[Penalty, bool], ...]:
    p = state.players[phase.order[phase.index]]
    kinds = (Penalty.CARGO, Penalty.NOTORIETY) if phase.successes == 1 else (Penalty.BOTH,)
    surgeon = (False, True) if first_usable(p, "Surgeon") is not None else (False,)
    return tuple((k, s) for k in kinds for s in surgeon)


def apply_penalty(
    state: State, order: tuple[Seat, ...], index: int, penalty: Penalty, *, surgeon: bool, events: Events
) -> State:
    seat = order[index]
    p = state.players[seat]
    nloss = p.notoriety // 2 if penalty in (Penalty.NOTORIETY, Penalty.BOTH) else 0
    closs = p.hold.total // 2 if penalty in (Penalty.CARGO, Penalty.BOTH) else 0
    token = first_usable(p, "Surgeon") if surgeon else None
    if surgeon:
        if token is None:
            raise IllegalAction("no usable Surgeon")
        nloss = max(0, nloss - SURGEON_RELIEF)
        closs = max(0, closs - SURGEON_RELIEF)
        state = with_player(state, seat, flip(p, token))
    events.append(PenaltyAccepted(seat, penalty, token, nloss, closs))
    return continue_losing(state, order, index, closs, nloss, events=events)


def continue_losing(
    state: State, order: tuple[Seat, ...], index: int, remaining: int, nloss: int, *, events: Events
) -> State:
    seat = order[index]
    while remaining > 0 and len(held_items(state.players[seat].hold)) == 1:
        item = default_loss(state.players[seat].hold)
        state = remove(state, seat, item)
        events.append(ItemDiscarded(seat, item))
        remaining -= 1
    if remaining > 0:
        return evolve(state, phase=LosingCargo(order=order, index=index, remaining=remaining, notoriety_loss=nloss))
    if nloss > 0:
        target = state.players[seat].notoriety - nloss
        state, waiting = notoriety.change(state, 4, order, index, target, events=events)
        if waiting:
            return state
    return flow.run_step4(state, order, index + 1, events)
