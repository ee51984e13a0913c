"""The state of a Sail Away game: plain frozen values, updated copy-on-write."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from flotilla.rules import Rng, Seat
from flotilla.rules.snapshot import Record, Upcaster

from .config import Config

SCHEMA_VERSION = 2
"""This game's snapshot schema version (`flotilla.rules.snapshot`): bump it, with an entry
in UPCASTERS, for a state change that needs more than a new field's default.

2: SD1 is answered ship by ship, so `PlayerState.kept` may hold 1 or 2 picks of an unfinished
answer; version-1 code would read those as a complete answer, so it must refuse these snapshots."""


def _v1_to_v2(root: Record) -> Record:
    """A version-1 `kept` is empty or a complete answer: it means the same in version 2."""
    return root


UPCASTERS: dict[int, Upcaster] = {1: _v1_to_v2}


@dataclass(frozen=True, slots=True)
class Crate:
    """A crate of `owner`'s colour; it keeps its owner wherever it goes (SR21)."""

    owner: Seat
    pirate: bool = False


@dataclass(frozen=True, slots=True)
class IslandSpace:
    """A resource space of an island; `cover` owns a pirate crate sitting on `crate` (SR15)."""

    crate: Crate | None = None
    cover: Seat | None = None


@dataclass(frozen=True, slots=True)
class Island:
    """A face-up island and its spaces; `post` is the claimant's post (no longer open)."""

    card: str
    spaces: tuple[IslandSpace, ...]
    post: Seat | None = None


@dataclass(frozen=True, slots=True)
class Ship:
    """An unlaunched ship and the crate on each of its spaces."""

    card: str
    crates: tuple[Crate | None, ...]


@dataclass(frozen=True, slots=True)
class LaunchedShip:
    """A launched ship: its slot (0 = beside the board, SR10), launch turn, ability used."""

    card: str
    slot: int
    turn: int
    used: bool = False


@dataclass(frozen=True, slots=True)
class PirateCard:
    """A pirate action card in play; each space holds the owner of its crate or None."""

    card: str
    spaces: tuple[Seat | None, ...]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One seat's supply, board and ships."""

    standard: int
    pirate: int
    reserve_standard: int
    reserve_pirate: int
    posts: int
    coins: int
    objective: str
    ships: tuple[Ship, ...] = ()
    launched: tuple[LaunchedShip, ...] = ()
    dealt: tuple[str, ...] = ()  # setup hand (SD1), secret
    kept: tuple[str, ...] = ()  # SD1 answer so far (picked one by one) while others still choose, secret
    returned: tuple[str, ...] = ()  # the 3 ships given back at setup, seen by this seat only


class Stage(enum.Enum):
    """Steps of an island resolution (§4.5)."""

    RANSOM = 1
    DISTRIBUTE = 2
    LAUNCH = 3
    CLEANUP = 4


@dataclass(frozen=True, slots=True)
class Resolution:
    """An island being resolved for `claimant` (`posted`: a post was put on it)."""

    island: str
    claimant: Seat
    posted: bool
    stage: Stage = Stage.RANSOM
    index: int = 0
    touched: tuple[str, ...] = ()  # ships that received a crate in the distribution
    candidates: tuple[str, ...] = ()  # ships still to check in the launch stage


@dataclass(frozen=True, slots=True)
class Launching:
    """A ship leaving port: its owner still chooses a slot (SD10) and/or a market ship (SD11)."""

    owner: Seat
    ship: str
    choose_slot: bool


@dataclass(frozen=True, slots=True)
class CardEffect:
    """The active seat chooses the parameters of a one-time pirate action card (SD6)."""

    card: str


Task = Resolution | Launching | CardEffect


class Phase(enum.Enum):
    """Where the game is."""

    CHOOSE_SHIPS = 1  # SD1, simultaneous
    CRATE_CHECK = 2  # SD2
    PLACEMENT = 3  # SD3-SD5, SD9 (own ships)
    RESOLVING = 4  # islands claimed with a post, end of turn
    FINISHED = 5


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    """Everything about one game. `tasks[0]` (if any) is the decision being waited for."""

    config: Config
    rng: Rng
    phase: Phase
    start_player: Seat
    active: Seat
    turn: int  # 1-based count of turns started (0 during setup)
    players: tuple[PlayerState, ...]
    islands: tuple[Island, ...]
    island_deck: tuple[str, ...]  # sorted multiset
    island_discard: tuple[str, ...]
    pirate_cards: tuple[PirateCard, ...]
    pirate_box: tuple[str, ...]  # sorted, unseen
    market: tuple[str | None, ...]
    ship_deck: tuple[str, ...]  # sorted multiset
    public_objective: str
    objective_box: tuple[str, ...]  # sorted, unseen
    tasks: tuple[Task, ...] = ()
    placed: int = 0
    extra: int = 0
    used_cards: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    end_trigger: Seat | None = None
    final_turns: int = 0
