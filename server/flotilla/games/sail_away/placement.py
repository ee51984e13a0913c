"""The placement step (§4.2-4.3): placing crates, retrieving pirate crates, launching, ending."""

from __future__ import annotations

from flotilla.rules import CannotAfford, IllegalAction, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import pirates, tables
from .abilities import release
from .actions import (
    Action,
    CoverCrate,
    EndPlacement,
    LaunchShip,
    PlaceCrate,
    PlaceOnPirateCard,
    RetrieveCrate,
)
from .board import (
    EventList,
    add_coins,
    crate_limit,
    find_ship,
    island_index,
    set_player,
    ship_launchable,
    take_from_supply,
)
from .claims import claim
from .events import CrateCovered, CratePlaced, CratePlacedOnCard, CrateRetrieved, PlacementEnded
from .launch import start_launch
from .state import Crate, IslandSpace, Phase, State


def targets(s: State) -> list[Action]:
    """Every legal crate placement of the active seat now (islands by position, then pirate cards)."""
    seat = s.active
    p = s.players[seat]
    if s.placed >= crate_limit(s, seat) or not (p.standard or p.pirate):
        return []
    rich = p.coins >= tables.SURCHARGE
    used = s.used_cards
    out: list[Action] = []
    for island in s.islands:
        if island.post is not None or (not rich and island.card in used):
            continue
        for i, sp in enumerate(island.spaces):
            crate = sp.crate
            if crate is None:
                if p.standard:
                    out.append(PlaceCrate(island.card, i, pirate=False))
                if p.pirate:
                    out.append(PlaceCrate(island.card, i, pirate=True))
            elif p.pirate and sp.cover is None and not crate.pirate and crate.owner != seat:
                out.append(CoverCrate(island.card, i))
    if p.pirate:
        out.extend(
            PlaceOnPirateCard(pc.card) for pc in s.pirate_cards if None in pc.spaces and (rich or pc.card not in used)
        )
    return out


def _check_common(s: State, card: str, pirate: bool) -> int:
    seat = s.active
    p = s.players[seat]
    if s.placed >= crate_limit(s, seat):
        msg = f"you have placed {s.placed} crates, your limit this turn is {crate_limit(s, seat)}"
        raise IllegalAction(msg)
    if pirate and not p.pirate:
        raise IllegalAction("you have no pirate crate in your supply")
    if not pirate and not p.standard:
        raise IllegalAction("you have no standard crate in your supply")
    surcharge = tables.SURCHARGE if card in s.used_cards else 0
    if p.coins < surcharge:
        msg = f"a second crate on {card} this turn costs {surcharge} coins; you have {p.coins}"
        raise CannotAfford(msg, card=card)
    return surcharge


def _open_island(s: State, card: str, space: int) -> int:
    pos = island_index(s, card)
    if pos < 0:
        raise IllegalAction(f"island {card} is not face up", island=card)
    if s.islands[pos].post is not None:
        raise IllegalAction(f"island {card} is claimed and takes no more crates", island=card)
    if not 0 <= space < len(s.islands[pos].spaces):
        raise IllegalAction(f"island {card} has no space {space}", island=card)
    return pos


def _after_place(s: State, seat: Seat, card: str, surcharge: int) -> State:
    p = s.players[seat]
    used = s.used_cards if card in s.used_cards else (*s.used_cards, card)
    s = set_player(s, seat, evolve(p, coins=p.coins - surcharge))
    return evolve(s, placed=s.placed + 1, used_cards=used)


def place(s: State, action: PlaceCrate, ev: EventList) -> State:
    """Put a crate on an empty island space; claim the island if it is now full."""
    seat = s.active
    pos = _open_island(s, action.island, action.space)
    island = s.islands[pos]
    if island.spaces[action.space].crate is not None:
        raise IllegalAction(f"space {action.space} of {action.island} is taken", island=action.island)
    surcharge = _check_common(s, action.island, action.pirate)
    s = _after_place(s, seat, action.island, surcharge)
    s = set_player(s, seat, take_from_supply(s.players[seat], action.pirate))
    island = evolve(island, spaces=replace_at(island.spaces, action.space, IslandSpace(Crate(seat, action.pirate))))
    s = evolve(s, islands=replace_at(s.islands, pos, island))
    ev.append(CratePlaced(seat, action.island, action.space, action.pirate, surcharge))
    if all(sp.crate is not None for sp in island.spaces):
        s = claim(s, seat, action.island, ev)
    return s


