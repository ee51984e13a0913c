"""Pirate action cards (§2.5): one-time effects and their parameters (SD6)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import abilities, tables
from .actions import Action, ClearIsland, ForceSale, SmuggleCrate
from .board import (
    EventList,
    add_coins,
    find_ship,
    island_index,
    push_task,
    replace_head,
    replace_island,
    return_crates,
    seats_from,
    set_player,
    ship_full,
)
from .cards import (
    BURIED_TREASURE,
    DIRTY_DEEDS,
    FORCED_SALE,
    ISLANDS,
    LANDLUBBER,
    PIRATE_ACTIONS,
    SHIPS,
    SMUGGLED_GOODS,
)
from .events import CrateForceSold, CrateSmuggled, EffectSkipped, IslandCleared, TreasureFound
from .launch import start_launch
from .resolution import load_targets
from .state import CardEffect, Crate, IslandSpace, State


def trigger(s: State, seat: Seat, card: str, ev: EventList) -> State:
    """A pirate crate just landed on `card`: run its one-time effect (persistent ones need nothing)."""
    if PIRATE_ACTIONS[card].persistent:
        return s
    if card == BURIED_TREASURE:
        ev.append(TreasureFound(seat, tables.BURIED_TREASURE_COINS))
        return add_coins(s, seat, tables.BURIED_TREASURE_COINS)
    if options(s, seat, card):
        return push_task(s, CardEffect(card))
    ev.append(EffectSkipped(seat, card))
    return s


def options(s: State, seat: Seat, card: str) -> list[Action]:
    """Every legal parameter choice of a one-time card, first = the SD6 default."""
    out: list[Action] = []
    p = s.players[seat]
    if card == FORCED_SALE:
        if p.coins < tables.FORCED_SALE_PRICE:
            return out
        for victim in seats_from(s, seat)[1:]:
            for ship in s.players[victim].ships:
                spaces = SHIPS[ship.card].spaces
                for i, crate in enumerate(ship.crates):
                    if crate is not None and not crate.pirate:
                        out.extend(ForceSale(ship.card, i, t, j) for t, j in load_targets(p.ships, spaces[i]))
    elif card == SMUGGLED_GOODS:
        for island in s.islands:
            if island.post is not None:
                continue
            resources = ISLANDS[island.card].spaces
            for i, sp in enumerate(island.spaces):
                mine = sp.cover == seat or (sp.cover is None and sp.crate is not None and sp.crate.owner == seat)
                if mine:
                    out.extend(SmuggleCrate(island.card, i, t, j) for t, j in load_targets(p.ships, resources[i]))
    elif card == DIRTY_DEEDS:
        out = abilities.options(s, seat)
    elif card == LANDLUBBER:
        out = [ClearIsland(island.card) for island in s.islands if island.post is None]
    return out


def _put_on_ship(s: State, seat: Seat, target_space: tuple[str, int], crate: Crate, ev: EventList) -> State:
    ship, space = target_space
    owner, i = find_ship(s, ship)
    p = s.players[owner]
    target = p.ships[i]
    target = evolve(target, crates=replace_at(target.crates, space, crate))
    s = set_player(s, Seat(owner), evolve(p, ships=replace_at(p.ships, i, target)))
    return start_launch(s, seat, ship, ev) if ship_full(target) else s


def resolve(s: State, seat: Seat, task: CardEffect, action: Action, ev: EventList) -> State:
    """Apply the active seat's parameter choice for the pending one-time card."""
    if action not in options(s, seat, task.card):
        name = PIRATE_ACTIONS[task.card].name
        msg = f"{type(action).__name__} is not a legal choice for {name} now; see the legal actions"
        raise IllegalAction(msg, card=task.card)
    s = replace_head(s, None)
    if isinstance(action, ForceSale):
        victim, i = find_ship(s, action.from_ship)
        vp = s.players[victim]
        ship = vp.ships[i]
        crate = ship.crates[action.from_space]
        assert crate is not None
        ship = evolve(ship, crates=replace_at(ship.crates, action.from_space, None))
        s = set_player(s, Seat(victim), evolve(vp, ships=replace_at(vp.ships, i, ship)))
        price = tables.FORCED_SALE_PRICE
        s = add_coins(add_coins(s, seat, -price), Seat(victim), price)
        ev.append(
            CrateForceSold(
                seat,
                Seat(victim),
                action.from_ship,
                action.from_space,
                action.to_ship,
                action.to_space,
                price,
            )
        )
        return _put_on_ship(s, seat, (action.to_ship, action.to_space), crate, ev)
    if isinstance(action, SmuggleCrate):
        pos = island_index(s, action.island)
        island = s.islands[pos]
        sp = island.spaces[action.space]
        if sp.cover == seat:
            moved, left = Crate(seat, pirate=True), IslandSpace(sp.crate)
        else:
            assert sp.crate is not None
            moved, left = sp.crate, IslandSpace()
        island = evolve(island, spaces=replace_at(island.spaces, action.space, left))
        s = evolve(s, islands=replace_at(s.islands, pos, island))
        ev.append(CrateSmuggled(seat, action.island, action.space, action.ship, action.ship_space))
        return _put_on_ship(s, seat, (action.ship, action.ship_space), moved, ev)
    if isinstance(action, ClearIsland):
        pos = island_index(s, action.island)
        crates: list[Crate] = []
        for sp in s.islands[pos].spaces:
            if sp.crate is not None:
                crates.append(sp.crate)
            if sp.cover is not None:
                crates.append(Crate(sp.cover, pirate=True))
        s = return_crates(s, crates)
        ev.append(IslandCleared(seat, action.island))
        return replace_island(s, pos, ev)
    return abilities.use(s, seat, action, True, ev)
