"""Immutable game data: board, merchant and navy cards, captain cards, ship slots, tokens, costs.

Provenance of every value is in rules/pirates-of-nassau.md; values tagged [designed] there
live only here and, for the texts and layout hints clients are sent, in texts.py.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Item(enum.Enum):
    """Something kept in a ship's hold."""

    PESO = 1
    GUNPOWDER = 2
    GOODS = 3
    RUM = 4
    HOSTAGE = 5


class Resource(enum.Enum):
    """A resource: gunpowder, goods or rum."""

    GUNPOWDER = 1
    GOODS = 2
    RUM = 3


RESOURCE_ITEM = {Resource.GUNPOWDER: Item.GUNPOWDER, Resource.GOODS: Item.GOODS, Resource.RUM: Item.RUM}
ITEM_RESOURCE = {v: k for k, v in RESOURCE_ITEM.items()}
ITEM_CODES = {"P": Item.PESO, "W": Item.GUNPOWDER, "G": Item.GOODS, "R": Item.RUM, "H": Item.HOSTAGE}

# Supply limits (R3, R4).
RESOURCE_SUPPLY = 20
HOSTAGE_SUPPLY = 7
TRADE_WIND_SUPPLY = 10

# --- Board (§2.2, §2.3) -------------------------------------------------------------------
SPACES = 20
LAYOVERS = (7, 14)
ZONE_ROUTES: tuple[tuple[int, ...], ...] = ((2, 3, 4, 6), (8, 10, 11, 13), (15, 17, 19))
ROUTES = frozenset(s for zone in ZONE_ROUTES for s in zone)


@dataclass(frozen=True, slots=True)
class Port:
    space: int
    name: str
    offer: tuple[Item, ...]
    spanish: bool


PORTS: dict[int, Port] = {
    1: Port(1, "La Havana", (Item.RUM, Item.GOODS), False),
    5: Port(5, "Port Royal", (Item.GUNPOWDER, Item.RUM), False),
    9: Port(9, "Santo Domingo", (Item.GOODS, Item.GUNPOWDER), False),
    12: Port(12, "Tortuga", (Item.RUM, Item.GOODS, Item.GUNPOWDER), False),
    16: Port(16, "Cartagena", (Item.GOODS, Item.GUNPOWDER, Item.PESO), True),
    18: Port(18, "Curaçao", (Item.RUM, Item.GOODS), False),
    20: Port(20, "Veracruz", (Item.GUNPOWDER, Item.RUM, Item.PESO), True),
}


def zone_of(space: int) -> int:
    """The zone (1..3) of a sea space."""
    return 1 if space <= 7 else 2 if space <= 14 else 3


def port_cannon(zone: int) -> int:
    return 4 + zone


def raid_reward(zone: int) -> int:
    return 2 * zone


def ransom_reward(zone: int) -> int:
    return zone


def smuggle_quantity(zone: int) -> int:
    return 2 if zone == 3 else 1


# --- Merchant ships (§2.4) ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Merchant:
    id: str
    zone: int
    sail: int
    cannon: int
    loot: tuple[Item, ...]


def _merchants(zone: int, rows: str) -> dict[str, Merchant]:
    out = {}
    for i, row in enumerate(rows.split(";"), start=1):
        sail, cannon, loot = row.split()
        cid = f"Z{zone}-{i:02d}"
        out[cid] = Merchant(cid, zone, int(sail), int(cannon), tuple(ITEM_CODES[c] for c in loot))
    return out


MERCHANTS: dict[str, Merchant] = {
    **_merchants(
        1,
        "1 1 RG;1 1 WG;1 1 RW;1 2 RR;1 2 WW;2 1 GG;2 1 RG;2 1 WR;2 2 RRG;2 2 GGW;2 2 WWR;"
        "2 2 RGW;1 3 WWG;3 1 GGR;2 3 RRW;3 2 GWP;2 3 WGH;3 2 RGH;3 3 RGWP;3 3 WWRR",
    ),
    **_merchants(
        2,
        "2 2 RRGP;2 2 WWGP;2 3 GGRW;3 2 RWWG;2 3 RRRH;3 2 GGGH;3 3 WWWP;3 3 RGWH;3 3 PPRG;"
        "2 4 WWRR;4 2 GGRR;3 4 RGWP;4 3 RGWP;3 4 WWGH;4 3 RRGH;4 4 PPWGR;4 4 RRGGH;4 4 WWWRP",
    ),
    **_merchants(
        3,
        "3 3 PPRG;3 3 PPWG;3 4 RRGGP;4 3 WWGGP;4 4 PPPRH;4 4 PPPGH;4 4 RRWWH;3 5 WWWRP;"
        "5 3 GGGRP;4 5 PPRGW;5 4 PPRGW;5 5 PPPRRH;5 5 PPPGGH;5 5 PPPWWH;4 6 WWWRRP;"
        "6 4 GGGRRP;5 6 PPPPH;6 5 PPPPRG;6 6 PPPPPH;6 6 PPPRGW",
    ),
}

