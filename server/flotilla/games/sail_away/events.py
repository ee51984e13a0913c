"""Sail Away events: past-tense facts, unredacted (see views.redact). Spaces count from 0."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Seat


@dataclass(frozen=True, slots=True)
class ShipsKept:
    """A seat answered SD1 (the ships are blanked for everyone else until all have chosen)."""

    seat: Seat
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ShipPicked:
    """SD1 step by step: a seat kept one more ship (`position` 1 or 2; the third pick completes
    the answer, `ShipsKept`). Seen by that seat only."""

    seat: Seat
    ship: str
    position: int


@dataclass(frozen=True, slots=True)
class ShipsRevealed:
    """After every SD1 answer, a seat's kept ships are laid face up."""

    seat: Seat
    ships: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MarketRefilled:
    """A ship was drawn from the ship deck into a market position (0-based)."""

    position: int
    ship: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A seat's turn began."""

    seat: Seat
    turn: int


@dataclass(frozen=True, slots=True)
class CrateTakenFromShip:
    """With an empty supply, a seat took its crate from one of its ships (SD2)."""

    seat: Seat
    ship: str
    space: int
    pirate: bool


@dataclass(frozen=True, slots=True)
class CratePlaced:
    """A crate was placed on an empty island space."""

    seat: Seat
    island: str
    space: int
    pirate: bool
    surcharge: int


@dataclass(frozen=True, slots=True)
class CrateCovered:
    """A pirate crate was placed on another seat's standard crate."""

    seat: Seat
    island: str
    space: int
    surcharge: int


@dataclass(frozen=True, slots=True)
class CratePlacedOnCard:
    """A pirate crate was placed on a pirate action card space."""

    seat: Seat
    card: str
    space: int
    surcharge: int


@dataclass(frozen=True, slots=True)
class IslandClaimed:
    """A seat claimed an island, with a post (resolves at the end of the step) or without (now)."""

    seat: Seat
    island: str
    post: bool


@dataclass(frozen=True, slots=True)
class CrateRetrieved:
    """A seat paid to take its pirate crate back from a pirate action card."""

    seat: Seat
    card: str
    cost: int


@dataclass(frozen=True, slots=True)
class AbilityUsed:
    """A seat used a launch ability (1-5); `free` when granted by Dirty Deeds."""

    seat: Seat
    ability: int
    free: bool


@dataclass(frozen=True, slots=True)
class CrateDirectLoaded:
    """L2: a crate went from the supply onto a ship space."""

    seat: Seat
    ship: str
    space: int
    pirate: bool


@dataclass(frozen=True, slots=True)
class CrateReleased:
    """L4: `owner`'s pirate crate left a pirate action card."""

    seat: Seat
    card: str
    owner: Seat


@dataclass(frozen=True, slots=True)
class ReserveTaken:
    """L5: the reserve crates went into the supply."""

    seat: Seat
    standard: int
    pirate: int


@dataclass(frozen=True, slots=True)
class CrateForceSold:
    """PA1: a standard crate moved from `victim`'s ship to `seat`'s ship for 1 coin."""

    seat: Seat
    victim: Seat
    from_ship: str
    from_space: int
    to_ship: str
    to_space: int
    price: int


@dataclass(frozen=True, slots=True)
class CrateSmuggled:
    """PA2: a seat moved its crate from an island to its ship."""

    seat: Seat
    island: str
    space: int
    ship: str
    ship_space: int


@dataclass(frozen=True, slots=True)
class IslandCleared:
    """PA4: every crate on an island went back to its owner and the island was discarded."""

    seat: Seat
    island: str


@dataclass(frozen=True, slots=True)
class TreasureFound:
    """PA5: a seat gained coins."""

    seat: Seat
    coins: int


@dataclass(frozen=True, slots=True)
class EffectSkipped:
    """A one-time pirate action had no legal way to be carried out (SR16)."""

    seat: Seat
    card: str


@dataclass(frozen=True, slots=True)
class PlacementEnded:
    """The active seat ended its placement step."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class RansomPaid:
    """SD7: the covered crate's owner paid; the pirate crate went back."""

    payer: Seat
    pirate_owner: Seat
    island: str
    space: int
    amount: int


