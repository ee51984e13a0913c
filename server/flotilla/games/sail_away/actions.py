"""Sail Away actions: one dataclass per decision (spec §5). Space numbers count from 0."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Seat


@dataclass(frozen=True, slots=True)
class KeepShips:
    """SD1 at once: keep these 3 of the 6 dealt ships, in this order (positions 1..3); after some
    `PickShip`s, the ships picked so far come first. Prompts list one of them (the SD1 default)."""

    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PickShip:
    """SD1 step by step: keep this dealt ship at the next position (three picks answer SD1)."""

    ship: str


@dataclass(frozen=True, slots=True)
class TakeCrateFromShip:
    """SD2: with an empty supply, take your crate from this ship space into your supply."""

    ship: str
    space: int


@dataclass(frozen=True, slots=True)
class PlaceCrate:
    """SD3: place a standard (or pirate) crate on an empty space of an open island."""

    island: str
    space: int
    pirate: bool


@dataclass(frozen=True, slots=True)
class CoverCrate:
    """SD3: place a pirate crate on another seat's uncovered standard crate on an open island."""

    island: str
    space: int


@dataclass(frozen=True, slots=True)
class PlaceOnPirateCard:
    """SD3: place a pirate crate on a free space of a pirate action card (its effect follows)."""

    card: str


@dataclass(frozen=True, slots=True)
class EndPlacement:
    """SD3: end the placement step (islands claimed with a post then resolve)."""


@dataclass(frozen=True, slots=True)
class RetrieveCrate:
    """SD5: pay 4 coins to take your pirate crate back from this pirate action card."""

    card: str


@dataclass(frozen=True, slots=True)
class UseExtraCrate:
    """L1 (SD4, or Dirty Deeds): place one more crate than your limit this turn."""


@dataclass(frozen=True, slots=True)
class DirectLoad:
    """L2: put a crate from your supply on an empty space of one of your ships."""

    ship: str
    space: int
    pirate: bool


@dataclass(frozen=True, slots=True)
class ClaimIsland:
    """L3: claim an open island even though it has empty spaces."""

    island: str


@dataclass(frozen=True, slots=True)
class ReleaseCrate:
    """L4: return `owner`'s pirate crate on this pirate action card to its owner."""

    card: str
    owner: Seat


@dataclass(frozen=True, slots=True)
class TakeReserve:
    """L5: move your reserve crates into your supply."""


@dataclass(frozen=True, slots=True)
class ForceSale:
    """PA1: pay the ship's owner 1 coin; move its standard crate to a same-resource space of yours."""

    from_ship: str
    from_space: int
    to_ship: str
    to_space: int


@dataclass(frozen=True, slots=True)
class SmuggleCrate:
    """PA2: move your crate from an open island to a same-resource empty space of your ship."""

    island: str
    space: int
    ship: str
    ship_space: int


@dataclass(frozen=True, slots=True)
class ClearIsland:
    """PA4: return every crate on this open island to its owner and replace the island."""

    island: str


@dataclass(frozen=True, slots=True)
class PayRansom:
    """SD7: pay the ransom for your covered crate (the pirate crate goes back)."""


@dataclass(frozen=True, slots=True)
class RefuseRansom:
    """SD7: refuse; your standard crate returns and the pirate crate takes the space."""


@dataclass(frozen=True, slots=True)
class LoadCrate:
    """SD8: put your crate from the resolving island on this empty same-resource ship space."""

    ship: str
    space: int


@dataclass(frozen=True, slots=True)
class SellCrate:
    """SD8: take your crate from the resolving island back to your supply and gain 1 coin."""


@dataclass(frozen=True, slots=True)
class LaunchShip:
    """SD9 or a free action in your placement step: launch this launchable ship."""

    ship: str


@dataclass(frozen=True, slots=True)
class KeepShip:
    """SD9: do not launch this launchable (not full) ship now."""

    ship: str


@dataclass(frozen=True, slots=True)
class ChooseSlot:
    """SD10: put the launched ship under this free ability slot (1-5)."""

    slot: int


@dataclass(frozen=True, slots=True)
class TakeMarketShip:
    """SD11: take this ship from the market into your unlaunched ships."""

    ship: str


Action = (
    KeepShips
    | TakeCrateFromShip
    | PlaceCrate
    | CoverCrate
    | PlaceOnPirateCard
    | EndPlacement
    | RetrieveCrate
    | UseExtraCrate
    | DirectLoad
    | ClaimIsland
    | ReleaseCrate
    | TakeReserve
    | ForceSale
    | SmuggleCrate
    | ClearIsland
    | PayRansom
    | RefuseRansom
    | LoadCrate
    | SellCrate
    | LaunchShip
    | KeepShip
    | ChooseSlot
    | TakeMarketShip
    | PickShip
)

ACTION_TYPES: tuple[type, ...] = (
    KeepShips,
    TakeCrateFromShip,
    PlaceCrate,
    CoverCrate,
    PlaceOnPirateCard,
    EndPlacement,
    RetrieveCrate,
    UseExtraCrate,
    DirectLoad,
    ClaimIsland,
    ReleaseCrate,
    TakeReserve,
    ForceSale,
    SmuggleCrate,
    ClearIsland,
    PayRansom,
    RefuseRansom,
    LoadCrate,
    SellCrate,
    LaunchShip,
    KeepShip,
    ChooseSlot,
    TakeMarketShip,
    PickShip,
)