# --- Royal Navy (§2.5) --------------------------------------------------------------------
END_CARD = "END"


@dataclass(frozen=True, slots=True)
class NavyCard:
    id: str
    phase: int
    min_players: int
    sail: int  # 0/0 = Empty Sea
    cannon: int

    @property
    def empty(self) -> bool:
        return self.sail == 0 and self.cannon == 0


def _navy(phase: int, rows: str) -> dict[str, NavyCard]:
    out = {}
    for i, row in enumerate(rows.split(";"), start=1):
        mark, sail, cannon = (int(x) for x in row.split())
        cid = f"N{phase}-{i:02d}"
        out[cid] = NavyCard(cid, phase, mark, sail, cannon)
    return out


NAVY: dict[str, NavyCard] = {
    **_navy(
        1,
        "0 0 0;0 0 0;0 0 0;0 0 0;0 2 2;0 2 3;0 3 2;0 3 3;0 2 4;0 4 2;0 3 4;0 4 4;"
        "4 0 0;4 2 3;4 3 3;4 4 3;5 0 0;5 3 2;5 3 3;5 4 4",
    ),
    **_navy(2, "0 0 0;0 4 5;0 5 4;0 5 5;0 5 6;0 6 5;4 0 0;4 6 6;5 4 6;5 6 4"),
}


def navy_cards_for(players: int, phase: int) -> tuple[str, ...]:
    """The navy cards of one phase in use with `players` (2 plays as 3, §3.2)."""
    count = max(players, 3)
    return tuple(sorted(c.id for c in NAVY.values() if c.phase == phase and c.min_players <= count))


def navy_deck(players: int, phase: int) -> tuple[str, ...]:
    """The face-down navy deck of one phase at setup, sorted: phase 2 holds the End-of-Game card too."""
    cards = navy_cards_for(players, phase)
    return tuple(sorted((*cards, END_CARD))) if phase == 2 else cards


# --- Captain cards (§2.6) -----------------------------------------------------------------
CAPTAIN_CARDS: dict[str, tuple[int, int]] = {"C12": (1, 2), "C21": (2, 1), "C22": (2, 2), "C33": (3, 3)}
CAPTAIN_ORDER = ("C12", "C21", "C22", "C33")


# --- Ship sections and slots (§2.7) -------------------------------------------------------
class SlotType(enum.Enum):
    HULL = 1
    SAIL = 2
    MIZZEN = 3
    CREW = 4


class Border(enum.Enum):
    RED = 1
    BLACK = 2
    YELLOW = 3
    PURPLE = 4
    GREEN = 5
    ANY = 6


@dataclass(frozen=True, slots=True)
class Slot:
    id: str
    section: int  # 0 = a starting section, 1 = brigantine, 2 = galleon
    type: SlotType
    border: Border


SLOTS: tuple[Slot, ...] = (
    Slot("BOW-H1", 0, SlotType.HULL, Border.RED),
    Slot("BOW-H2", 0, SlotType.HULL, Border.RED),
    Slot("BOW-X1", 0, SlotType.CREW, Border.ANY),
    Slot("STERN-S1", 0, SlotType.SAIL, Border.YELLOW),
    Slot("STERN-S2", 0, SlotType.SAIL, Border.YELLOW),
    Slot("STERN-X1", 0, SlotType.CREW, Border.ANY),
    Slot("BRIG-H1", 1, SlotType.HULL, Border.BLACK),
    Slot("BRIG-S1", 1, SlotType.SAIL, Border.PURPLE),
    Slot("BRIG-M1", 1, SlotType.MIZZEN, Border.GREEN),
    Slot("BRIG-X1", 1, SlotType.CREW, Border.ANY),
    Slot("BRIG-X2", 1, SlotType.CREW, Border.ANY),
    Slot("GAL-H1", 2, SlotType.HULL, Border.BLACK),
    Slot("GAL-S1", 2, SlotType.SAIL, Border.PURPLE),
    Slot("GAL-M1", 2, SlotType.MIZZEN, Border.GREEN),
    Slot("GAL-X1", 2, SlotType.CREW, Border.ANY),
    Slot("GAL-X2", 2, SlotType.CREW, Border.ANY),
)
SLOT_BY_ID = {s.id: s for s in SLOTS}
SLOT_ORDER = {s.id: i for i, s in enumerate(SLOTS)}
MAX_EXTRA_SECTIONS = 2
HOLD_PER_SECTION = 3
BASE_SAIL = 1
BASE_CANNON = 1
SECTION_BEST_SHIP = (2, 2, 3)  # bow + stern, then brigantine, then galleon


