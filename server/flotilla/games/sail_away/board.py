"""Small shared helpers: seats' supplies, coins, crates returning home, rows and persistent cards."""

from __future__ import annotations

from flotilla.rules import Seat, draw
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import tables
from .cards import HARBOR_DUES, ISLANDS, SEA_LEGS, SHIPS, launchable
from .events import Event, IslandDeckRefilled, IslandDiscarded, IslandRevealed, MarketRefilled
from .state import Crate, Island, IslandSpace, PlayerState, Ship, State, Task

EventList = list[Event]


def set_player(s: State, seat: Seat, p: PlayerState) -> State:
    """`s` with seat `seat`'s state replaced."""
    return evolve(s, players=replace_at(s.players, seat, p))


def add_coins(s: State, seat: Seat, delta: int) -> State:
    """`s` with `delta` coins added to (or taken from) `seat`."""
    p = s.players[seat]
    return set_player(s, seat, evolve(p, coins=p.coins + delta))


def return_crates(s: State, crates: list[Crate]) -> State:
    """Every crate in `crates` goes back to its owner's supply (§4.4)."""
    players = list(s.players)
    for crate in crates:
        p = players[crate.owner]
        if crate.pirate:
            players[crate.owner] = evolve(p, pirate=p.pirate + 1)
        else:
            players[crate.owner] = evolve(p, standard=p.standard + 1)
    return evolve(s, players=tuple(players))


def take_from_supply(p: PlayerState, pirate: bool) -> PlayerState:
    """`p` with one crate of the kind taken from its supply."""
    if pirate:
        return evolve(p, pirate=p.pirate - 1)
    return evolve(p, standard=p.standard - 1)


def push_task(s: State, task: Task) -> State:
    """`s` with `task` on top of the task stack."""
    return evolve(s, tasks=(task, *s.tasks))


def replace_head(s: State, task: Task | None) -> State:
    """`s` with the top task replaced by `task` (or removed when None)."""
    rest = s.tasks[1:]
    return evolve(s, tasks=rest if task is None else (task, *rest))


def island_index(s: State, card: str) -> int:
    """Row position of island `card` (-1 if it is not face up)."""
    for i, island in enumerate(s.islands):
        if island.card == card:
            return i
    return -1


def find_ship(s: State, card: str) -> tuple[int, int]:
    """(owner, row position) of unlaunched ship `card`, or (-1, -1)."""
    for seat, p in enumerate(s.players):
        for i, ship in enumerate(p.ships):
            if ship.card == card:
                return seat, i
    return -1, -1


def ship_launchable(ship: Ship) -> bool:
    """Every non-coin space of the ship holds a crate."""
    return launchable(SHIPS[ship.card], tuple(c is not None for c in ship.crates))


def ship_full(ship: Ship) -> bool:
    """Every space of the ship holds a crate."""
    return None not in ship.crates


def holds(s: State, seat: Seat, card: str) -> bool:
    """`seat` has a crate on pirate action card `card` (persistent effects, SR16: no stacking)."""
    for pc in s.pirate_cards:
        if pc.card == card:
            return seat in pc.spaces
    return False


def crate_limit(s: State, seat: Seat) -> int:
    """The crate limit of the active seat this turn (§4.2, PA6, L1)."""
    base = tables.SEA_LEGS_CRATE_LIMIT if holds(s, seat, SEA_LEGS) else tables.BASE_CRATE_LIMIT
    return base + s.extra


def harbor_dues_holders(s: State) -> tuple[Seat, ...]:
    """Seats holding a crate on Harbor Dues."""
    for pc in s.pirate_cards:
        if pc.card == HARBOR_DUES:
            return tuple(sorted({x for x in pc.spaces if x is not None}))
    return ()


def new_island(card: str) -> Island:
    """A fresh face-up island with empty spaces."""
    return Island(card, tuple(IslandSpace() for _ in ISLANDS[card].spaces))


def replace_island(s: State, position: int, ev: EventList) -> State:
    """Discard the island at `position` and reveal a new one there (§4.5 d, SR12)."""
    old = s.islands[position].card
    discard = (*s.island_discard, old)
    deck = s.island_deck
    ev.append(IslandDiscarded(old))
    if not deck:
        deck = tuple(sorted(discard))
        discard = ()
        ev.append(IslandDeckRefilled(len(deck)))
    card, deck, rng = draw(deck, s.rng)
    ev.append(IslandRevealed(position, card))
    return evolve(
        s,
        islands=replace_at(s.islands, position, new_island(card)),
        island_deck=deck,
        island_discard=discard,
        rng=rng,
    )


def refill_market(s: State, position: int, ev: EventList) -> State:
    """Draw a ship into an empty market position if the deck has one (SR11: no reshuffle)."""
    if not s.ship_deck:
        return evolve(s, market=replace_at(s.market, position, None))
    card, deck, rng = draw(s.ship_deck, s.rng)
    ev.append(MarketRefilled(position, card))
    return evolve(s, market=replace_at(s.market, position, card), ship_deck=deck, rng=rng)


def seats_from(s: State, first: Seat) -> list[Seat]:
    """Every seat in turn order starting with `first`."""
    n = len(s.players)
    return [Seat((first + k) % n) for k in range(n)]