def cover(s: State, action: CoverCrate, ev: EventList) -> State:
    """Put a pirate crate on another seat's uncovered standard crate (SR15)."""
    seat = s.active
    pos = _open_island(s, action.island, action.space)
    island = s.islands[pos]
    sp = island.spaces[action.space]
    if sp.crate is None or sp.crate.pirate or sp.crate.owner == seat or sp.cover is not None:
        msg = f"space {action.space} of {action.island} holds no uncovered standard crate of another seat"
        raise IllegalAction(msg, island=action.island)
    surcharge = _check_common(s, action.island, True)
    s = _after_place(s, seat, action.island, surcharge)
    s = set_player(s, seat, take_from_supply(s.players[seat], True))
    island = evolve(island, spaces=replace_at(island.spaces, action.space, IslandSpace(sp.crate, seat)))
    ev.append(CrateCovered(seat, action.island, action.space, surcharge))
    return evolve(s, islands=replace_at(s.islands, pos, island))


def place_on_card(s: State, action: PlaceOnPirateCard, ev: EventList) -> State:
    """Put a pirate crate on a free space of a pirate action card and trigger it."""
    seat = s.active
    k = next((k for k, pc in enumerate(s.pirate_cards) if pc.card == action.card), -1)
    if k < 0:
        raise IllegalAction(f"pirate action card {action.card} is not in play", card=action.card)
    pc = s.pirate_cards[k]
    if None not in pc.spaces:
        raise IllegalAction(f"pirate action card {action.card} has no free space", card=action.card)
    surcharge = _check_common(s, action.card, True)
    s = _after_place(s, seat, action.card, surcharge)
    s = set_player(s, seat, take_from_supply(s.players[seat], True))
    i = pc.spaces.index(None)
    pc = evolve(pc, spaces=replace_at(pc.spaces, i, seat))
    s = evolve(s, pirate_cards=replace_at(s.pirate_cards, k, pc))
    ev.append(CratePlacedOnCard(seat, action.card, i, surcharge))
    return pirates.trigger(s, seat, action.card, ev)


def retrieve_options(s: State) -> list[Action]:
    """Pirate action cards the active seat may take a crate back from (SD5)."""
    if s.players[s.active].coins < tables.RETRIEVE_COST:
        return []
    return [RetrieveCrate(pc.card) for pc in s.pirate_cards if s.active in pc.spaces]


def retrieve(s: State, action: RetrieveCrate, ev: EventList) -> State:
    """Pay 4 coins; the crate goes back to the supply and its persistent effect ends."""
    seat = s.active
    if not any(pc.card == action.card and seat in pc.spaces for pc in s.pirate_cards):
        raise IllegalAction(f"you have no pirate crate on {action.card}", card=action.card)
    if s.players[seat].coins < tables.RETRIEVE_COST:
        raise CannotAfford(f"retrieving a crate costs {tables.RETRIEVE_COST} coins", card=action.card)
    s = add_coins(s, seat, -tables.RETRIEVE_COST)
    ev.append(CrateRetrieved(seat, action.card, tables.RETRIEVE_COST))
    return release(s, action.card, seat, seat, None)


def launch_options(s: State) -> list[Action]:
    """Launchable ships of the active seat (a free action, SR7)."""
    return [LaunchShip(ship.card) for ship in s.players[s.active].ships if ship_launchable(ship)]


def launch(s: State, action: LaunchShip, ev: EventList) -> State:
    """Launch one of your launchable ships during your placement step."""
    owner, i = find_ship(s, action.ship)
    if owner != s.active:
        raise IllegalAction(f"{action.ship} is not one of your unlaunched ships", ship=action.ship)
    if not ship_launchable(s.players[owner].ships[i]):
        raise IllegalAction(f"{action.ship} still has empty non-coin spaces", ship=action.ship)
    return start_launch(s, s.active, action.ship, ev)


def can_end(s: State) -> bool:
    """SR23: the step may end after a placement, or when no placement is legal."""
    return s.placed > 0 or not targets(s)


def end(s: State, action: EndPlacement, ev: EventList) -> State:
    """End the placement step; claimed islands resolve next (§4.5)."""
    del action
    if not can_end(s):
        raise IllegalAction("place at least one crate before ending the step (a placement is legal)")
    ev.append(PlacementEnded(s.active))
    return evolve(s, phase=Phase.RESOLVING)


def default(s: State) -> Action:
    """SD3: with nothing placed, the first standard, then pirate placement, then a pirate card; else end."""
    if s.placed == 0:
        options = targets(s)
        for want in (False, True):
            for a in options:
                if isinstance(a, PlaceCrate) and a.pirate is want:
                    return a
        for a in options:
            if isinstance(a, PlaceOnPirateCard):
                return a
        if options:
            return options[0]
    return EndPlacement()
