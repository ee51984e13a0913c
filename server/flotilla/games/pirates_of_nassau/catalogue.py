"""Pirates of Nassau's catalogue for clients (PiratesOfNassauCatalog), built from the engine's own tables
(tables.py, whose `navy_deck` setup.py deals too): one source of truth.

`catalogue()` returns the message as plain data (field names as in the proto, enum members by name);
the app layer encodes it (flotilla/app/catalogue.py).
"""

from __future__ import annotations

from typing import Any

from . import tables as t
from . import texts
from .config import MAX_SEATS, MIN_SEATS, Config

DISPLAY_NAME = "Pirates of Nassau"


def _sea() -> list[dict[str, Any]]:
    out = []
    for space in range(1, t.SPACES + 1):
        port = t.PORTS.get(space)
        x, y = texts.SEA_LAYOUT[space]
        out.append(
            {
                "space": space,
                "zone": t.zone_of(space),
                "type": texts.space_type(space),
                "port_name": port.name if port else "",
                "offer": list(port.offer) if port else [],
                "spanish": bool(port and port.spanish),
                "x": x,
                "y": y,
            }
        )
    return out


def _zones() -> list[dict[str, Any]]:
    out = []
    for zone, routes in enumerate(t.ZONE_ROUTES, start=1):
        spaces = [s for s in range(1, t.SPACES + 1) if t.zone_of(s) == zone]
        layovers = [s for s in t.LAYOVERS if t.zone_of(s) == zone]
        out.append(
            {
                "zone": zone,
                "spaces": spaces,
                "routes": list(routes),
                "layover": layovers[0] if layovers else 0,
                "port_cannon": t.port_cannon(zone),
                "raid_reward": t.raid_reward(zone),
                "ransom_reward": t.ransom_reward(zone),
                "smuggle_quantity": t.smuggle_quantity(zone),
            }
        )
    return out


def _navy() -> list[dict[str, Any]]:
    out = []
    for card in t.NAVY.values():
        names = texts.NAVY_NAMES
        name = names["empty"] if card.empty else names["ship"].format(sail=card.sail, cannon=card.cannon)
        out.append(
            {
                "id": card.id,
                "phase": card.phase,
                "min_players": card.min_players,
                "sail": card.sail,
                "cannon": card.cannon,
                "empty": card.empty,
                "name": name,
            }
        )
    out.append({"id": t.END_CARD, "phase": 2, "end": True, "name": texts.NAVY_NAMES["end"]})
    return out


def _token(token: str, kind: t.TokenKind) -> dict[str, Any]:
    numbers = {
        "surgeon": t.SURGEON_RELIEF,
        "purser": t.PURSER_SELL_RESOURCES,
        "sell": t.SELL_RESOURCES,
        "fiddler": t.FIDDLER_NOTORIETY,
    }
    return {
        "id": token,
        "name": kind.name,
        "pile": kind.pile,
        "slot": kind.slot,
        "border": kind.border,
        "rules_text": texts.TOKEN_TEXT[kind.name].format(
            cannon=kind.cannon,
            sail=kind.sail,
            raid_cannon=kind.raid_cannon,
            navy_sail=kind.navy_sail,
            boost_sail=kind.boost_sail,
            boost_cannon=kind.boost_cannon,
            **numbers,
        ),
        "sail": kind.sail,
        "cannon": kind.cannon,
        "raid_cannon": kind.raid_cannon,
        "navy_sail": kind.navy_sail,
        "best_ship": kind.best_ship,
        "motley": kind.motley,
        "one_shot": kind.one_shot,
        "boost_sail": kind.boost_sail,
        "boost_cannon": kind.boost_cannon,
        "boost_fights": sorted(kind.boost_fights, key=lambda f: f.value),
    }


def _cost(purchase: str, cost: t.Cost) -> dict[str, Any]:
    return {"purchase": purchase, "gunpowder": cost.gunpowder, "goods": cost.goods, "rum": cost.rum}


def _setup(seats: int) -> dict[str, Any]:
    return {
        "seat_count": seats,
        "display_size": Config(seats=seats).display_size,
        "navy_first_phase": list(t.navy_deck(seats, 1)),
        "navy_second_phase": list(t.navy_deck(seats, 2)),
    }


def catalogue() -> dict[str, Any]:
    """The PiratesOfNassauCatalog message as plain data."""
    return {
        "sea": _sea(),
        "zones": _zones(),
        "merchants": [
            {"id": m.id, "zone": m.zone, "sail": m.sail, "cannon": m.cannon, "loot": list(m.loot)}
            for m in t.MERCHANTS.values()
        ],
        "navy": _navy(),
        "captain_cards": [
            {"id": c, "sail": t.CAPTAIN_CARDS[c][0], "cannon": t.CAPTAIN_CARDS[c][1]} for c in t.CAPTAIN_ORDER
        ],
        "sections": [
            {"section": i, "name": name, "best_ship": t.SECTION_BEST_SHIP[i], "capacity": t.capacity(i)}
            for i, name in enumerate(texts.SECTION_NAMES)
        ],
        "slots": [{"id": s.id, "section": s.section, "type": s.type, "border": s.border} for s in t.SLOTS],
        "tokens": [_token(token, kind) for token, kind in t.TOKENS.items()],
        "purchases": [
            *(_cost(slot.name.lower(), cost) for slot, cost in t.TOKEN_COST.items()),
            _cost("section", t.SECTION_COST),
        ],
        "setups": [_setup(n) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        "numbers": {
            "notoriety_track": t.TRACK,
            "rank_points": list(t.RANK_POINTS),
            "resource_supply": t.RESOURCE_SUPPLY,
            "hostage_supply": t.HOSTAGE_SUPPLY,
            "trade_winds": t.TRADE_WIND_SUPPLY,
            "peso_exchange": t.PESO_EXCHANGE,
            "sell_resources": t.SELL_RESOURCES,
            "base_sail": t.BASE_SAIL,
            "base_cannon": t.BASE_CANNON,
            "raid_notoriety": t.RAID_NOTORIETY,
            "plank_notoriety": t.PLANK_NOTORIETY,
        },
    }