def capacity(extra_sections: int) -> int:
    return HOLD_PER_SECTION * (2 + extra_sections)


# --- Tokens (§2.8, §2.9) ------------------------------------------------------------------
class Pile(enum.Enum):
    HULL = 1
    MAST = 2
    CREW = 3


class Fight(enum.Enum):
    PLUNDER = 1
    RAID = 2
    NAVY = 3


ALL_FIGHTS = frozenset(Fight)


@dataclass(frozen=True, slots=True)
class TokenKind:
    name: str
    pile: Pile
    slot: SlotType
    border: Border
    sail: int = 0  # always-on sail (hull/sail tokens)
    cannon: int = 0  # always-on cannon
    raid_cannon: int = 0  # Great Cannon
    navy_sail: int = 0  # Foresail
    best_ship: int = 0
    motley: int = 0
    one_shot: bool = False
    # One-shot fight boosts: (sail, cannon, fights, tie counts as success).
    boost_sail: int = 0
    boost_cannon: int = 0
    boost_fights: frozenset[Fight] = frozenset()
    jolly_roger: bool = False


_H, _M, _C = Pile.HULL, Pile.MAST, Pile.CREW
_P, _R, _N = Fight.PLUNDER, Fight.RAID, Fight.NAVY


def _crew(name: str, motley: int, sail: int = 0, cannon: int = 0, fights: frozenset[Fight] = frozenset()) -> TokenKind:
    return TokenKind(
        name,
        _C,
        SlotType.CREW,
        Border.ANY,
        motley=motley,
        one_shot=True,
        boost_sail=sail,
        boost_cannon=cannon,
        boost_fights=fights,
    )


TOKEN_KINDS: dict[str, TokenKind] = {
    "Cannon": TokenKind("Cannon", _H, SlotType.HULL, Border.RED, cannon=1, best_ship=1),
    "Great Cannon": TokenKind("Great Cannon", _H, SlotType.HULL, Border.RED, raid_cannon=2, best_ship=1),
    "Figurehead": TokenKind("Figurehead", _H, SlotType.HULL, Border.RED, cannon=1, best_ship=2),
    "Gun Deck": TokenKind("Gun Deck", _H, SlotType.HULL, Border.BLACK, cannon=2, best_ship=2),
    "Captain's Cabin": TokenKind("Captain's Cabin", _H, SlotType.HULL, Border.BLACK, cannon=1, best_ship=4),
    "Bow Chasers": TokenKind("Bow Chasers", _H, SlotType.HULL, Border.BLACK, cannon=3, best_ship=1),
    "Topsail": TokenKind("Topsail", _M, SlotType.SAIL, Border.YELLOW, sail=1, best_ship=1),
    "Staysail": TokenKind("Staysail", _M, SlotType.SAIL, Border.YELLOW, sail=1, best_ship=2),
    "Foresail": TokenKind("Foresail", _M, SlotType.SAIL, Border.YELLOW, navy_sail=2, best_ship=1),
    "Main Course": TokenKind("Main Course", _M, SlotType.SAIL, Border.PURPLE, sail=2, best_ship=2),
    "Spanker": TokenKind("Spanker", _M, SlotType.SAIL, Border.PURPLE, sail=3, best_ship=1),
    "Crow's Nest": TokenKind("Crow's Nest", _M, SlotType.MIZZEN, Border.GREEN, best_ship=2, one_shot=True),
    "Jolly Roger": TokenKind(
        "Jolly Roger",
        _M,
        SlotType.MIZZEN,
        Border.GREEN,
        best_ship=3,
        one_shot=True,
        boost_fights=frozenset({_P}),
        jolly_roger=True,
    ),
    "Ratlines": TokenKind(
        "Ratlines",
        _M,
        SlotType.MIZZEN,
        Border.GREEN,
        best_ship=1,
        one_shot=True,
        boost_sail=2,
        boost_fights=frozenset({_P, _N}),
    ),
    "Boatswain": _crew("Boatswain", 1, cannon=1, fights=frozenset({_N})),
    "Helmsman's Mate": _crew("Helmsman's Mate", 1, sail=1, fights=frozenset({_P})),
    "Sailing Master": _crew("Sailing Master", 1, sail=1, fights=frozenset({_P, _N})),
    "Master Gunner": _crew("Master Gunner", 1, cannon=1, fights=ALL_FIGHTS),
    "Marksman": _crew("Marksman", 1, cannon=1, fights=frozenset({_P})),
    "Lookout": _crew("Lookout", 1, sail=1, fights=frozenset({_N})),
    "Rigger": _crew("Rigger", 1, sail=1, cannon=1, fights=frozenset({_N})),
    "Cartographer": _crew("Cartographer", 2),
    "Pilot": _crew("Pilot", 1),
    "Carpenter": _crew("Carpenter", 2),
    "Sailmaker": _crew("Sailmaker", 2),
    "Powder Monkey": _crew("Powder Monkey", 2),
    "Cooper": _crew("Cooper", 2),
    "Ship's Cook": _crew("Ship's Cook", 2),
    "Quartermaster": _crew("Quartermaster", 2),
    "Surgeon": _crew("Surgeon", 2),
    "Purser": _crew("Purser", 2),
    "Cabin Boy": _crew("Cabin Boy", 3),
    "Fiddler": _crew("Fiddler", 3),
    "Ship's Dog": _crew("Ship's Dog", 3, cannon=1, fights=frozenset({_R})),
    "Ship's Cat": _crew("Ship's Cat", 4),
}

