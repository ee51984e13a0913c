"""Pirates of Nassau's texts for humans: a label, key and arguments per action and event
(`rules.describe`). Token and port names come from the game's tables."""

from __future__ import annotations

from typing import Any

from flotilla.rules.describe import Describer, Namer, Templates, V

from . import actions as a
from . import events as e
from .tables import CAPTAIN_CARDS, PORTS, SLOT_BY_ID, TOKENS


def token_name(token: str) -> str:
    """A ship token id (`HULL-27`) by its kind's name (`Cannon`)."""
    kind = TOKENS.get(token)
    return kind.name if kind else token


def port_name(space: int) -> str:
    """A sea space by its port's name (`Tortuga`), or `space N`."""
    port = PORTS.get(space)
    return port.name if port else f"space {space}"


def captain_name(card: str) -> str:
    """A captain card with its sail and cannon (`C12` -> `captain 1/2`)."""
    values = CAPTAIN_CARDS.get(card)
    return f"captain {values[0]}/{values[1]}" if values else card


def slot_name(slot: str) -> str:
    """A ship slot by its type (`BOW-H1` -> `hull slot BOW-H1`)."""
    info = SLOT_BY_ID.get(slot)
    return f"{info.type.name.lower()} slot {slot}" if info else slot


_TOKEN_FIELDS = ("token", "cartographer", "pilot", "cook", "cabin_boy", "quartermaster", "purser", "surgeon")
_NAMES: dict[str, Namer] = dict.fromkeys(_TOKEN_FIELDS, token_name) | {
    "boosts": token_name,
    "replaced": token_name,
    "face_down": token_name,
    "crew_used": token_name,
    "discarded": token_name,
    "drawn": token_name,
    "space": port_name,
    "captain": captain_name,
    "slot": slot_name,
}


def _crew(value: Any) -> dict[str, str]:
    """The crew an action uses, in words (`carpenter: rum`), or `no crew`."""
    used = [
        f"{name.replace('_', ' ')}: {getattr(value, name).name.lower()}"
        for name in ("carpenter", "sailmaker", "powder_monkey", "cooper")
        if getattr(value, name, None) is not None
    ]
    return {"crew": ", ".join(used) or "no crew"}


def _modifiers(value: a.Move) -> dict[str, str]:
    parts = [f"{name} {getattr(value, name):+d}" for name in ("wind", "cartographer", "pilot") if getattr(value, name)]
    return {"modifiers": ", ".join(parts) or "none"}


def _loot(value: a.TakeLoot) -> dict[str, str]:
    parts = [
        f"{getattr(value, f)} {f}" for f in ("pesos", "gunpowder", "goods", "rum", "hostages") if getattr(value, f)
    ]
    return {"loot": ", ".join(parts) or "nothing"}


ACTIONS: Templates = {
    a.RerollDie: "Flip {token_name} {token} to re-roll die {die}",
    a.Move: (
        V("plain", "Move with die {die} ({kind})", unless=("wind", "cartographer", "pilot")),
        "Move with die {die} ({kind}; {modifiers})",
    ),
    a.Boost: "Stage {token_name} {token} as a boost",
    a.Plunder: "Plunder the merchant with {captain_name}",
    a.Raid: "Raid the port with {captain_name}",
    a.RideTradeWinds: "Take a trade wind",
    a.Smuggle: (
        V("cook", "Smuggle {count} {item}, plus 1 with a Ship's Cook", when=("cook",)),
        "Smuggle {count} {item}",
    ),
    a.Ransom: (V("cabin_boy", "Ransom a hostage, with a Cabin Boy", when=("cabin_boy",)), "Ransom a hostage"),
    a.TakeLoot: (
        V("quartermaster", "Take {loot} of the loot, plus 1 peso with a Quartermaster", when=("quartermaster",)),
        "Take {loot} of the loot",
    ),
    a.Pass: "Pass",
    a.DiscardItem: "Discard one {item}",
    a.WalkPlank: "Make a hostage walk the plank",
    a.FlipFiddler: "Flip {token_name} {token} for +1 notoriety",
    a.AdjustNotoriety: (
        V("cash_wind", "Score notoriety, cashing a trade wind for +1", when=("cash_wind",)),
        "Score notoriety",
    ),
    a.MoveMarker: "Search {direction} for a free notoriety space",
    a.TakeNavyCard: "Take navy card {card}",
    a.EvadeNavy: "Fight the warship with {captain_name}",
    a.AcceptPenalty: (
        V("surgeon", "Accept the {penalty} penalty, flipping a Surgeon", when=("surgeon",)),
        "Accept the {penalty} penalty",
    ),
    a.BuySection: "Buy the next ship section ({crew})",
    a.BuyToken: "Buy {token_name} {token} onto {slot_name} ({crew})",
    a.ExchangePeso: "Exchange 1 peso for 2 {resource}",
    a.SellResources: (
        V("purser", "Sell {gunpowder} gunpowder, {goods} goods, {rum} rum for 1 peso (Purser)", when=("purser",)),
        "Sell {gunpowder} gunpowder, {goods} goods, {rum} rum for 1 peso",
    ),
    a.Bury: "Bury {pesos} pesos in your chest",
    a.FinishBurying: "Finish burying",
}

