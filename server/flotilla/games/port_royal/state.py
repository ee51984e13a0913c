"""The game state: a frozen value (spec §0.2 vocabulary)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Rng, Seat
from flotilla.rules.snapshot import Upcaster

from .cards import CardId, ContractId
from .config import Config

SCHEMA_VERSION = 1
"""This game's snapshot schema version (`flotilla.rules.snapshot`): bump it, with an entry
in UPCASTERS, for a state change that needs more than a new field's default."""
UPCASTERS: dict[int, Upcaster] = {}


@dataclass(frozen=True, slots=True)
class Discover:
    """D3 (or the forced first reveal): the active player reveals another card or stops."""


@dataclass(frozen=True, slots=True)
class Repel:
    """D2: the active player may repel `ship`, which waits beside the harbor."""

    ship: CardId


@dataclass(frozen=True, slots=True)
class Gamester:
    """D10: the active player is asked about each contract of `queue` in turn (C14 / C16)."""

    queue: tuple[ContractId, ...]


@dataclass(frozen=True, slots=True)
class Jinx:
    """D9: the active player busted; they may complete C11 before the bust resolves."""


@dataclass(frozen=True, slots=True)
class TaxOfficer:
    """D8: each seat of `queue` (taxed and eligible) decides on C03; then the bonus of `tax`."""

    tax: CardId
    queue: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class TimeCard:
    """D13 (co-op): after a tax increase the team may move a time card to the victory pile."""


@dataclass(frozen=True, slots=True)
class Window:
    """Phase 2: `seat` may take up to `allowance` more cards."""

    seat: Seat
    allowance: int


@dataclass(frozen=True, slots=True)
class Finished:
    """The game is over; `coop_won` is set in the co-op mode."""

    coop_won: bool | None = None


Phase = Discover | Repel | Gamester | Jinx | TaxOfficer | TimeCard | Window | Finished


@dataclass(frozen=True, slots=True)
class PrepCube:
    """A cube of `seat` in preparation box `box` (1 or 2), put there in turn `turn`."""

    seat: Seat
    box: int
    turn: int


@dataclass(frozen=True, slots=True)
class Contract:
    """A face-up contract: cube owners on the coin slots (left to right) and prep cubes."""

    contract: ContractId
    slots: tuple[Seat, ...] = ()
    boxes: tuple[PrepCube, ...] = ()


@dataclass(frozen=True, slots=True)
class Player:
    """One seat: personal display, face-down coin stack (oldest first), contract progress."""

    display: tuple[CardId, ...] = ()
    coins: tuple[CardId, ...] = ()
    completed: tuple[ContractId, ...] = ()
    tokens: int = 0
    collection: tuple[CardId, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    """Everything; the draw, time and victory piles are sorted multisets (spec §6.1)."""

    config: Config
    rng: Rng
    start: Seat
    active: Seat
    turn: int
    revealed: int
    phase: Phase
    draw_pile: tuple[CardId, ...]
    discard: tuple[CardId, ...] = ()
    harbor: tuple[CardId, ...] = ()
    expeditions: tuple[CardId, ...] = ()
    players: tuple[Player, ...] = ()
    base_allowance: int = 1
    end_triggered: bool = False
    contracts: tuple[Contract, ...] = ()
    contract_pile: tuple[ContractId, ...] = ()
    spare_contracts: tuple[ContractId, ...] = ()
    token_counters: int = 0
    time_pile: tuple[CardId, ...] = ()
    victory_pile: tuple[CardId, ...] = ()
    reshuffled: tuple[CardId, ...] = ()
    """Public history: the face-up discard pile that became the draw pile at the last reshuffle
    (all reshuffles of that action). Cards revealed and then reshuffled within one action stay
    on record here, so what an event showed is always backed by the view."""