@dataclass(frozen=True, slots=True)
class RansomRefused:
    """SD7: the covered standard crate went back; the pirate crate took the space."""

    payer: Seat
    pirate_owner: Seat
    island: str
    space: int
    forced: bool


@dataclass(frozen=True, slots=True)
class CrateLoaded:
    """SD8: a crate went from the resolving island onto its owner's ship."""

    seat: Seat
    island: str
    space: int
    ship: str
    ship_space: int


@dataclass(frozen=True, slots=True)
class CrateSold:
    """SD8: a crate went back to its owner's supply for 1 coin (`forced`: no matching space)."""

    seat: Seat
    island: str
    space: int
    coins: int
    forced: bool


@dataclass(frozen=True, slots=True)
class ShipLaunched:
    """A ship was launched; its crates went back to their owners; `gold` coins were gained."""

    seat: Seat
    ship: str
    gold: int


@dataclass(frozen=True, slots=True)
class ShipKept:
    """SD9: a launchable ship stays in port for now."""

    seat: Seat
    ship: str


@dataclass(frozen=True, slots=True)
class ShipSlotted:
    """A launched ship went under an ability slot (0 = beside the board: no slot left)."""

    seat: Seat
    ship: str
    slot: int


@dataclass(frozen=True, slots=True)
class MarketShipTaken:
    """SD11: a seat took a ship from the market."""

    seat: Seat
    ship: str


@dataclass(frozen=True, slots=True)
class IslandResolved:
    """The claimant gained the island's coins."""

    seat: Seat
    island: str
    coins: int


@dataclass(frozen=True, slots=True)
class HarborDuesPaid:
    """PA7: the claimant paid a Harbor Dues holder."""

    payer: Seat
    payee: Seat
    coins: int


@dataclass(frozen=True, slots=True)
class IslandDiscarded:
    """An island left the row for the discard pile."""

    island: str


@dataclass(frozen=True, slots=True)
class IslandDeckRefilled:
    """The island discard pile became the island deck (SR12)."""

    size: int


@dataclass(frozen=True, slots=True)
class IslandRevealed:
    """A new island appeared at a row position (0-based)."""

    position: int
    island: str


@dataclass(frozen=True, slots=True)
class EndTriggered:
    """A seat ended its turn with 5 launched ships: every other seat takes one more turn."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Final scores; every secret objective is revealed (`objectives` by seat)."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    objectives: tuple[str, ...]
    public_objective_winner: Seat | None
    round_cap: bool


Event = (
    ShipsKept
    | ShipsRevealed
    | MarketRefilled
    | TurnStarted
    | CrateTakenFromShip
    | CratePlaced
    | CrateCovered
    | CratePlacedOnCard
    | IslandClaimed
    | CrateRetrieved
    | AbilityUsed
    | CrateDirectLoaded
    | CrateReleased
    | ReserveTaken
    | CrateForceSold
    | CrateSmuggled
    | IslandCleared
    | TreasureFound
    | EffectSkipped
    | PlacementEnded
    | RansomPaid
    | RansomRefused
    | CrateLoaded
    | CrateSold
    | ShipLaunched
    | ShipKept
    | ShipSlotted
    | MarketShipTaken
    | IslandResolved
    | HarborDuesPaid
    | IslandDiscarded
    | IslandDeckRefilled
    | IslandRevealed
    | EndTriggered
    | GameEnded
    | ShipPicked
)

EVENT_TYPES: tuple[type, ...] = (
    ShipsKept,
    ShipsRevealed,
    MarketRefilled,
    TurnStarted,
    CrateTakenFromShip,
    CratePlaced,
    CrateCovered,
    CratePlacedOnCard,
    IslandClaimed,
    CrateRetrieved,
    AbilityUsed,
    CrateDirectLoaded,
    CrateReleased,
    ReserveTaken,
    CrateForceSold,
    CrateSmuggled,
    IslandCleared,
    TreasureFound,
    EffectSkipped,
    PlacementEnded,
    RansomPaid,
    RansomRefused,
    CrateLoaded,
    CrateSold,
    ShipLaunched,
    ShipKept,
    ShipSlotted,
    MarketShipTaken,
    IslandResolved,
    HarborDuesPaid,
    IslandDiscarded,
    IslandDeckRefilled,
    IslandRevealed,
    EndTriggered,
    GameEnded,
    ShipPicked,
)
