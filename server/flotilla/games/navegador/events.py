"""Navegador events: past-tense public facts (the game has perfect information, spec 7)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Seat

from .tables import Good, Space


@dataclass(frozen=True, slots=True)
class BuildingChosen:
    """Setup: `seat` put a worker on `building`."""

    seat: Seat
    building: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: Seat
    turn: int


@dataclass(frozen=True, slots=True)
class MarkerPlaced:
    """First turn: the marker was put on `space` for free."""

    seat: Seat
    space: Space


@dataclass(frozen=True, slots=True)
class MarkerMoved:
    """The marker moved `steps` to `space`; `ship_cost` ships are owed; `bonus` for passing the Knight."""

    seat: Seat
    steps: int
    space: Space
    ship_cost: int
    bonus: int


@dataclass(frozen=True, slots=True)
class ShipSacrificed:
    """A ship from `region` paid a rondel step."""

    seat: Seat
    region: str


@dataclass(frozen=True, slots=True)
class WorkersBought:
    seat: Seat
    count: int
    paid: int
    free: int
    lisbon: int


@dataclass(frozen=True, slots=True)
class ShipsBought:
    seat: Seat
    count: int
    paid: int
    free: int


@dataclass(frozen=True, slots=True)
class WorkersPlaced:
    """`seat` moved `workers` from Lisbon onto `place`, now holding it with `total`."""

    seat: Seat
    place: str
    workers: int
    total: int


@dataclass(frozen=True, slots=True)
class WorkersDisplaced:
    """`seat`'s `workers` were pushed off `place`."""

    seat: Seat
    place: str
    workers: int


@dataclass(frozen=True, slots=True)
class WorkersRelocated:
    """A displaced group moved as a whole onto `place`, now held with `total`."""

    seat: Seat
    place: str
    workers: int
    total: int


@dataclass(frozen=True, slots=True)
class WorkersReturned:
    """A displaced group went back to Lisbon; `paid` = 10 per worker."""

    seat: Seat
    workers: int
    paid: int


@dataclass(frozen=True, slots=True)
class BuildingDeclined:
    seat: Seat


@dataclass(frozen=True, slots=True)
class FleetSailed:
    """`ships` left `origin` for `destination` over `distance` borders; `lost` paid steps; `arrived` came."""

    seat: Seat
    origin: str
    destination: str
    distance: int
    ships: int
    lost: int
    arrived: int


@dataclass(frozen=True, slots=True)
class RegionExplored:
    """`seat` explored `region`: `sacrificed` ships lost, the tile and `bonus` money taken."""

    seat: Seat
    region: str
    sacrificed: int
    bonus: int


@dataclass(frozen=True, slots=True)
class SailingStopped:
    seat: Seat


@dataclass(frozen=True, slots=True)
class ColonizingStopped:
    seat: Seat


@dataclass(frozen=True, slots=True)
class GoodConsumed:
    """`seat` consumed `good`: `removed` cubes left the track, `cubes` remain."""

    seat: Seat
    good: Good
    removed: int
    cubes: int


@dataclass(frozen=True, slots=True)
class GoodsSold:
    """The active player sold units per good for `paid` in all."""

    seat: Seat
    sugar: int
    gold: int
    spice: int
    paid: int


@dataclass(frozen=True, slots=True)
class KnightBought:
    """`seat` paid `price` and `workers`; the track now stands at `next_price` in phase `phase`."""

    seat: Seat
    price: int
    workers: int
    knights: int
    knights_sold: int
    next_price: int
    phase: int


@dataclass(frozen=True, slots=True)
class KnightDeclined:
    seat: Seat


@dataclass(frozen=True, slots=True)
class IncomeReceived:
    """End of turn: the holder of `building` earned `amount`."""

    seat: Seat
    building: str
    amount: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The 15th knight's turn is over; final scores by seat."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class BuildingPicked:
    """Rules version 2, D5 step 1: `seat` will place on `building` (or still decline)."""

    seat: Seat
    building: str


@dataclass(frozen=True, slots=True)
class FleetOriginPicked:
    """Rules version 2, D6 step 1: `seat`'s next fleet sails from `region`."""

    seat: Seat
    region: str


@dataclass(frozen=True, slots=True)
class FleetDestinationPicked:
    """Rules version 2, D6 step 2: `seat`'s next fleet goes to `region`."""

    seat: Seat
    region: str


@dataclass(frozen=True, slots=True)
class ColonyPicked:
    """Rules version 2, D7 step 1: `seat`'s next placement is on `colony`."""

    seat: Seat
    colony: str


@dataclass(frozen=True, slots=True)
class SalePicked:
    """Rules version 2, a D9 step: `seat` will sell `units` of `good` (or still sell nothing)."""

    seat: Seat
    good: Good
    units: int


Event = (
    BuildingChosen
    | TurnStarted
    | MarkerPlaced
    | MarkerMoved
    | ShipSacrificed
    | WorkersBought
    | ShipsBought
    | WorkersPlaced
    | WorkersDisplaced
    | WorkersRelocated
    | WorkersReturned
    | BuildingDeclined
    | FleetSailed
    | RegionExplored
    | SailingStopped
    | ColonizingStopped
    | GoodConsumed
    | GoodsSold
    | KnightBought
    | KnightDeclined
    | IncomeReceived
    | GameEnded
    | BuildingPicked
    | FleetOriginPicked
    | FleetDestinationPicked
    | ColonyPicked
    | SalePicked
)

EVENT_TYPES: tuple[type, ...] = (
    BuildingChosen,
    TurnStarted,
    MarkerPlaced,
    MarkerMoved,
    ShipSacrificed,
    WorkersBought,
    ShipsBought,
    WorkersPlaced,
    WorkersDisplaced,
    WorkersRelocated,
    WorkersReturned,
    BuildingDeclined,
    FleetSailed,
    RegionExplored,
    SailingStopped,
    ColonizingStopped,
    GoodConsumed,
    GoodsSold,
    KnightBought,
    KnightDeclined,
    IncomeReceived,
    GameEnded,
)
"""The events of rules version 1."""

STEP_EVENT_TYPES: tuple[type, ...] = (
    BuildingPicked,
    FleetOriginPicked,
    FleetDestinationPicked,
    ColonyPicked,
    SalePicked,
)
"""The events rules version 2 adds."""
