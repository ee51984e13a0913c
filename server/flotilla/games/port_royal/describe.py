"""Port Royal's texts for humans: a label, key and arguments per action and event (`rules.describe`).

Card names come from the card table (`cards.py`): a ship by its colour, a person by its role,
an expedition by its needs, a contract by its printed name.
"""

from __future__ import annotations

from flotilla.rules.describe import Describer, Namer, Templates, V

from . import actions as a
from . import events as e
from .cards import CARDS, CONTRACTS, Kind


def card_name(card: str) -> str:
    """`Y03` -> `yellow ship`, `SA3` -> `Sailor`, `EX1` -> `expedition (anchor, anchor)`."""
    info = CARDS.get(card)
    if info is None:
        return card
    if info.kind is Kind.SHIP:
        return f"{info.colour.name.lower() if info.colour else ''} ship".strip()
    if info.kind is Kind.PERSON and info.role is not None:
        role = info.role.name.replace("_", " ").title().replace(" ", "-")
        return f"{role} ({info.colour.name.lower()})" if info.colour else role
    if info.kind is Kind.EXPEDITION:
        return f"expedition ({', '.join(s.name.lower() for s in info.needs)})"
    return "tax increase"


def contract_name(contract: str) -> str:
    """A contract's printed name."""
    info = CONTRACTS.get(contract)
    return info.name if info else contract


_NAMES: dict[str, Namer] = {"card": card_name, "cards": card_name, "persons": card_name, "expedition": card_name}
_NAMES |= {"contract": contract_name}

ACTIONS: Templates = {
    a.DiscoverCard: "Reveal the next card",
    a.StopDiscovering: "Stop discovering",
    a.RepelShip: "Repel the ship",
    a.AdmitShip: "Let the ship into the harbor",
    a.TradeShip: (
        V(
            "gift_refuse",
            "Trade the {card_name} {card}, give seat {gift_to_number} the extra coin and take no coins",
            when=("refuse_coins",),
        ),
        V("gift", "Trade the {card_name} {card} and give seat {gift_to_number} the extra coin"),
        V("refuse", "Trade the {card_name} {card} without taking its coins", when=("refuse_coins",)),
        "Trade the {card_name} {card}",
    ),
    a.HirePerson: "Hire the {card_name} {card}",
    a.FulfillExpedition: "Fulfil the {expedition_name} {expedition} with {persons_names} ({persons})",
    a.CompleteContract: "Complete the contract {contract_name}",
    a.DeclineContract: "Decline the contract {contract_name}",
    a.MoveTimeCard: "Move the top time card to the victory pile",
    a.KeepTimeCard: "Leave the time pile as it is",
    a.Pass: "Pass",
}

EVENTS: Templates = {
    e.TurnStarted: "Turn {turn}: seat {seat_number} to play",
    e.CardRevealed: (
        V(
            "time_pile",
            "Seat {seat_number} reveals the {card_name} {card} from the time pile",
            when=("from_time_pile",),
        ),
        "Seat {seat_number} reveals the {card_name} {card}",
    ),
    e.ShipDocked: "The {card_name} {card} docks in the harbor",
    e.ShipRepelled: (
        V("collected", "Seat {seat_number} repels the {card_name} {card} and keeps it", when=("collected",)),
        "Seat {seat_number} repels the {card_name} {card}",
    ),
    e.HarborBusted: "The harbor busts: a second {card_name} ({card})",
    e.CoinsGained: "Seat {seat_number} gains {count} coins ({reason})",
    e.CoinsPaid: (
        V("to_seat", "Seat {seat_number} pays {count} coins to seat {to_seat_number} ({reason})"),
        "Seat {seat_number} pays {count} coins ({reason})",
    ),
    e.DrawPileReshuffled: "The discard pile is shuffled into a new draw pile ({cards} cards)",
    e.DiscoverStopped: "Seat {seat_number} stops discovering and may take {base_allowance} cards",
    e.WindowOpened: "Seat {seat_number} may take {allowance} cards",
    e.WindowClosed: "Seat {seat_number} is done",
    e.ShipTraded: (
        V("gift", "Seat {seat_number} trades the {card_name} {card}; seat {gift_to_number} gets the extra coin"),
        "Seat {seat_number} trades the {card_name} {card}",
    ),
    e.PersonHired: "Seat {seat_number} hires the {card_name} {card} for {price} coins",
    e.ExpeditionFulfilled: "Seat {seat_number} fulfils the {expedition_name} {expedition} with {persons_names}"
    " ({persons})",
    e.ContractCompleted: "Seat {seat_number} completes the contract {contract_name}: {coins} coins,"
    " {vp_tokens} VP tokens",
    e.ContractPrepared: "Seat {seat_number} prepares the contract {contract_name}",
    e.ContractDeclined: "Seat {seat_number} declines the contract {contract_name}",
    e.CollectionDiscarded: "Seat {seat_number} discards {cards_names}",
    e.HarborCleared: (V("", "The harbor is cleared: {cards_names}"), V("empty", "The harbor is cleared")),
    e.TimeCardMoved: (
        V("moved", "Seat {seat_number} moves the top time card to the victory pile", when=("moved",)),
        "Seat {seat_number} leaves the time pile as it is",
    ),
    e.EndTriggered: "Seat {seat_number} reached {vp} victory points: this is the last round",
    e.GameEnded: (
        V("coop_won", "The crew wins: {title}", when=("coop_won",)),
        V("coop_lost", "The crew loses: {title}", when=("title",)),
        V("", "The game ends; winners: seats {winners_numbers}"),
        V("none", "The game ends with no winner"),
    ),
}

DESCRIBER = Describer("port_royal", ACTIONS, EVENTS, _NAMES)
"""Texts of every Port Royal action and event."""
