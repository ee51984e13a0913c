"""The Navegador game state: a frozen value, updated copy-on-write."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Rng, Seat
from flotilla.rules.snapshot import Upcaster

from .config import Config
from .tables import Colour, Space

SCHEMA_VERSION = 1
"""This game's snapshot schema version (`flotilla.rules.snapshot`): bump it, with an entry
in UPCASTERS, for a state change that needs more than a new field's default."""
UPCASTERS: dict[int, Upcaster] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Holding:
    """Who holds one building or colony space, with how many workers (owner None = empty)."""

    owner: Seat | None = None
    workers: int = 0


EMPTY = Holding()


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerState:
    """One trading house."""

    colour: Colour
    money: int
    lisbon: int
    ships: tuple[int, ...]  # ships by sea region SR0..SR12
    knights: int
    rondel: Space | None  # None until the first placement


@dataclass(frozen=True, slots=True, kw_only=True)
class Ledger:
    """Every flow through the bank and the supplies, kept only to check conservation."""

    money_paid_out: int = 0  # bank -> players
    money_paid_in: int = 0  # players -> bank
    workers_gained: tuple[int, ...] = ()  # by seat, from the supply
    workers_spent: tuple[int, ...] = ()  # by seat, back to the supply (knights)
    ships_gained: tuple[int, ...] = ()  # by seat
    ships_lost: tuple[int, ...] = ()  # by seat (rondel, voyages, exploring)
    cubes_added: tuple[int, ...] = (0, 0, 0)  # by good (sales)
    cubes_removed: tuple[int, ...] = (0, 0, 0)  # by good (consumption)


# --- phases: what decision is pending (the data travels with the phase) ---


@dataclass(frozen=True, slots=True, kw_only=True)
class Draft:
    """Setup: `chooser` puts a worker on an empty building; `picks_left` includes this one."""

    chooser: Seat
    picks_left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Rondel:
    """The active player moves (or first places) their rondel marker."""

    active: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class PayShips:
    """The active player picks, one at a time, the ships that pay for rondel steps beyond 3."""

    active: Seat
    space: Space
    owed: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Workers:
    active: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Ships:
    active: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Buildings:
    """D5; rules version 2 asks in two steps: `picked` is the building chosen first (then how many)."""

    active: Seat
    picked: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sailing:
    """Fleets are declared one at a time; `moved` = ships by region that already moved this action."""

    active: Seat
    moved: tuple[int, ...]
    explored: bool
    origin: str | None = None  # rules version 2: the next fleet's region, chosen first
    destination: str | None = None  # then its destination (then how many ships)


@dataclass(frozen=True, slots=True, kw_only=True)
class Colonies:
    """D7; rules version 2 asks each placement in two steps: `picked` is the colony chosen first."""

    active: Seat
    picked: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Consume:
    """Market step 1: `chooser` picks the good they consume; `left` seats still to choose after them."""

    active: Seat
    chooser: Seat
    left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Sell:
    """D9; rules version 2 asks one good at a time: `picked` = units chosen so far, in good order."""

    active: Seat
    picked: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Knight:
    active: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Displaced:
    """`seat`'s group of `workers` was pushed off `origin` (a building or colony id); they decide where."""

    active: Seat
    seat: Seat
    workers: int
    origin: str
    on_colony: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished:
    """The 15th knight's turn is over; the game is scored."""


Phase = (
    Draft
    | Rondel
    | PayShips
    | Workers
    | Ships
    | Buildings
    | Sailing
    | Colonies
    | Consume
    | Sell
    | Knight
    | Displaced
    | Finished
)


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    config: Config
    rng: Rng
    start_player: Seat
    players: tuple[PlayerState, ...]
    buildings: tuple[Holding, ...]  # B1..B7
    colonies: tuple[Holding, ...]  # C01..C21
    tiles: tuple[Seat | None, ...]  # exploration tile owner by region SR0..SR12 (SR0 has none)
    cubes: tuple[int, ...]  # market cubes: sugar, gold, spice
    knight_phase: int  # 1..3
    knight_step: int  # 0..4: index into KNIGHT_PRICES
    knights_sold: int  # 0..15
    phase: Phase
    turn: int  # turns started so far
    ledger: Ledger


def explored(state: State, region: int) -> bool:
    """Portugal is explored from the start; every other region once its tile is taken."""
    return region == 0 or state.tiles[region] is not None
