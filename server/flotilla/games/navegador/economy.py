"""Copy-on-write helpers moving money, workers and ships through the bank and supplies (with the ledger).

Each helper makes one `evolve` of the state: these run on every step, so they stay lean.
"""

from __future__ import annotations

from flotilla.rules import Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from .state import PlayerState, State


def with_player(state: State, seat: Seat, player: PlayerState) -> State:
    return evolve(state, players=replace_at(state.players, seat, player))


def receive(state: State, seat: Seat, amount: int) -> State:
    """The bank pays `amount` to `seat`."""
    if amount == 0:
        return state
    p = state.players[seat]
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, money=p.money + amount)),
        ledger=evolve(state.ledger, money_paid_out=state.ledger.money_paid_out + amount),
    )


def pay(state: State, seat: Seat, amount: int) -> State:
    """`seat` pays `amount` to the bank (the caller checked it is affordable)."""
    if amount == 0:
        return state
    p = state.players[seat]
    assert p.money >= amount
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, money=p.money - amount)),
        ledger=evolve(state.ledger, money_paid_in=state.ledger.money_paid_in + amount),
    )


def gain_workers(state: State, seat: Seat, n: int) -> State:
    """`n` workers from the supply to `seat`'s Lisbon."""
    if n == 0:
        return state
    p = state.players[seat]
    gained = replace_at(state.ledger.workers_gained, seat, state.ledger.workers_gained[seat] + n)
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, lisbon=p.lisbon + n)),
        ledger=evolve(state.ledger, workers_gained=gained),
    )


def spend_workers(state: State, seat: Seat, n: int) -> State:
    """`n` workers from `seat`'s Lisbon back to the supply."""
    p = state.players[seat]
    assert p.lisbon >= n
    spent = replace_at(state.ledger.workers_spent, seat, state.ledger.workers_spent[seat] + n)
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, lisbon=p.lisbon - n)),
        ledger=evolve(state.ledger, workers_spent=spent),
    )


def gain_ships(state: State, seat: Seat, region: int, n: int) -> State:
    """`n` new ships from the supply into `region`."""
    if n == 0:
        return state
    p = state.players[seat]
    ships = replace_at(p.ships, region, p.ships[region] + n)
    gained = replace_at(state.ledger.ships_gained, seat, state.ledger.ships_gained[seat] + n)
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, ships=ships)),
        ledger=evolve(state.ledger, ships_gained=gained),
    )


def lose_ships(state: State, seat: Seat, region: int, n: int) -> State:
    """`n` of `seat`'s ships in `region` are sacrificed (back to the supply)."""
    if n == 0:
        return state
    p = state.players[seat]
    assert p.ships[region] >= n
    ships = replace_at(p.ships, region, p.ships[region] - n)
    lost = replace_at(state.ledger.ships_lost, seat, state.ledger.ships_lost[seat] + n)
    return evolve(
        state,
        players=replace_at(state.players, seat, evolve(p, ships=ships)),
        ledger=evolve(state.ledger, ships_lost=lost),
    )


def move_ships(state: State, seat: Seat, origin: int, destination: int, n: int) -> State:
    """`n` ships sail from `origin` to `destination` (no supply involved)."""
    p = state.players[seat]
    ships = replace_at(p.ships, origin, p.ships[origin] - n)
    ships = replace_at(ships, destination, ships[destination] + n)
    return with_player(state, seat, evolve(p, ships=ships))


def held_buildings(state: State, seat: Seat) -> int:
    return sum(1 for h in state.buildings if h.owner == seat)


def held_colonies(state: State, seat: Seat) -> int:
    return sum(1 for h in state.colonies if h.owner == seat)
