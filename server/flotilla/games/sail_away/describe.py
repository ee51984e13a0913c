"""Sail Away's texts for humans: a label, key and arguments per action and event (`rules.describe`)."""

from __future__ import annotations

from flotilla.rules.describe import Describer, Namer, Templates, V

from . import actions as a
from . import events as e
from .cards import ISLANDS, PIRATE_ACTIONS, SHIPS, Ability, Resource


def _spaces(spaces: tuple[Resource, ...]) -> str:
    return "/".join(r.name.lower() for r in spaces)


def ship_name(ship: str) -> str:
    """`SH05` -> `SH05 (cotton/sugar)`: the id and its resource spaces."""
    card = SHIPS.get(ship)
    return f"{ship} ({_spaces(card.spaces)})" if card else ship


def island_name(island: str) -> str:
    """`IS04` -> `IS04 (cotton/vanilla/sugar)`."""
    card = ISLANDS.get(island)
    return f"{island} ({_spaces(card.spaces)})" if card else island


def card_name(card: str) -> str:
    """A pirate action card's printed name."""
    info = PIRATE_ACTIONS.get(card)
    return info.name if info else card


def ability_name(slot: int) -> str:
    """A launch ability slot (1-5) by its name."""
    return Ability(slot).name.lower().replace("_", " ") if 1 <= slot <= len(Ability) else str(slot)


_NAMES: dict[str, Namer] = {
    "ship": ship_name,
    "ships": ship_name,
    "from_ship": ship_name,
    "to_ship": ship_name,
    "island": island_name,
    "card": card_name,
    "ability": ability_name,
    "slot": ability_name,
}

ACTIONS: Templates = {
    a.KeepShips: "Keep ships {ships_names}",
    a.PickShip: "Keep ship {ship_name}",
    a.TakeCrateFromShip: "Take your crate back from ship {ship_name}, space {space_number}",
    a.PlaceCrate: (
        V("pirate", "Place a pirate crate on island {island_name}, space {space_number}", when=("pirate",)),
        "Place a crate on island {island_name}, space {space_number}",
    ),
    a.CoverCrate: "Cover the crate on island {island_name}, space {space_number} with a pirate crate",
    a.PlaceOnPirateCard: "Place a pirate crate on {card_name}",
    a.EndPlacement: "End placement",
    a.RetrieveCrate: "Pay to take your pirate crate back from {card_name}",
    a.UseExtraCrate: "Use Extra Crate: place one more crate this turn",
    a.DirectLoad: (
        V("pirate", "Direct Load a pirate crate onto ship {ship_name}, space {space_number}", when=("pirate",)),
        "Direct Load a crate onto ship {ship_name}, space {space_number}",
    ),
    a.ClaimIsland: "Claim island {island_name}",
    a.ReleaseCrate: "Release seat {owner_number}'s pirate crate from {card_name}",
    a.TakeReserve: "Take your reserve crates",
    a.ForceSale: "Force the sale of the crate on ship {from_ship_name}, space {from_space_number} onto your ship "
    "{to_ship_name}, space {to_space_number}",
    a.SmuggleCrate: "Smuggle your crate from island {island_name}, space {space_number} onto ship {ship_name}, "
    "space {ship_space_number}",
    a.ClearIsland: "Clear island {island_name}",
    a.PayRansom: "Pay the ransom",
    a.RefuseRansom: "Refuse the ransom",
    a.LoadCrate: "Load your crate onto ship {ship_name}, space {space_number}",
    a.SellCrate: "Sell your crate for 1 coin",
    a.LaunchShip: "Launch ship {ship_name}",
    a.KeepShip: "Keep ship {ship_name} in port",
    a.ChooseSlot: "Put the launched ship under slot {slot} ({slot_name})",
    a.TakeMarketShip: "Take ship {ship_name} from the market",
}