_TOKEN_RUNS: tuple[tuple[str, str, int], ...] = (
    ("HULL", "Cannon", 10),
    ("HULL", "Great Cannon", 4),
    ("HULL", "Figurehead", 4),
    ("HULL", "Gun Deck", 8),
    ("HULL", "Captain's Cabin", 3),
    ("HULL", "Bow Chasers", 3),
    ("MAST", "Topsail", 9),
    ("MAST", "Staysail", 3),
    ("MAST", "Foresail", 3),
    ("MAST", "Main Course", 7),
    ("MAST", "Spanker", 3),
    ("MAST", "Crow's Nest", 3),
    ("MAST", "Jolly Roger", 3),
    ("MAST", "Ratlines", 3),
    *(
        ("CREW", name, 2)
        for name in (
            "Boatswain",
            "Helmsman's Mate",
            "Sailing Master",
            "Master Gunner",
            "Marksman",
            "Lookout",
            "Rigger",
            "Cartographer",
            "Pilot",
            "Carpenter",
            "Sailmaker",
            "Powder Monkey",
            "Cooper",
            "Ship's Cook",
            "Quartermaster",
            "Surgeon",
            "Purser",
            "Cabin Boy",
            "Fiddler",
            "Ship's Dog",
            "Ship's Cat",
        )
    ),
)


def _token_ids() -> dict[str, TokenKind]:
    out: dict[str, TokenKind] = {}
    counters = {"HULL": 0, "MAST": 0, "CREW": 0}
    for prefix, name, count in _TOKEN_RUNS:
        for _ in range(count):
            counters[prefix] += 1
            out[f"{prefix}-{counters[prefix]:02d}"] = TOKEN_KINDS[name]
    return out


TOKENS: dict[str, TokenKind] = _token_ids()
PILE_TOKENS: dict[Pile, tuple[str, ...]] = {
    pile: tuple(sorted(t for t, k in TOKENS.items() if k.pile is pile)) for pile in Pile
}
PILE_ORDER = (Pile.HULL, Pile.MAST, Pile.CREW)

# --- Costs (§2.10) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cost:
    gunpowder: int
    goods: int
    rum: int

    def get(self, r: Resource) -> int:
        return (self.gunpowder, self.goods, self.rum)[r.value - 1]

    def add(self, r: Resource, n: int) -> Cost:
        values = [self.gunpowder, self.goods, self.rum]
        values[r.value - 1] += n
        return Cost(*values)


SECTION_COST = Cost(2, 2, 2)
TOKEN_COST: dict[SlotType, Cost] = {
    SlotType.MIZZEN: Cost(1, 1, 1),
    SlotType.SAIL: Cost(0, 2, 1),
    SlotType.HULL: Cost(2, 1, 0),
    SlotType.CREW: Cost(1, 0, 2),
}
PESO_EXCHANGE = 2  # 1 peso -> 2 resources of one type
SELL_RESOURCES = 3  # 3 resources -> 1 peso (step 5.3)
PURSER_SELL_RESOURCES = 2

# --- Notoriety (§2.11, §4.3) -------------------------------------------------------------
TRACK = 100
RAID_NOTORIETY = 10
PLANK_NOTORIETY = 3
WIND_NOTORIETY = 1
FIDDLER_NOTORIETY = 1
SURGEON_RELIEF = 2

# --- Scoring (§8) -------------------------------------------------------------------------
RANK_POINTS = (7, 5, 3, 1, 0)

# --- Default loss order (D12, D16) and take order (D6) ------------------------------------
LOSS_ORDER = (Item.RUM, Item.GOODS, Item.GUNPOWDER, Item.HOSTAGE, Item.PESO)
TAKE_ORDER = (Item.PESO, Item.GUNPOWDER, Item.GOODS, Item.RUM, Item.HOSTAGE)


def track_space(n: int) -> int:
    return (n - 1) % TRACK + 1
