"""Workers (4.2) and Ships (4.4): any number on the 50 / 120 / 200 / +100 scale; Church and Shipyard bonus."""

from __future__ import annotations

from functools import lru_cache

from flotilla.rules import CannotAfford, Seat, Transition

from . import ids
from .actions import Action, BuyShips, BuyWorkers
from .economy import gain_ships, gain_workers, pay
from .events import Event, ShipsBought, WorkersBought
from .state import State
from .tables import (
    CHURCH,
    CHURCH_FREE_WORKERS,
    PORTUGAL,
    SHIPYARD,
    SHIPYARD_FREE_SHIPS,
    max_affordable,
    purchase_cost,
)
from .turns import end_turn


@lru_cache(maxsize=256)
def _counts(kind: type[BuyWorkers | BuyShips], most: int) -> tuple[Action, ...]:
    return tuple(kind(k) for k in range(most + 1))


def legal_workers(state: State, seat: Seat) -> tuple[Action, ...]:
    return _counts(BuyWorkers, max_affordable(state.players[seat].money))


def legal_ships(state: State, seat: Seat) -> tuple[Action, ...]:
    return _counts(BuyShips, max_affordable(state.players[seat].money))


def _price(state: State, seat: Seat, k: int, what: str) -> int:
    cost = purchase_cost(k)
    money = state.players[seat].money
    if cost > money:
        msg = f"{k} {what} cost {cost}; you have {money}"
        raise CannotAfford(msg, count=str(k))
    return cost


def buy_workers(state: State, seat: Seat, action: BuyWorkers) -> Transition[State, Event]:
    k = ids.count(action.count, "count")
    cost = _price(state, seat, k, "workers")
    free = CHURCH_FREE_WORKERS if state.buildings[CHURCH].owner == seat else 0
    state = gain_workers(pay(state, seat, cost), seat, k + free)
    events: list[Event] = [WorkersBought(seat, k, cost, free, state.players[seat].lisbon)]
    return end_turn(state, seat, events)


def buy_ships(state: State, seat: Seat, action: BuyShips) -> Transition[State, Event]:
    k = ids.count(action.count, "count")
    cost = _price(state, seat, k, "ships")
    free = SHIPYARD_FREE_SHIPS if state.buildings[SHIPYARD].owner == seat else 0
    state = gain_ships(pay(state, seat, cost), seat, PORTUGAL, k + free)
    events: list[Event] = [ShipsBought(seat, k, cost, free)]
    return end_turn(state, seat, events)