EVENTS: Templates = {
    e.RoundStarted: "Round {round} starts; order: seats {order_numbers}",
    e.DiceRolled: "Seat {seat_number} rolls {dice}",
    e.DieRerolled: "Seat {seat_number} flips {token_name} and re-rolls a {old} into a {new}",
    e.ShipMoved: "Seat {seat_number} sails from {from_space} to {to_space} ({kind}, die {value})",
    e.ItemDiscarded: "Seat {seat_number} discards one {item}",
    e.PlankWalked: "Seat {seat_number} makes a hostage walk the plank",
    e.BoostStaged: "Seat {seat_number} stages {token_name}",
    e.MerchantFought: (
        V("won", "Seat {seat_number} plunders merchant {card} with {captain_name}", when=("success",)),
        "Seat {seat_number} fails to plunder merchant {card} with {captain_name}",
    ),
    e.LootTaken: "Seat {seat_number} takes {taken} from merchant {card}",
    e.PortRaided: (
        V("won", "Seat {seat_number} raids {space_name} for {pesos} pesos", when=("success",)),
        "Seat {seat_number} fails to raid {space_name}",
    ),
    e.TradeWindTaken: "Seat {seat_number} takes a trade wind",
    e.Smuggled: "Seat {seat_number} smuggles {count} {item} at {space_name}",
    e.HostageRansomed: "Seat {seat_number} ransoms a hostage at {space_name} for {pesos} pesos",
    e.TurnPassed: "Seat {seat_number} passes",
    e.FiddlerFlipped: "Seat {seat_number} flips {token_name}",
    e.NotorietyScored: "Seat {seat_number} gains {gain} notoriety",
    e.MarkerCollided: "Seat {seat_number}'s notoriety marker collides at {target}",
    e.NotorietyChanged: "Seat {seat_number}'s notoriety goes from {old} to {new}",
    e.NavyCardTaken: "Seat {seat_number} takes navy card {card}",
    e.NavyFought: "Seat {seat_number} fights warship {card} with {captain_name}: {successes} successes",
    e.PenaltyAccepted: "Seat {seat_number} accepts the {penalty} penalty: -{notoriety_loss} notoriety,"
    " -{cargo_loss} cargo",
    e.NavyCardReturned: "Navy card {card} goes back",
    e.BoardCleared: "The board is cleared; buying order: seats {order_numbers}",
    e.SectionBought: "Seat {seat_number} buys a ship section ({sections} now)",
    e.TokenBought: (
        V("replaced", "Seat {seat_number} buys {token_name} onto {slot_name}, replacing {replaced_name}"),
        "Seat {seat_number} buys {token_name} onto {slot_name}",
    ),
    e.PesoExchanged: "Seat {seat_number} exchanges 1 peso for {count} {resource}",
    e.BuyingPassed: "Seat {seat_number} stops buying",
    e.ResourcesSold: "Seat {seat_number} sells {gunpowder} gunpowder, {goods} goods, {rum} rum for 1 peso",
    e.PesosBuried: "Seat {seat_number} buries {pesos} pesos",
    e.BurialFinished: "Seat {seat_number} finishes burying",
    e.NavyCardRevealed: "Navy card {card} is revealed",
    e.MerchantSailedAway: "Merchant {card} sails away to Europe",
    e.MerchantMoved: "Merchant {card} moves from {from_space} to {to_space}",
    e.MerchantDealt: "Merchant {card} appears at {space_name}",
    e.PileReshuffled: "The {pile} pile is reshuffled",
    e.NassauRestocked: "Nassau is restocked",
    e.GameEnded: "The game ends; winners: seats {winners_numbers}",
}

DESCRIBER = Describer(
    "pirates_of_nassau",
    ACTIONS,
    EVENTS,
    _NAMES,
    extra={a.BuySection: _crew, a.BuyToken: _crew, a.Move: _modifiers, a.TakeLoot: _loot},
)
"""Texts of every Pirates of Nassau action and event."""
