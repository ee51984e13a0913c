"""Navegador actions: one dataclass per decision (spec section 5), imperative names, ids not positions."""

from __future__ import annotations

from dataclasses import dataclass

from .tables import Good, Space


@dataclass(frozen=True, slots=True)
class ChooseBuilding:
    """D1, setup: put one worker from Lisbon on this empty building (B1..B7)."""

    building: str


@dataclass(frozen=True, slots=True)
class PlaceMarker:
    """D2, a player's first turn: put the rondel marker on any space, free."""

    space: Space


@dataclass(frozen=True, slots=True)
class MoveMarker:
    """D2, later turns: move the marker clockwise `steps` spaces (1..7; beyond 3 each costs a ship)."""

    steps: int


@dataclass(frozen=True, slots=True)
class SacrificeShip:
    """D2: one ship from this sea region (SR0..SR12) pays for one rondel step beyond 3."""

    region: str


@dataclass(frozen=True, slots=True)
class BuyWorkers:
    """D3: buy `count` workers (0 allowed; the Church holder gets one more free)."""

    count: int


@dataclass(frozen=True, slots=True)
class BuyShips:
    """D4: buy `count` ships into Portugal (0 allowed; the Shipyard holder gets one more free)."""

    count: int


@dataclass(frozen=True, slots=True)
class PlaceOnBuilding:
    """D5: move `workers` from Lisbon onto one building (empty, own, or held by fewer)."""

    building: str
    workers: int


@dataclass(frozen=True, slots=True)
class DeclineBuilding:
    """D5: place no workers this Buildings action."""


@dataclass(frozen=True, slots=True)
class SailFleet:
    """D6: the next fleet: `ships` of the ships in `origin` that have not moved yet go to `destination`."""

    origin: str
    ships: int
    destination: str


@dataclass(frozen=True, slots=True)
class StopSailing:
    """D6: no more fleets this action."""


@dataclass(frozen=True, slots=True)
class PlaceOnColony:
    """D7: move `workers` from Lisbon onto a colony space next to one of your ships."""

    colony: str
    workers: int


@dataclass(frozen=True, slots=True)
class StopColonizing:
    """D7: no more colony placements this action."""


@dataclass(frozen=True, slots=True)
class ConsumeGood:
    """D8: remove as many cubes from this good's track as you have knights."""

    good: Good


@dataclass(frozen=True, slots=True)
class SellGoods:
    """D9: units sold per good (<= colonies of that good; the Exchange adds one gold)."""

    sugar: int
    gold: int
    spice: int


@dataclass(frozen=True, slots=True)
class BuyKnight:
    """D10: buy one knight at the current price, paying workers by phase."""


@dataclass(frozen=True, slots=True)
class DeclineKnight:
    """D10: buy no knight."""


@dataclass(frozen=True, slots=True)
class ReturnToLisbon:
    """D11: the displaced group goes back to Lisbon, paid 10 per worker."""


@dataclass(frozen=True, slots=True)
class Relocate:
    """D11: the displaced group moves as a whole to another building or colony (`place` id)."""

    place: str


# --- rules version 2: the combinatorial choices of D5, D6, D7 and D9 asked step by step ---


@dataclass(frozen=True, slots=True)
class PickBuilding:
    """D5, step 1 (rules version 2): the building to place on; then `PlaceOnBuilding` says how many."""

    building: str


@dataclass(frozen=True, slots=True)
class PickFleetOrigin:
    """D6, step 1 (rules version 2): the region (SR0..SR12) the next fleet sails from."""

    region: str


@dataclass(frozen=True, slots=True)
class PickFleetDestination:
    """D6, step 2 (rules version 2): where the fleet goes; then `SailFleet` says how many ships."""

    region: str


@dataclass(frozen=True, slots=True)
class PickColony:
    """D7, step 1 (rules version 2): the colony of the next placement; then `PlaceOnColony` says how many."""

    colony: str


@dataclass(frozen=True, slots=True)
class PickSale:
    """D9, a step (rules version 2): sell `units` of `good`. Goods are asked in order (sugar, gold, spice,
    each only if the seat may sell some); the last one is asked by `SellGoods` itself."""

    good: Good
    units: int


Action = (
    ChooseBuilding
    | PlaceMarker
    | MoveMarker
    | SacrificeShip
    | BuyWorkers
    | BuyShips
    | PlaceOnBuilding
    | DeclineBuilding
    | SailFleet
    | StopSailing
    | PlaceOnColony
    | StopColonizing
    | ConsumeGood
    | SellGoods
    | BuyKnight
    | DeclineKnight
    | ReturnToLisbon
    | Relocate
    | PickBuilding
    | PickFleetOrigin
    | PickFleetDestination
    | PickColony
    | PickSale
)

ACTION_TYPES: tuple[type, ...] = (
    ChooseBuilding,
    PlaceMarker,
    MoveMarker,
    SacrificeShip,
    BuyWorkers,
    BuyShips,
    PlaceOnBuilding,
    DeclineBuilding,
    SailFleet,
    StopSailing,
    PlaceOnColony,
    StopColonizing,
    ConsumeGood,
    SellGoods,
    BuyKnight,
    DeclineKnight,
    ReturnToLisbon,
    Relocate,
)
"""The actions of rules version 1."""

STEP_ACTION_TYPES: tuple[type, ...] = (PickBuilding, PickFleetOrigin, PickFleetDestination, PickColony, PickSale)
"""The actions rules version 2 adds."""
