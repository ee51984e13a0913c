"""Market (4.7, D8, D9, R12-R14): everyone consumes by knights, then the active player sells."""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from flotilla.rules import IllegalAction, InvalidAction, Seat, Transition
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import ids
from .actions import Action, ConsumeGood, SellGoods
from .economy import receive
from .events import Event, GoodConsumed, GoodsSold
from .state import Consume, Sell, State
from .tables import COLONY_GOOD, EXCHANGE, EXCHANGE_EXTRA_GOLD, GOODS, TRACK_SPACES, Good, market_price
from .turns import end_turn

_CONSUMPTIONS: tuple[Action, ...] = tuple(ConsumeGood(g) for g in GOODS)


def legal_consume() -> tuple[Action, ...]:
    return _CONSUMPTIONS


def default_consume(state: State) -> Action:
    """The good with the most cubes (ties: sugar, then gold, then spice)."""
    best = max(GOODS, key=lambda g: (state.cubes[g.value], -g.value))
    return ConsumeGood(best)


def consume(state: State, seat: Seat, phase: Consume, action: ConsumeGood) -> Transition[State, Event]:
    if not isinstance(action.good, Good):
        msg = f"unknown good {action.good!r}"
        raise InvalidAction(msg)
    g = action.good.value
    removed = min(state.cubes[g], state.players[seat].knights)
    state = evolve(
        state,
        cubes=replace_at(state.cubes, g, state.cubes[g] - removed),
        ledger=evolve(
            state.ledger,
            cubes_removed=replace_at(state.ledger.cubes_removed, g, state.ledger.cubes_removed[g] + removed),
        ),
    )
    event = GoodConsumed(seat, action.good, removed, state.cubes[g])
    nxt: Consume | Sell
    if phase.left > 0:
        nxt = Consume(active=phase.active, chooser=Seat((seat + 1) % state.config.seats), left=phase.left - 1)
    else:
        nxt = Sell(active=phase.active)
    return Transition(evolve(state, phase=nxt), (event,))


def sale_limits(state: State, seat: Seat) -> tuple[int, int, int]:
    """Units of sugar, gold and spice `seat` may sell: their colonies, plus one gold for the Exchange."""
    limits = [0, 0, 0]
    for c, holding in enumerate(state.colonies):
        if holding.owner == seat:
            limits[COLONY_GOOD[c].value] += 1
    if state.buildings[EXCHANGE].owner == seat:
        limits[Good.GOLD.value] += EXCHANGE_EXTRA_GOLD
    return limits[0], limits[1], limits[2]


def legal_sell(state: State, seat: Seat) -> tuple[Action, ...]:
    return _sales(*sale_limits(state, seat))


@lru_cache(maxsize=256)
def _sales(s: int, g: int, p: int) -> tuple[Action, ...]:
    return tuple(SellGoods(a, b, c) for a, b, c in product(range(s + 1), range(g + 1), range(p + 1)))


def sale_value(good: Good, cubes: int, units: int) -> tuple[int, int]:
    """(money earned, cubes after) for selling `units` one at a time along the falling track."""
    paid = 0
    for _ in range(units):
        paid += market_price(good, cubes)
        cubes = min(cubes + 1, TRACK_SPACES)
    return paid, cubes


def sell(state: State, seat: Seat, action: SellGoods) -> Transition[State, Event]:
    units = (
        ids.count(action.sugar, "sugar"),
        ids.count(action.gold, "gold"),
        ids.count(action.spice, "spice"),
    )
    limits = sale_limits(state, seat)
    for good, u, limit in zip(GOODS, units, limits, strict=True):
        if u > limit:
            msg = f"you may sell at most {limit} {good.name.lower()}; you asked for {u}"
            raise IllegalAction(msg, good=good.name)
    total = 0
    cubes = list(state.cubes)
    added = list(state.ledger.cubes_added)
    for good, u in zip(GOODS, units, strict=True):
        paid, after = sale_value(good, cubes[good.value], u)
        total += paid
        added[good.value] += after - cubes[good.value]
        cubes[good.value] = after
    state = evolve(state, cubes=tuple(cubes), ledger=evolve(state.ledger, cubes_added=tuple(added)))
    state = receive(state, seat, total)
    return end_turn(state, seat, [GoodsSold(seat, units[0], units[1], units[2], total)])
