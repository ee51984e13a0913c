"""Navegador's catalogue for clients (flotilla.api.navegador.v1.NavegadorCatalog), built from the
engine's own tables (tables.py, setup's starting numbers): one source of truth.

`catalogue()` returns the message as plain data (field names as in the proto, enum members by name);
the app layer encodes it (flotilla/app/catalogue.py).
"""

from __future__ import annotations

from typing import Any

from . import tables as t

DISPLAY_NAME = "Navegador"
MAX_PURCHASE = 10  # purchase_costs lists k = 0 ... 10


def _building_numbers() -> dict[str, int]:
    return {
        "church": t.CHURCH_FREE_WORKERS,
        "residence": t.RESIDENCE_INCOME_PER_BUILDING,
        "shipyard": t.SHIPYARD_FREE_SHIPS,
        "academy": t.ACADEMY_INCOME_PER_REGION,
        "customs": t.CUSTOMS_INCOME_PER_COLONY,
        "exchange": t.EXCHANGE_EXTRA_GOLD,
        "palace": t.PALACE_INCOME_PER_WORKER,
    }


def _regions() -> list[dict[str, Any]]:
    return [
        {
            "id": region,
            "name": t.REGION_NAMES[i],
            "exploration_bonus": t.EXPLORATION_BONUS[i],
            "neighbours": [t.REGION_IDS[n] for n in t.NEIGHBOURS[i]],
            "x": t.REGION_LAYOUT[i][0],
            "y": t.REGION_LAYOUT[i][1],
        }
        for i, region in enumerate(t.REGION_IDS)
    ]


def _colonies() -> list[dict[str, Any]]:
    return [
        {
            "id": c,
            "name": name,
            "good": good,
            "region": t.REGION_IDS[r],
            "x": t.colony_layout(i)[0],
            "y": t.colony_layout(i)[1],
        }
        for i, (c, name, good, r) in enumerate(t.COLONIES)
    ]


def _buildings() -> list[dict[str, Any]]:
    numbers = _building_numbers()
    return [
        {
            "id": b,
            "name": t.BUILDING_NAMES[i],
            "space": t.BUILDING_SPACE[i],
            "rules_text": t.BUILDING_TEXT[i].format(**numbers),
        }
        for i, b in enumerate(t.BUILDING_IDS)
    ]


def _rondel() -> list[dict[str, Any]]:
    sailing = {"exploration_min_ships": t.EXPLORATION_MIN_SHIPS, "exploration_ship_loss": t.EXPLORATION_SHIP_LOSS}
    return [
        {"space": s, "position": s.value, "name": t.SPACE_NAMES[s], "rules_text": t.SPACE_TEXT[s].format(**sailing)}
        for s in t.SPACES
    ]


def _setups() -> list[dict[str, Any]]:
    return [
        {
            "seat_count": n,
            "money": t.START_MONEY,
            "workers": t.START_WORKERS,
            "ships": t.START_SHIPS,
            "knights": t.START_KNIGHTS,
            "market_cubes": t.START_CUBES,
        }
        for n in range(t.MIN_SEATS, t.MAX_SEATS + 1)
    ]


def _numbers() -> dict[str, int]:
    return {
        "free_rondel_steps": t.FREE_RONDEL_STEPS,
        "knight_passing_bonus": t.KNIGHT_PASSING_BONUS,
        "exploration_min_ships": t.EXPLORATION_MIN_SHIPS,
        "exploration_ship_loss": t.EXPLORATION_SHIP_LOSS,
        "knight_phases": t.KNIGHT_PHASES,
        "points_building": t.POINTS_BUILDING,
        "points_colony": t.POINTS_COLONY,
        "points_tile": t.POINTS_TILE,
        "points_lisbon_worker": t.POINTS_LISBON_WORKER,
        "points_ship": t.POINTS_SHIP,
        "money_per_point": t.MONEY_PER_POINT,
    }


def catalogue() -> dict[str, Any]:
    """The NavegadorCatalog message as plain data, one field per helper."""
    return {
        "regions": _regions(),
        "colonies": _colonies(),
        "buildings": _buildings(),
        "rondel": _rondel(),
        "market": [{"good": g, "prices": list(t.MARKET_PRICES[g])} for g in t.GOODS],
        "knight_prices": list(t.KNIGHT_PRICES),
        "purchase_costs": [t.purchase_cost(k) for k in range(MAX_PURCHASE + 1)],
        "setups": _setups(),
        "numbers": _numbers(),
    }
