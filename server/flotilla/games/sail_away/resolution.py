"""Island resolution (§4.5): ransoms (SD7), distribution (SD8), launches (SD9), cleanup."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import tables
from .actions import Action, KeepShip, LaunchShip, LoadCrate, PayRansom, RefuseRansom, SellCrate
from .board import (
    EventList,
    add_coins,
    find_ship,
    harbor_dues_holders,
    holds,
    island_index,
    replace_head,
    replace_island,
    return_crates,
    seats_from,
    set_player,
    ship_full,
    ship_launchable,
)
from .cards import BLACK_FLAG, ISLANDS, SHIPS, Resource
from .events import (
    CrateLoaded,
    CrateSold,
    HarborDuesPaid,
    IslandResolved,
    RansomPaid,
    RansomRefused,
    ShipKept,
)
from .launch import start_launch
from .state import Crate, IslandSpace, Resolution, Ship, Stage, State


def ransom(s: State, pirate_owner: Seat) -> int:
    """The ransom owed to `pirate_owner` (PA8 Black Flag raises it)."""
    return tables.BLACK_FLAG_RANSOM if holds(s, pirate_owner, BLACK_FLAG) else tables.RANSOM


def load_targets(ships: tuple[Ship, ...], resource: Resource) -> list[tuple[str, int]]:
    """Empty spaces of `resource` on these ships: non-coin spaces first, then coin spaces (SD8)."""
    plain: list[tuple[str, int]] = []
    coin: list[tuple[str, int]] = []
    for ship in ships:
        card = SHIPS[ship.card]
        for i, crate in enumerate(ship.crates):
            if crate is None and card.spaces[i] is resource:
                (coin if i == card.coin_space else plain).append((ship.card, i))
    return plain + coin


def next_crate(s: State, r: Resolution) -> tuple[int, int] | None:
    """(owner, space) of the next crate to distribute: seats from the claimant, spaces in order."""
    spaces = s.islands[island_index(s, r.island)].spaces
    for seat in seats_from(s, r.claimant):
        for i, sp in enumerate(spaces):
            if sp.crate is not None and sp.crate.owner == seat:
                return seat, i
    return None


def waiting_seat(s: State, r: Resolution) -> Seat:
    """The seat whose decision the resolution waits for."""
    if r.stage is Stage.RANSOM:
        crate = s.islands[island_index(s, r.island)].spaces[r.index].crate
        assert crate is not None
        return crate.owner
    if r.stage is Stage.DISTRIBUTE:
        nxt = next_crate(s, r)
        assert nxt is not None
        return Seat(nxt[0])
    return Seat(find_ship(s, r.candidates[0])[0])


def _set_space(s: State, position: int, space: int, value: IslandSpace) -> State:
    island = s.islands[position]
    island = evolve(island, spaces=replace_at(island.spaces, space, value))
    return evolve(s, islands=replace_at(s.islands, position, island))


def _refuse(s: State, r: Resolution, forced: bool, ev: EventList) -> State:
    pos = island_index(s, r.island)
    sp = s.islands[pos].spaces[r.index]
    assert sp.crate is not None
    assert sp.cover is not None
    s = return_crates(s, [sp.crate])
    s = _set_space(s, pos, r.index, IslandSpace(Crate(sp.cover, pirate=True)))
    ev.append(RansomRefused(sp.crate.owner, sp.cover, r.island, r.index, forced))
    return replace_head(s, evolve(r, index=r.index + 1))


def _pay(s: State, r: Resolution, ev: EventList) -> State:
    pos = island_index(s, r.island)
    sp = s.islands[pos].spaces[r.index]
    assert sp.crate is not None
    assert sp.cover is not None
    amount = ransom(s, sp.cover)
    s = add_coins(add_coins(s, sp.crate.owner, -amount), sp.cover, amount)
    s = return_crates(s, [Crate(sp.cover, pirate=True)])
    s = _set_space(s, pos, r.index, IslandSpace(sp.crate))
    ev.append(RansomPaid(sp.crate.owner, sp.cover, r.island, r.index, amount))
    return replace_head(s, evolve(r, index=r.index + 1))


def _sell(s: State, r: Resolution, nxt: tuple[int, int], forced: bool, ev: EventList) -> State:
    seat, space = nxt
    pos = island_index(s, r.island)
    crate = s.islands[pos].spaces[space].crate
    assert crate is not None
    s = _set_space(s, pos, space, IslandSpace())
    s = add_coins(return_crates(s, [crate]), Seat(seat), tables.SELL_CRATE_COINS)
    ev.append(CrateSold(Seat(seat), r.island, space, tables.SELL_CRATE_COINS, forced))
    return s


def _load(s: State, r: Resolution, nxt: tuple[int, int], target: tuple[str, int], ev: EventList) -> State:
    seat, space = nxt
    ship, ship_space = target
    pos = island_index(s, r.island)
    crate = s.islands[pos].spaces[space].crate
    assert crate is not None
    s = _set_space(s, pos, space, IslandSpace())
    owner, i = find_ship(s, ship)
    p = s.players[owner]
    loaded = p.ships[i]
    loaded = evolve(loaded, crates=replace_at(loaded.crates, ship_space, crate))
    s = set_player(s, Seat(owner), evolve(p, ships=replace_at(p.ships, i, loaded)))
    ev.append(CrateLoaded(Seat(seat), r.island, space, ship, ship_space))
    touched = r.touched if ship in r.touched else (*r.touched, ship)
    return replace_head(s, evolve(r, touched=touched))


def _launch_candidates(s: State, r: Resolution) -> tuple[str, ...]:
    out: list[str] = []
    for seat in seats_from(s, r.claimant):
        out.extend(ship.card for ship in s.players[seat].ships if ship.card in r.touched)
    return tuple(out)


def _cleanup(s: State, r: Resolution, ev: EventList) -> State:
    value = ISLANDS[r.island].value
    claimant = r.claimant
    s = add_coins(s, claimant, value)
    ev.append(IslandResolved(claimant, r.island, value))
    holders = set(harbor_dues_holders(s))
    for seat in seats_from(s, claimant):
        if seat != claimant and seat in holders and s.players[claimant].coins >= tables.HARBOR_DUES_COINS:
            s = add_coins(add_coins(s, claimant, -tables.HARBOR_DUES_COINS), seat, tables.HARBOR_DUES_COINS)
            ev.append(HarborDuesPaid(claimant, seat, tables.HARBOR_DUES_COINS))
    if r.posted:
        p = s.players[claimant]
        s = set_player(s, claimant, evolve(p, posts=p.posts + 1))
    s = replace_island(s, island_index(s, r.island), ev)
    return replace_head(s, None)


def step(s: State, r: Resolution, ev: EventList) -> State | None:
    """Do one forced unit of work of the resolution, or None while a seat must decide."""
    if r.stage is Stage.RANSOM:
        spaces = s.islands[island_index(s, r.island)].spaces
        if r.index >= len(spaces):
            return replace_head(s, evolve(r, stage=Stage.DISTRIBUTE, index=0))
        sp = spaces[r.index]
        if sp.cover is None:
            return replace_head(s, evolve(r, index=r.index + 1))
        assert sp.crate is not None
        if s.players[sp.crate.owner].coins >= ransom(s, sp.cover):
            return None
        return _refuse(s, r, True, ev)
    if r.stage is Stage.DISTRIBUTE:
        nxt = next_crate(s, r)
        if nxt is None:
            return replace_head(s, evolve(r, stage=Stage.LAUNCH, candidates=_launch_candidates(s, r)))
        seat, space = nxt
        resource = ISLANDS[r.island].spaces[space]
        if load_targets(s.players[seat].ships, resource):
            return None
        return _sell(s, r, nxt, True, ev)
    if r.stage is Stage.LAUNCH:
        if not r.candidates:
            return replace_head(s, evolve(r, stage=Stage.CLEANUP))
        card = r.candidates[0]
        owner, i = find_ship(s, card)
        if owner < 0:
            return replace_head(s, evolve(r, candidates=r.candidates[1:]))
        ship = s.players[owner].ships[i]
        if ship_full(ship):
            s = replace_head(s, evolve(r, candidates=r.candidates[1:]))
            return start_launch(s, Seat(owner), card, ev)
        if ship_launchable(ship):
            return None
        return replace_head(s, evolve(r, candidates=r.candidates[1:]))
    return _cleanup(s, r, ev)


def options(s: State, r: Resolution) -> list[Action]:
    """The waiting seat's choices (SD7, SD8 or SD9)."""
    if r.stage is Stage.RANSOM:
        return [PayRansom(), RefuseRansom()]
    if r.stage is Stage.DISTRIBUTE:
        nxt = next_crate(s, r)
        assert nxt is not None
        seat, space = nxt
        resource = ISLANDS[r.island].spaces[space]
        targets = load_targets(s.players[seat].ships, resource)
        return [*(LoadCrate(ship, i) for ship, i in targets), SellCrate()]
    card = r.candidates[0]
    return [LaunchShip(card), KeepShip(card)]


