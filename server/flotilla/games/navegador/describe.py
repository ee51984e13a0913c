"""Navegador's texts for humans: a label, key and arguments per action and event (`rules.describe`).
Region, colony and building names come from the game's tables."""

from __future__ import annotations

from flotilla.rules.describe import Describer, Namer, Templates

from . import actions as a
from . import events as e
from .tables import BUILDING_IDS, BUILDING_NAMES, COLONIES, REGION_IDS, REGION_NAMES

_PLACES = dict(zip(BUILDING_IDS, BUILDING_NAMES, strict=True)) | {c[0]: c[1] for c in COLONIES}
_REGIONS = dict(zip(REGION_IDS, REGION_NAMES, strict=True))


def place_name(place: str) -> str:
    """A building (`B1` -> `Church`) or colony (`C12` -> `Goa`) by its name."""
    return _PLACES.get(place, place)


def region_name(region: str) -> str:
    """A sea region (`SR7` -> `Índia`) by its name."""
    return _REGIONS.get(region, region)


_NAMES: dict[str, Namer] = {
    "building": place_name,
    "colony": place_name,
    "place": place_name,
    "region": region_name,
    "origin": region_name,
    "destination": region_name,
}

ACTIONS: Templates = {
    a.ChooseBuilding: "Put a worker on the {building_name}",
    a.PlaceMarker: "Start the rondel marker on {space}",
    a.MoveMarker: "Move the rondel marker {steps} spaces",
    a.SacrificeShip: "Pay a rondel step with a ship from {region_name}",
    a.BuyWorkers: "Buy {count} workers",
    a.BuyShips: "Buy {count} ships",
    a.PlaceOnBuilding: "Place {workers} workers on the {building_name}",
    a.DeclineBuilding: "Place no workers",
    a.SailFleet: "Sail {ships} ships from {origin_name} to {destination_name}",
    a.StopSailing: "Stop sailing",
    a.PlaceOnColony: "Place {workers} workers on {colony_name}",
    a.StopColonizing: "Stop colonizing",
    a.ConsumeGood: "Consume {good}",
    a.SellGoods: "Sell {sugar} sugar, {gold} gold and {spice} spice",
    a.BuyKnight: "Buy a knight",
    a.DeclineKnight: "Buy no knight",
    a.ReturnToLisbon: "Send the displaced workers back to Lisbon",
    a.Relocate: "Move the displaced workers to {place_name}",
    a.PickBuilding: "Place workers on the {building_name}",
    a.PickFleetOrigin: "Sail a fleet from {region_name}",
    a.PickFleetDestination: "Sail the fleet to {region_name}",
    a.PickColony: "Place workers on {colony_name}",
    a.PickSale: "Sell {units} {good}",
}

EVENTS: Templates = {
    e.BuildingChosen: "Seat {seat_number} puts a worker on the {building_name}",
    e.TurnStarted: "Turn {turn}: seat {seat_number} to play",
    e.MarkerPlaced: "Seat {seat_number} starts on {space}",
    e.MarkerMoved: "Seat {seat_number} moves {steps} spaces to {space}",
    e.ShipSacrificed: "Seat {seat_number} pays a rondel step with a ship from {region_name}",
    e.WorkersBought: "Seat {seat_number} buys {count} workers for {paid}",
    e.ShipsBought: "Seat {seat_number} buys {count} ships for {paid}",
    e.WorkersPlaced: "Seat {seat_number} places {workers} workers on {place_name} ({total} there)",
    e.WorkersDisplaced: "Seat {seat_number}'s {workers} workers are pushed off {place_name}",
    e.WorkersRelocated: "Seat {seat_number}'s {workers} displaced workers move to {place_name}",
    e.WorkersReturned: "Seat {seat_number}'s {workers} displaced workers go back to Lisbon for {paid}",
    e.BuildingDeclined: "Seat {seat_number} places no workers",
    e.FleetSailed: "Seat {seat_number} sails {ships} ships from {origin_name} to {destination_name}; {arrived} arrive",
    e.RegionExplored: "Seat {seat_number} explores {region_name} and takes {bonus}",
    e.SailingStopped: "Seat {seat_number} stops sailing",
    e.ColonizingStopped: "Seat {seat_number} stops colonizing",
    e.GoodConsumed: "Seat {seat_number} consumes {removed} {good}",
    e.GoodsSold: "Seat {seat_number} sells {sugar} sugar, {gold} gold and {spice} spice for {paid}",
    e.KnightBought: "Seat {seat_number} buys a knight for {price} and {workers} workers",
    e.KnightDeclined: "Seat {seat_number} buys no knight",
    e.IncomeReceived: "Seat {seat_number} earns {amount} from the {building_name}",
    e.GameEnded: "The game ends; winners: seats {winners_numbers}",
    e.BuildingPicked: "Seat {seat_number} picks the {building_name} to place workers on",
    e.FleetOriginPicked: "Seat {seat_number} readies a fleet in {region_name}",
    e.FleetDestinationPicked: "Seat {seat_number} sets the fleet's course to {region_name}",
    e.ColonyPicked: "Seat {seat_number} picks {colony_name} to place workers on",
    e.SalePicked: "Seat {seat_number} will sell {units} {good}",
}

DESCRIBER = Describer("navegador", ACTIONS, EVENTS, _NAMES)
"""Texts of every Navegador action and event."""
