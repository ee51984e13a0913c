"""Launch abilities L1-L5 (§2.2), from a ready slot (SD4) or free through Dirty Deeds (PA3)."""

from __future__ import annotations

from flotilla.rules import Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from .actions import Action, ClaimIsland, DirectLoad, ReleaseCrate, TakeReserve, UseExtraCrate
from .board import EventList, find_ship, return_crates, set_player, ship_full, take_from_supply
from .cards import Ability
from .claims import claim
from .events import AbilityUsed, CrateDirectLoaded, CrateReleased, ReserveTaken
from .launch import start_launch
from .state import Crate, State

ABILITY_OF: dict[type, Ability] = {
    UseExtraCrate: Ability.EXTRA_CRATE,
    DirectLoad: Ability.DIRECT_LOAD,
    ClaimIsland: Ability.CLAIM,
    ReleaseCrate: Ability.RELEASE,
    TakeReserve: Ability.RESERVE,
}


def ready_abilities(s: State, seat: Seat) -> set[int]:
    """Slots whose ship was launched before this turn and whose ability is unused (SR9)."""
    return {ls.slot for ls in s.players[seat].launched if ls.slot and not ls.used and ls.turn < s.turn}


def options(s: State, seat: Seat, allowed: set[int] | None = None) -> list[Action]:
    """Every executable ability action, L1 to L5 (`allowed` limits the abilities)."""
    p = s.players[seat]
    out: list[Action] = []
    if allowed is None or Ability.EXTRA_CRATE in allowed:
        out.append(UseExtraCrate())
    if (allowed is None or Ability.DIRECT_LOAD in allowed) and (p.standard or p.pirate):
        for ship in p.ships:
            for i, crate in enumerate(ship.crates):
                if crate is None:
                    if p.standard:
                        out.append(DirectLoad(ship.card, i, pirate=False))
                    if p.pirate:
                        out.append(DirectLoad(ship.card, i, pirate=True))
    if allowed is None or Ability.CLAIM in allowed:
        out.extend(ClaimIsland(isl.card) for isl in s.islands if isl.post is None)
    if allowed is None or Ability.RELEASE in allowed:
        for pc in s.pirate_cards:
            seen: set[int] = set()
            for owner in pc.spaces:
                if owner is not None and owner not in seen:
                    seen.add(owner)
                    out.append(ReleaseCrate(pc.card, owner))
    if (allowed is None or Ability.RESERVE in allowed) and (p.reserve_standard or p.reserve_pirate):
        out.append(TakeReserve())
    return out


def use(s: State, seat: Seat, action: Action, free: bool, ev: EventList) -> State:
    """Carry out an ability action already known to be legal; turn its ship face down unless `free`."""
    ability = ABILITY_OF[type(action)]
    if not free:
        p = s.players[seat]
        launched = tuple(evolve(ls, used=True) if ls.slot == ability else ls for ls in p.launched)
        s = set_player(s, seat, evolve(p, launched=launched))
    ev.append(AbilityUsed(seat, int(ability), free))
    p = s.players[seat]
    if isinstance(action, UseExtraCrate):
        return evolve(s, extra=s.extra + 1)
    if isinstance(action, DirectLoad):
        _, i = find_ship(s, action.ship)
        ship = p.ships[i]
        ship = evolve(ship, crates=replace_at(ship.crates, action.space, Crate(seat, action.pirate)))
        p = take_from_supply(p, action.pirate)
        s = set_player(s, seat, evolve(p, ships=replace_at(p.ships, i, ship)))
        ev.append(CrateDirectLoaded(seat, action.ship, action.space, action.pirate))
        return start_launch(s, seat, action.ship, ev) if ship_full(ship) else s
    if isinstance(action, ClaimIsland):
        return claim(s, seat, action.island, ev)
    if isinstance(action, ReleaseCrate):
        return release(s, action.card, action.owner, seat, ev)
    assert isinstance(action, TakeReserve)
    ev.append(ReserveTaken(seat, p.reserve_standard, p.reserve_pirate))
    return set_player(
        s,
        seat,
        evolve(
            p,
            standard=p.standard + p.reserve_standard,
            pirate=p.pirate + p.reserve_pirate,
            reserve_standard=0,
            reserve_pirate=0,
        ),
    )


def release(s: State, card: str, owner: Seat, by: Seat, ev: EventList | None) -> State:
    """`owner`'s crate leaves pirate card `card` (its last space holding one) and goes home."""
    cards = list(s.pirate_cards)
    for k, pc in enumerate(cards):
        if pc.card == card:
            i = len(pc.spaces) - 1 - pc.spaces[::-1].index(owner)
            cards[k] = evolve(pc, spaces=replace_at(pc.spaces, i, None))
            break
    s = return_crates(evolve(s, pirate_cards=tuple(cards)), [Crate(owner, pirate=True)])
    if ev is not None:
        ev.append(CrateReleased(by, card, owner))
    return s
