"""Sail Away's catalogue for clients (flotilla.api.sail_away.v1.SailAwayCatalog), built from the engine's
own tables: cards.py and tables.py (one source of truth).

`catalogue()` returns the message as plain data (field names as in the proto, enum members by name);
the app layer encodes it (flotilla/app/catalogue.py).
"""

from __future__ import annotations

from typing import Any

from . import tables
from .cards import (
    ABILITY_NAMES,
    ABILITY_TEXT,
    ISLAND_IDS,
    ISLANDS,
    OBJECTIVE_IDS,
    OBJECTIVES,
    PIRATE_ACTION_TEXT,
    PIRATE_ACTIONS,
    PIRATE_IDS,
    SHIP_IDS,
    SHIPS,
    Ability,
)

DISPLAY_NAME = "Sail Away"
_NUMBERS: dict[str, int] = {
    "forced_sale_price": tables.FORCED_SALE_PRICE,
    "buried_treasure_coins": tables.BURIED_TREASURE_COINS,
    "sea_legs_crate_limit": tables.SEA_LEGS_CRATE_LIMIT,
    "base_crate_limit": tables.BASE_CRATE_LIMIT,
    "harbor_dues_coins": tables.HARBOR_DUES_COINS,
    "black_flag_ransom": tables.BLACK_FLAG_RANSOM,
    "ransom": tables.RANSOM,
}


def _setup(seats: int) -> dict[str, Any]:
    return {
        "seat_count": seats,
        "open_islands": tables.open_islands(seats),
        "pirate_cards": tables.PIRATE_CARDS_IN_PLAY,
        "market_ships": tables.MARKET_SIZE,
        "ships_dealt": tables.SHIPS_DEALT,
        "ships_kept": tables.SHIPS_KEPT,
        "standard_crates": tables.STANDARD_CRATES - tables.RESERVE_STANDARD,
        "pirate_crates": tables.PIRATE_CRATES - tables.RESERVE_PIRATE,
        "reserve_standard": tables.RESERVE_STANDARD,
        "reserve_pirate": tables.RESERVE_PIRATE,
        "claim_posts": tables.CLAIM_POSTS,
        "coins": tables.START_COINS,
    }


def _board() -> list[dict[str, Any]]:
    sizes = {
        "island_row": tables.open_islands(tables.PLAYERS_MAX),
        "pirate_cards": tables.PIRATE_CARDS_IN_PLAY,
        "market": tables.MARKET_SIZE,
    }
    return [
        {"area": area, "position": k, "x": left + k * step, "y": y}
        for area, left, step, y in tables.BOARD_ROWS
        for k in range(sizes[area])
    ]


def catalogue() -> dict[str, Any]:
    """The SailAwayCatalog message as plain data."""
    return {
        "islands": [
            {"id": i, "name": f"Island {int(i[2:])}", "spaces": list(ISLANDS[i].spaces), "value": ISLANDS[i].value}
            for i in ISLAND_IDS
        ],
        "ships": [
            {
                "id": s,
                "name": f"Ship {int(s[2:])}",
                "spaces": list(SHIPS[s].spaces),
                "coin_space": -1 if SHIPS[s].coin_space is None else SHIPS[s].coin_space,
                "points": SHIPS[s].points,
            }
            for s in SHIP_IDS
        ],
        "pirate_actions": [
            {
                "id": p,
                "name": PIRATE_ACTIONS[p].name,
                "persistent": PIRATE_ACTIONS[p].persistent,
                "rules_text": PIRATE_ACTION_TEXT[p].format(**_NUMBERS),
            }
            for p in PIRATE_IDS
        ],
        "objectives": [{"id": o, "resource": OBJECTIVES[o]} for o in OBJECTIVE_IDS],
        "launch_abilities": [
            {"id": f"L{a.value}", "slot": a.value, "name": ABILITY_NAMES[a], "rules_text": ABILITY_TEXT[a]}
            for a in Ability
        ],
        "setups": [_setup(n) for n in range(tables.PLAYERS_MIN, tables.PLAYERS_MAX + 1)],
        "board": _board(),
        "numbers": {
            "crate_limit": tables.BASE_CRATE_LIMIT,
            "sea_legs_crate_limit": tables.SEA_LEGS_CRATE_LIMIT,
            "surcharge": tables.SURCHARGE,
            "retrieve_cost": tables.RETRIEVE_COST,
            "ransom": tables.RANSOM,
            "black_flag_ransom": tables.BLACK_FLAG_RANSOM,
            "gold_coin": tables.GOLD_COIN,
            "sell_crate_coins": tables.SELL_CRATE_COINS,
            "end_ships": tables.END_SHIPS,
            "pirate_card_spaces": tables.PIRATE_CARD_SPACES,
            "max_rounds": tables.MAX_ROUNDS,
        },
    }