def default(s: State, r: Resolution) -> Action:
    """SD7 refuse; SD8 first non-coin space, else coin space, else the coin; SD9 launch."""
    if r.stage is Stage.RANSOM:
        return RefuseRansom()
    if r.stage is Stage.DISTRIBUTE:
        nxt = next_crate(s, r)
        assert nxt is not None
        targets = load_targets(s.players[nxt[0]].ships, ISLANDS[r.island].spaces[nxt[1]])
        return LoadCrate(*targets[0]) if targets else SellCrate()
    return LaunchShip(r.candidates[0])


def decide(s: State, r: Resolution, action: Action, ev: EventList) -> State:
    """Apply the waiting seat's answer."""
    if r.stage is Stage.RANSOM:
        if isinstance(action, PayRansom):
            return _pay(s, r, ev)
        if isinstance(action, RefuseRansom):
            return _refuse(s, r, False, ev)
        raise IllegalAction("your covered crate is held to ransom: PayRansom or RefuseRansom")
    if r.stage is Stage.DISTRIBUTE:
        nxt = next_crate(s, r)
        assert nxt is not None
        seat, space = nxt
        if isinstance(action, SellCrate):
            return _sell(s, r, nxt, False, ev)
        if isinstance(action, LoadCrate):
            resource = ISLANDS[r.island].spaces[space]
            if (action.ship, action.space) not in load_targets(s.players[seat].ships, resource):
                kind = resource.name.lower()
                msg = f"{action.ship} space {action.space} is not an empty {kind} space of your ships"
                raise IllegalAction(msg, ship=action.ship)
            return _load(s, r, nxt, (action.ship, action.space), ev)
        raise IllegalAction("your crate on the resolving island must be loaded (LoadCrate) or sold (SellCrate)")
    card = r.candidates[0]
    if isinstance(action, LaunchShip | KeepShip) and action.ship != card:
        raise IllegalAction(f"the decision is about ship {card}", ship=action.ship)
    if isinstance(action, LaunchShip):
        owner = find_ship(s, card)[0]
        s = replace_head(s, evolve(r, candidates=r.candidates[1:]))
        return start_launch(s, Seat(owner), card, ev)
    if isinstance(action, KeepShip):
        ev.append(ShipKept(Seat(find_ship(s, card)[0]), card))
        return replace_head(s, evolve(r, candidates=r.candidates[1:]))
    raise IllegalAction(f"ship {card} can launch: LaunchShip or KeepShip")
