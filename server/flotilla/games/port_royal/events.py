"""Past-tense facts. All are public: no event names a face-down card (spec §7)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from flotilla.rules import Seat

from .cards import CardId, ContractId


class CoinReason(enum.Enum):
    """Why coins moved."""

    STARTING = 1
    SHIP = 2
    SPECIAL_SHIP = 3
    ADMIRAL = 4
    VICE_ADMIRAL = 5
    GUNNER = 6
    JESTER = 7
    TAX_BONUS = 8
    EXPEDITION = 9
    CONTRACT = 10
    HIRE = 11
    FEE = 12
    TAX = 13
    RANSOM = 14


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: Seat
    turn: int


@dataclass(frozen=True, slots=True)
class CardRevealed:
    seat: Seat
    card: CardId
    from_time_pile: bool


@dataclass(frozen=True, slots=True)
class ShipDocked:
    seat: Seat
    card: CardId


@dataclass(frozen=True, slots=True)
class ShipRepelled:
    seat: Seat
    card: CardId
    collected: bool


@dataclass(frozen=True, slots=True)
class HarborBusted:
    seat: Seat
    card: CardId


@dataclass(frozen=True, slots=True)
class CoinsGained:
    """`seat` drew `count` face-down coin cards (fewer than asked only if both piles ran dry)."""

    seat: Seat
    count: int
    reason: CoinReason


@dataclass(frozen=True, slots=True)
class CoinsPaid:
    """`seat` paid `count` coins: to the bank (`cards` face up on the discard pile) or to `to_seat`."""

    seat: Seat
    count: int
    to_seat: Seat | None
    cards: tuple[CardId, ...]
    reason: CoinReason


@dataclass(frozen=True, slots=True)
class DrawPileReshuffled:
    cards: int


@dataclass(frozen=True, slots=True)
class DiscoverStopped:
    seat: Seat
    base_allowance: int


@dataclass(frozen=True, slots=True)
class WindowOpened:
    seat: Seat
    allowance: int


@dataclass(frozen=True, slots=True)
class WindowClosed:
    seat: Seat


@dataclass(frozen=True, slots=True)
class ShipTraded:
    seat: Seat
    card: CardId
    refused: bool
    gift_to: Seat | None


@dataclass(frozen=True, slots=True)
class PersonHired:
    seat: Seat
    card: CardId
    price: int


@dataclass(frozen=True, slots=True)
class ExpeditionFulfilled:
    seat: Seat
    expedition: CardId
    persons: tuple[CardId, ...]


@dataclass(frozen=True, slots=True)
class ContractCompleted:
    seat: Seat
    contract: ContractId
    slot: int
    coins: int
    vp_tokens: int


@dataclass(frozen=True, slots=True)
class ContractPrepared:
    seat: Seat
    contract: ContractId
    box: int


@dataclass(frozen=True, slots=True)
class ContractDeclined:
    seat: Seat
    contract: ContractId


@dataclass(frozen=True, slots=True)
class CollectionDiscarded:
    seat: Seat
    cards: tuple[CardId, ...]


@dataclass(frozen=True, slots=True)
class HarborCleared:
    cards: tuple[CardId, ...]


@dataclass(frozen=True, slots=True)
class TimeCardMoved:
    seat: Seat
    moved: bool


@dataclass(frozen=True, slots=True)
class EndTriggered:
    seat: Seat
    vp: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    coop_won: bool | None
    title: str


Event = (
    TurnStarted
    | CardRevealed
    | ShipDocked
    | ShipRepelled
    | HarborBusted
    | CoinsGained
    | CoinsPaid
    | DrawPileReshuffled
    | DiscoverStopped
    | WindowOpened
    | WindowClosed
    | ShipTraded
    | PersonHired
    | ExpeditionFulfilled
    | ContractCompleted
    | ContractPrepared
    | ContractDeclined
    | CollectionDiscarded
    | HarborCleared
    | TimeCardMoved
    | EndTriggered
    | GameEnded
)
EVENT_TYPES: tuple[type, ...] = (
    TurnStarted,
    CardRevealed,
    ShipDocked,
    ShipRepelled,
    HarborBusted,
    CoinsGained,
    CoinsPaid,
    DrawPileReshuffled,
    DiscoverStopped,
    WindowOpened,
    WindowClosed,
    ShipTraded,
    PersonHired,
    ExpeditionFulfilled,
    ContractCompleted,
    ContractPrepared,
    ContractDeclined,
    CollectionDiscarded,
    HarborCleared,
    TimeCardMoved,
    EndTriggered,
    GameEnded,
)
