"""Launching a ship (§4.6): crates home, gold coins, a slot (SD10), a market ship (SD11)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import remove_at

from . import tables
from .actions import Action, ChooseSlot, TakeMarketShip
from .board import EventList, find_ship, push_task, refill_market, replace_head, return_crates, set_player
from .cards import SHIPS
from .events import MarketShipTaken, ShipLaunched, ShipSlotted
from .state import LaunchedShip, Launching, PlayerState, Ship, State


def free_slots(p: PlayerState) -> tuple[int, ...]:
    """Ability slots with no ship under them, lowest first."""
    taken = {ls.slot for ls in p.launched}
    return tuple(k for k in range(1, tables.LAUNCH_SLOTS + 1) if k not in taken)


def start_launch(s: State, owner: Seat, card: str, ev: EventList) -> State:
    """Steps 1-2 of §4.6 now; the slot and market choices follow as a `Launching` task."""
    seat, pos = find_ship(s, card)
    assert seat == owner, f"{card} is not an unlaunched ship of seat {owner}"
    p = s.players[owner]
    ship: Ship = p.ships[pos]
    coin = SHIPS[card].coin_space
    gold = tables.GOLD_COIN if coin is not None and ship.crates[coin] is not None else 0
    s = set_player(s, owner, evolve(p, ships=remove_at(p.ships, pos), coins=p.coins + gold))
    s = return_crates(s, [c for c in ship.crates if c is not None])
    ev.append(ShipLaunched(owner, card, gold))
    return push_task(s, Launching(owner, card, choose_slot=True))


def _slot(s: State, task: Launching, slot: int, ev: EventList) -> State:
    p = s.players[task.owner]
    launched = (*p.launched, LaunchedShip(task.ship, slot, s.turn))
    s = set_player(s, task.owner, evolve(p, launched=launched))
    ev.append(ShipSlotted(task.owner, task.ship, slot))
    return replace_head(s, evolve(task, choose_slot=False))


def _take(s: State, task: Launching, card: str, ev: EventList) -> State:
    position = s.market.index(card)
    p = s.players[task.owner]
    s = set_player(s, task.owner, evolve(p, ships=(*p.ships, Ship(card, (None,) * len(SHIPS[card].spaces)))))
    ev.append(MarketShipTaken(task.owner, card))
    s = refill_market(s, position, ev)
    return replace_head(s, None)


def step(s: State, task: Launching, ev: EventList) -> State | None:
    """Do the launch's next forced step, or None while its owner must choose."""
    if task.choose_slot:
        free = free_slots(s.players[task.owner])
        if len(free) >= 2:
            return None
        return _slot(s, task, free[0] if free else 0, ev)
    market = [m for m in s.market if m is not None]
    if len(market) >= 2:
        return None
    if not market:
        return replace_head(s, None)
    return _take(s, task, market[0], ev)


def options(s: State, task: Launching) -> list[Action]:
    """SD10 or SD11 choices of the launching seat."""
    if task.choose_slot:
        return [ChooseSlot(k) for k in free_slots(s.players[task.owner])]
    return [TakeMarketShip(m) for m in s.market if m is not None]


def choose(s: State, task: Launching, action: Action, ev: EventList) -> State:
    """Apply the owner's SD10/SD11 answer."""
    if task.choose_slot:
        if not isinstance(action, ChooseSlot):
            raise IllegalAction("choose a free ability slot for the launched ship (ChooseSlot)")
        if action.slot not in free_slots(s.players[task.owner]):
            raise IllegalAction(f"slot {action.slot} is not free", slot=str(action.slot))
        return _slot(s, task, action.slot, ev)
    if not isinstance(action, TakeMarketShip):
        raise IllegalAction("take a ship from the market (TakeMarketShip)")
    if action.ship not in s.market:
        raise IllegalAction(f"{action.ship} is not in the market", ship=action.ship)
    return _take(s, task, action.ship, ev)
