"""Every decision of spec §5 as a typed action (imperative names; ids, not positions)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Seat

from .cards import CardId, ContractId


@dataclass(frozen=True, slots=True)
class DiscoverCard:
    """D3 / first card: reveal the next card (from the time pile first in co-op)."""


@dataclass(frozen=True, slots=True)
class StopDiscovering:
    """D3: stop revealing and start Phase 2 (Trade & Hire)."""


@dataclass(frozen=True, slots=True)
class RepelShip:
    """D2: repel the waiting ship with your swords (it goes to the discard pile)."""


@dataclass(frozen=True, slots=True)
class AdmitShip:
    """D2: let the waiting ship into the harbor (a second ship of a colour busts)."""


@dataclass(frozen=True, slots=True)
class TradeShip:
    """D5/D6/D7: trade `card`; `gift_to` names who gets a special ship's extra coin;
    `refuse_coins` refuses every coin of the trade for Frigate Foe / Galleon Foe."""

    card: CardId
    gift_to: Seat | None = None
    refuse_coins: bool = False


@dataclass(frozen=True, slots=True)
class HirePerson:
    """D5: hire the person `card` from the harbor."""

    card: CardId


@dataclass(frozen=True, slots=True)
class FulfillExpedition:
    """D4: fulfil `expedition`, discarding `persons` (canonical order) from your display."""

    expedition: CardId
    persons: tuple[CardId, ...]


@dataclass(frozen=True, slots=True)
class CompleteContract:
    """D8-D12: complete `contract` (for Tiny Gamester at its first trigger: prepare it)."""

    contract: ContractId


@dataclass(frozen=True, slots=True)
class DeclineContract:
    """D8/D9/D10: do not complete (or prepare) the contract you are asked about."""

    contract: ContractId


@dataclass(frozen=True, slots=True)
class MoveTimeCard:
    """D13 (co-op): move the top time card to the victory pile."""


@dataclass(frozen=True, slots=True)
class KeepTimeCard:
    """D13 (co-op): leave the time pile as it is."""


@dataclass(frozen=True, slots=True)
class Pass:
    """D5: end your Trade & Hire window."""


Action = (
    DiscoverCard
    | StopDiscovering
    | RepelShip
    | AdmitShip
    | TradeShip
    | HirePerson
    | FulfillExpedition
    | CompleteContract
    | DeclineContract
    | MoveTimeCard
    | KeepTimeCard
    | Pass
)
ACTION_TYPES: tuple[type, ...] = (
    DiscoverCard,
    StopDiscovering,
    RepelShip,
    AdmitShip,
    TradeShip,
    HirePerson,
    FulfillExpedition,
    CompleteContract,
    DeclineContract,
    MoveTimeCard,
    KeepTimeCard,
    Pass,
)