EVENTS: Templates = {
    e.ShipsKept: (
        V("", "Seat {seat_number} kept ships {ships_names}"),
        V("hidden", "Seat {seat_number} chose the ships to keep"),
    ),
    e.ShipPicked: "Seat {seat_number} keeps ship {ship_name} at position {position_number}",
    e.ShipsRevealed: "Seat {seat_number} reveals ships {ships_names}",
    e.MarketRefilled: "Ship {ship_name} enters the market at position {position_number}",
    e.TurnStarted: "Turn {turn}: seat {seat_number} to play",
    e.CrateTakenFromShip: (
        V(
            "pirate",
            "Seat {seat_number} takes a pirate crate back from ship {ship_name}, space {space_number}",
            when=("pirate",),
        ),
        "Seat {seat_number} takes a crate back from ship {ship_name}, space {space_number}",
    ),
    e.CratePlaced: (
        V(
            "pirate",
            "Seat {seat_number} places a pirate crate on island {island_name}, space {space_number}",
            when=("pirate",),
        ),
        "Seat {seat_number} places a crate on island {island_name}, space {space_number}",
    ),
    e.CrateCovered: "Seat {seat_number} covers the crate on island {island_name}, space {space_number}"
    " with a pirate crate",
    e.CratePlacedOnCard: "Seat {seat_number} places a pirate crate on {card_name}",
    e.IslandClaimed: (
        V("post", "Seat {seat_number} claims island {island_name} with a claim post", when=("post",)),
        "Seat {seat_number} claims island {island_name}",
    ),
    e.CrateRetrieved: "Seat {seat_number} pays {cost} to take a pirate crate back from {card_name}",
    e.AbilityUsed: (
        V("free", "Seat {seat_number} uses {ability_name} (Dirty Deeds)", when=("free",)),
        "Seat {seat_number} uses {ability_name}",
    ),
    e.CrateDirectLoaded: (
        V(
            "pirate",
            "Seat {seat_number} loads a pirate crate onto ship {ship_name}, space {space_number}",
            when=("pirate",),
        ),
        "Seat {seat_number} loads a crate onto ship {ship_name}, space {space_number}",
    ),
    e.CrateReleased: "Seat {seat_number} releases seat {owner_number}'s pirate crate from {card_name}",
    e.ReserveTaken: "Seat {seat_number} takes the reserve: {standard} crates and {pirate} pirate crates",
    e.CrateForceSold: "Seat {seat_number} forces seat {victim_number} to sell the crate on ship {from_ship_name} "
    "for {price} coin, onto ship {to_ship_name}",
    e.CrateSmuggled: "Seat {seat_number} smuggles a crate from island {island_name} onto ship {ship_name}",
    e.IslandCleared: "Seat {seat_number} clears island {island_name}",
    e.TreasureFound: "Seat {seat_number} finds {coins} coins of treasure",
    e.EffectSkipped: "{card_name} has no effect for seat {seat_number}",
    e.PlacementEnded: "Seat {seat_number} ends placement",
    e.RansomPaid: "Seat {payer_number} pays seat {pirate_owner_number} a ransom of {amount} for island {island_name},"
    " space {space_number}",
    e.RansomRefused: (
        V(
            "forced",
            "Seat {payer_number} cannot pay the ransom for island {island_name}, space {space_number}",
            when=("forced",),
        ),
        "Seat {payer_number} refuses the ransom for island {island_name}, space {space_number}",
    ),
    e.CrateLoaded: "Seat {seat_number} loads a crate from island {island_name} onto ship {ship_name},"
    " space {ship_space_number}",
    e.CrateSold: (
        V(
            "forced",
            "Seat {seat_number} must sell a crate from island {island_name} for {coins} coin",
            when=("forced",),
        ),
        "Seat {seat_number} sells a crate from island {island_name} for {coins} coin",
    ),
    e.ShipLaunched: "Seat {seat_number} launches ship {ship_name} and gains {gold} coins",
    e.ShipKept: "Seat {seat_number} keeps ship {ship_name} in port",
    e.ShipSlotted: (
        V("beside", "Seat {seat_number} puts ship {ship_name} beside the board", unless=("slot",)),
        "Seat {seat_number} puts ship {ship_name} under slot {slot} ({slot_name})",
    ),
    e.MarketShipTaken: "Seat {seat_number} takes ship {ship_name} from the market",
    e.IslandResolved: "Seat {seat_number} gains {coins} coins from island {island_name}",
    e.HarborDuesPaid: "Seat {payer_number} pays {coins} coin of harbor dues to seat {payee_number}",
    e.IslandDiscarded: "Island {island_name} is discarded",
    e.IslandDeckRefilled: "The island discard pile becomes the island deck ({size} islands)",
    e.IslandRevealed: "Island {island_name} appears at position {position_number}",
    e.EndTriggered: "Seat {seat_number} has launched 5 ships: every other seat plays one more turn",
    e.GameEnded: (
        V("round_cap", "The game ends at the round cap; winners: seats {winners_numbers}", when=("round_cap",)),
        "The game ends; winners: seats {winners_numbers}",
    ),
}

DESCRIBER = Describer("sail_away", ACTIONS, EVENTS, _NAMES)
"""Texts of every Sail Away action and event."""
