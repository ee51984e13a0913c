"""Port Royal's catalogue for clients (flotilla.api.port_royal.v1.PortRoyalCatalog), built from the
engine's own tables: cards.py, tables.py and the setup rules of config.py (one source of truth).

`catalogue()` returns the message as plain data (field names as in the proto, enum members by name);
the app layer encodes it (flotilla/app/catalogue.py).
"""

from __future__ import annotations

from typing import Any

from flotilla.rules import InvalidConfig

from . import tables
from .cards import (
    ALL_CARDS,
    CONTRACT_TEXT,
    CONTRACTS,
    EXPEDITION_TEXT,
    FIVE_PLAYER_EXPEDITION,
    PERSON_NAMES,
    PERSON_TEXT,
    SHIP_NAMES,
    SHIP_TEXT,
    SKULL_SHIP_TEXT,
    SPECIAL_SHIP_TEXT,
    TAX_TEXT,
    CardInfo,
    Colour,
    Kind,
    deck,
)
from .config import Config, Mode

DISPLAY_NAME = "Port Royal"
_NUMBERS: dict[str, Any] = {
    "tax_threshold": tables.TAX_THRESHOLD,
    "admiral_coins": tables.ADMIRAL_COINS,
    "admiral_min_harbor": tables.ADMIRAL_MIN_HARBOR,
    "vice_admiral_harbor": " or ".join(str(n) for n in sorted(tables.VICE_ADMIRAL_HARBOR)),
    "trader_prince_traders": tables.TRADER_PRINCE_TRADERS,
    "fighter_swords": tables.FIGHTER_SWORDS,
    "gamester_colours": tables.GAMESTER_COLOURS,
    "tiny_gamester_colours": tables.TINY_GAMESTER_COLOURS,
    "cheap_staff_count": tables.CHEAP_STAFF_COUNT,
    "cheap_staff_cost": tables.CHEAP_STAFF_COST,
    "royal_household_vp": tables.ROYAL_HOUSEHOLD_VP,
    "ransom_coins": tables.RANSOM_COINS,
    "colours": len(Colour),
}


def _name(card: CardInfo) -> str:
    if card.kind is Kind.SHIP and card.colour is not None:
        return SHIP_NAMES[card.colour]
    if card.kind is Kind.PERSON and card.role is not None:
        return PERSON_NAMES[card.role]
    return "Expedition" if card.kind is Kind.EXPEDITION else "Tax Increase"


def _text(card: CardInfo) -> str:
    colour = card.colour.name.lower() if card.colour is not None else ""
    if card.kind is Kind.SHIP:
        text = SKULL_SHIP_TEXT if card.repel is None else SHIP_TEXT
        text = text.format(coins=card.coins, swords=card.repel)
        return text + SPECIAL_SHIP_TEXT if card.special else text
    if card.kind is Kind.PERSON and card.role is not None:
        return PERSON_TEXT[card.role].format(colour=colour, swords=card.swords, **_NUMBERS)
    if card.kind is Kind.EXPEDITION:
        needs = ", ".join(s.name.lower() for s in card.needs)
        return EXPEDITION_TEXT.format(needs=needs, vp=card.vp, coins=card.coins)
    assert card.tax is not None
    return TAX_TEXT[card.tax].format(**_NUMBERS)


def _card(card: CardInfo) -> dict[str, Any]:
    return {
        "id": card.card,
        "type": card.kind,
        "name": _name(card),
        "rules_text": _text(card),
        "expansion": card.expansion,
        "colour": card.colour,
        "coins": card.coins,
        "swords_to_repel": card.repel or 0,
        "skull": card.kind is Kind.SHIP and card.repel is None,
        "special": card.special,
        "person_type": card.role,
        "cost": card.cost,
        "victory_points": card.vp,
        "swords": card.swords,
        "symbol": card.symbol,
        "needs": list(card.needs),
        "tax_bonus": card.tax,
        "five_players_only": card.card == FIVE_PLAYER_EXPEDITION,
    }


def _contracts() -> list[dict[str, Any]]:
    return [
        {
            "id": c.contract,
            "name": c.name,
            "rules_text": CONTRACT_TEXT[c.contract].format(times=c.boxes + 1, **_NUMBERS),
            "seal_number": c.seal_number,
            "seal_letter": c.seal_letter,
            "coin_slots": list(c.slots),
            "preparation_boxes": c.boxes,
            "active_player_only": c.active_only,
            "timing": c.timing,
            "coop_only": c.coop_only,
        }
        for c in CONTRACTS.values()
    ]


def _setups() -> list[dict[str, Any]]:
    out = []
    for mode in Mode:
        for seats in range(1, 6):
            try:
                config = Config(seats=seats, mode=mode)
            except InvalidConfig:
                continue
            contracts = tables.FACE_UP_COOP[seats] if config.coop else tables.FACE_UP_COMPETITIVE
            out.append(
                {
                    "mode": mode,
                    "seat_count": seats,
                    "draw_pile_cards": len(deck(config.expansion)),
                    "expedition_display": [FIVE_PLAYER_EXPEDITION] if seats == 5 else [],
                    "face_up_contracts": contracts if config.contracts else 0,
                    "starting_coins": tables.STARTING_COINS,
                }
            )
    return out


def catalogue() -> dict[str, Any]:
    """The PortRoyalCatalog message as plain data."""
    return {
        "cards": [_card(c) for c in ALL_CARDS],
        "contracts": _contracts(),
        "ship_colours": [{"colour": c, "letter": c.value, "name": SHIP_NAMES[c]} for c in Colour],
        "setups": _setups(),
        "rank_titles": [{"victory_pile": n, "title": t} for n, t in tables.RANK_TITLES],
        "numbers": {
            "starting_coins": tables.STARTING_COINS,
            "end_victory_points": tables.END_VP,
            "tax_threshold": tables.TAX_THRESHOLD,
            "allowance_by_colours": list(tables.ALLOWANCE_BY_COLOURS),
            "non_active_fee": tables.NON_ACTIVE_FEE,
            "cubes_per_player": tables.CUBES_PER_PLAYER,
            "max_contracts": tables.MAX_CONTRACTS,
            "max_difficulty": tables.MAX_DIFFICULTY,
            "max_turns": tables.MAX_TURNS,
        },
    }
