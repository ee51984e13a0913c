"""Knight (4.8, D10, R15): one knight at the track price, workers by phase; the 15th ends the game."""

from __future__ import annotations

from flotilla.rules import CannotAfford, Seat, Transition
from flotilla.rules.evolve import evolve

from .actions import Action, BuyKnight, DeclineKnight
from .economy import pay, spend_workers, with_player
from .events import Event, KnightBought, KnightDeclined
from .state import State
from .tables import KNIGHT_PHASES, KNIGHT_PRICES
from .turns import end_turn


def price(state: State) -> int:
    return KNIGHT_PRICES[state.knight_step]


def can_buy(state: State, seat: Seat) -> bool:
    p = state.players[seat]
    return p.money >= price(state) and p.lisbon >= state.knight_phase


def legal(state: State, seat: Seat) -> tuple[Action, ...]:
    return (DeclineKnight(), BuyKnight()) if can_buy(state, seat) else (DeclineKnight(),)


def decline(state: State, seat: Seat) -> Transition[State, Event]:
    return end_turn(state, seat, [KnightDeclined(seat)])


def buy(state: State, seat: Seat) -> Transition[State, Event]:
    cost, workers = price(state), state.knight_phase
    p = state.players[seat]
    if not can_buy(state, seat):
        msg = f"a knight costs {cost} and {workers} workers from Lisbon; you have {p.money} and {p.lisbon}"
        raise CannotAfford(msg)
    state = spend_workers(pay(state, seat, cost), seat, workers)
    p = state.players[seat]
    state = with_player(state, seat, evolve(p, knights=p.knights + 1))
    step, phase = state.knight_step + 1, state.knight_phase
    if step == len(KNIGHT_PRICES) and phase < KNIGHT_PHASES:
        step, phase = 0, phase + 1
    elif step == len(KNIGHT_PRICES):
        step = len(KNIGHT_PRICES) - 1  # the 15th knight: the track stays at its end (the game is over)
    sold = state.knights_sold + 1
    state = evolve(state, knight_step=step, knight_phase=phase, knights_sold=sold)
    event = KnightBought(seat, cost, workers, p.knights + 1, sold, KNIGHT_PRICES[step], phase)
    return end_turn(state, seat, [event])
