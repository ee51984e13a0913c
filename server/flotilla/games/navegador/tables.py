"""Navegador data tables (spec section 2). Every [designed] value of the spec lives here."""

from __future__ import annotations

import enum


class Space(enum.Enum):
    """The seven rondel spaces; the value is the clockwise position (spec 2.6, R1 [designed] order)."""

    SAILING = 0
    WORKERS = 1
    MARKET = 2
    COLONY = 3
    KNIGHT = 4
    SHIPS = 5
    BUILDINGS = 6


class Good(enum.Enum):
    """The three market goods."""

    SUGAR = 0
    GOLD = 1
    SPICE = 2


class Colour(enum.Enum):
    """Player colours; seat k gets colour k unless random colours are requested (spec 6)."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3
    BLACK = 4


GOODS: tuple[Good, ...] = (Good.SUGAR, Good.GOLD, Good.SPICE)
COLOURS: tuple[Colour, ...] = tuple(Colour)
RONDEL_SIZE = 7
SPACES: tuple[Space, ...] = tuple(Space)

# --- start (spec 3) [seed] ---
START_SHIPS = 3
START_WORKERS = 3
START_MONEY = 100
START_KNIGHTS = 1
START_CUBES = 5
MIN_SEATS = 2
MAX_SEATS = 5

# --- rondel (spec 4.1) [seed] ---
FREE_RONDEL_STEPS = 3
KNIGHT_PASSING_BONUS = 50

# --- sea regions (spec 2.2, 2.3) [designed] ---
REGION_IDS: tuple[str, ...] = tuple(f"SR{i}" for i in range(13))
REGION_NAMES: tuple[str, ...] = (
    "Portugal",
    "Guiné",
    "Bahia",
    "Rio de Janeiro",
    "Angola",
    "Cabo da Boa Esperança",
    "Moçambique",
    "Índia",
    "Ceilão",
    "Malaca",
    "Timor",
    "Macau",
    "Nagasaki",
)
PORTUGAL = 0
# Exploration bonus printed on each region's tile; Portugal has no tile (0 = none).
EXPLORATION_BONUS: tuple[int, ...] = (0, 50, 60, 80, 70, 100, 110, 130, 140, 150, 170, 180, 200)
EDGES: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 2),
    (1, 4),
    (2, 3),
    (3, 4),
    (4, 5),
    (5, 6),
    (6, 7),
    (7, 8),
    (8, 9),
    (9, 10),
    (9, 11),
    (11, 12),
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({b for a, b in EDGES if a == r} | {a for a, b in EDGES if b == r})) for r in range(13)
)
EXPLORATION_MIN_SHIPS = 3
EXPLORATION_SHIP_LOSS = 2

# --- colonies (spec 2.4) [designed]: (id, name, good, sea region) ---
COLONIES: tuple[tuple[str, str, Good, int], ...] = (
    ("C01", "Madeira", Good.SUGAR, 0),
    ("C02", "Cabo Verde", Good.SUGAR, 1),
    ("C03", "São Jorge da Mina", Good.GOLD, 1),
    ("C04", "Salvador", Good.SUGAR, 2),
    ("C05", "Pernambuco", Good.SUGAR, 2),
    ("C06", "São Vicente", Good.SUGAR, 3),
    ("C07", "Guanabara", Good.GOLD, 3),
    ("C08", "Luanda", Good.GOLD, 4),
    ("C09", "Benguela", Good.SUGAR, 4),
    ("C10", "Sofala", Good.GOLD, 6),
    ("C11", "Mombaça", Good.SPICE, 6),
    ("C12", "Goa", Good.SPICE, 7),
    ("C13", "Calicut", Good.SPICE, 7),
    ("C14", "Diu", Good.GOLD, 7),
    ("C15", "Colombo", Good.SPICE, 8),
    ("C16", "Malaca town", Good.SPICE, 9),
    ("C17", "Sumatra", Good.GOLD, 9),
    ("C18", "Díli", Good.SPICE, 10),
    ("C19", "Ternate", Good.SPICE, 10),
    ("C20", "Cantão", Good.GOLD, 11),
    ("C21", "Hirado", Good.GOLD, 12),
)
COLONY_IDS: tuple[str, ...] = tuple(c[0] for c in COLONIES)
COLONY_GOOD: tuple[Good, ...] = tuple(c[2] for c in COLONIES)
COLONY_REGION: tuple[int, ...] = tuple(c[3] for c in COLONIES)

# --- buildings (spec 2.5) [seed] ---
BUILDING_IDS: tuple[str, ...] = ("B1", "B2", "B3", "B4", "B5", "B6", "B7")
BUILDING_NAMES: tuple[str, ...] = (
    "Church",
    "Residence",
    "Shipyard",
    "Academy",
    "Customs House",
    "Exchange",
    "Palace",
)
CHURCH, RESIDENCE, SHIPYARD, ACADEMY, CUSTOMS_HOUSE, EXCHANGE, PALACE = range(7)
# The rondel space on which each building's ability works for its holder.
BUILDING_SPACE: tuple[Space, ...] = (
    Space.WORKERS,
    Space.BUILDINGS,
    Space.SHIPS,
    Space.SAILING,
    Space.COLONY,
    Space.MARKET,
    Space.KNIGHT,
)
CHURCH_FREE_WORKERS = 1
SHIPYARD_FREE_SHIPS = 1
EXCHANGE_EXTRA_GOLD = 1
RESIDENCE_INCOME_PER_BUILDING = 30
ACADEMY_INCOME_PER_REGION = 10
CUSTOMS_INCOME_PER_COLONY = 20
PALACE_INCOME_PER_WORKER = 20
DISPLACED_TO_LISBON_PER_WORKER = 10

# --- market price tracks (spec 2.7) [designed]: price by cubes 0..9; 10 pays the c = 9 price ---
TRACK_SPACES = 10
MARKET_PRICES: dict[Good, tuple[int, ...]] = {
    Good.SUGAR: (80, 70, 60, 50, 45, 40, 35, 30, 25, 20),
    Good.GOLD: (100, 90, 80, 70, 60, 50, 45, 40, 35, 30),
    Good.SPICE: (120, 110, 100, 90, 80, 70, 60, 50, 45, 40),
}

# --- knight track (spec 2.8) [seed] ---
KNIGHT_PRICES: tuple[int, ...] = (20, 40, 60, 80, 100)
KNIGHT_PHASES = 3
KNIGHTS_FOR_SALE = len(KNIGHT_PRICES) * KNIGHT_PHASES  # the 15th ends the game


# --- score values (spec 2.10) [seed] ---
POINTS_BUILDING = 5
POINTS_COLONY = 4
POINTS_TILE = 3
POINTS_LISBON_WORKER = 1
POINTS_SHIP = 1
MONEY_PER_POINT = 100


def purchase_cost(k: int) -> int:
    """Price of k workers or k ships in one action (spec 2.9): 0, 50, 120, then 100 x (k - 1)."""
    if k <= 0:
        return 0
    if k == 1:
        return 50
    if k == 2:
        return 120
    return 100 * (k - 1)


def max_affordable(money: int) -> int:
    """The largest k whose purchase_cost fits in `money`."""
    if money < 50:
        return 0
    if money < 120:
        return 1
    if money < 200:
        return 2
    return money // 100 + 1


def market_price(good: Good, cubes: int) -> int:
    """Price of one unit of `good` with `cubes` on its track (a full track pays its last price)."""
    return MARKET_PRICES[good][min(cubes, TRACK_SPACES - 1)]


# --- texts and layout for clients (catalogue.py) ---
# English names and rules texts (spec 2.5, 2.6, 4.1-4.8); {placeholders} are filled from the numbers above.
SPACE_NAMES: dict[Space, str] = {
    Space.SAILING: "Sailing",
    Space.WORKERS: "Workers",
    Space.MARKET: "Market",
    Space.COLONY: "Colony",
    Space.KNIGHT: "Knight",
    Space.SHIPS: "Ships",
    Space.BUILDINGS: "Buildings",
}
SPACE_TEXT: dict[Space, str] = {
    Space.SAILING: "Sail your ships to neighbouring sea regions; {exploration_min_ships} ships entering an "
    "unexplored region explore it (losing {exploration_ship_loss}) for its bonus.",
    Space.WORKERS: "Buy workers into Lisbon.",
    Space.MARKET: "Sell goods of your colonies at the market's prices; a sale lowers its price.",
    Space.COLONY: "Found colonies with workers from Lisbon in regions where you have ships.",
    Space.KNIGHT: "Buy a knight at the knight track's price.",
    Space.SHIPS: "Buy ships into Portugal.",
    Space.BUILDINGS: "Take buildings with workers from Lisbon.",
}
BUILDING_TEXT: tuple[str, ...] = (
    "Workers: +{church} free worker, besides those bought.",
    "End of turn on Buildings: +{residence} for each building you hold.",
    "Ships: +{shipyard} free ship, besides those bought.",
    "End of turn on Sailing: +{academy} for each sea region holding one of your ships.",
    "End of turn on Colony: +{customs} for each colony you hold.",
    "Market: sell {exchange} extra unit of gold, even without a gold colony.",
    "End of turn on Knight: +{palace} for each of your workers in Lisbon.",
)
# [designed] Layout hints: the centre of each sea region SR0..SR12 in board units (100 wide, y downwards),
# Portugal in the north-west, Nagasaki in the far east.
REGION_LAYOUT: tuple[tuple[float, float], ...] = (
    (45.0, 12.0),
    (38.0, 32.0),
    (18.0, 42.0),
    (14.0, 66.0),
    (42.0, 56.0),
    (48.0, 82.0),
    (60.0, 64.0),
    (68.0, 40.0),
    (74.0, 56.0),
    (82.0, 46.0),
    (88.0, 66.0),
    (86.0, 28.0),
    (94.0, 12.0),
)
# [designed] A colony is drawn below its region's centre, the colonies of one region side by side
# (COLONY_SPACING apart, centred), COLONY_DROP lower.
COLONY_DROP = 7.0
COLONY_SPACING = 5.0


def colony_layout(colony: int) -> tuple[float, float]:
    """Where colony `colony` (an index into COLONIES) may be drawn, in board units."""
    region = COLONY_REGION[colony]
    siblings = [c for c in range(len(COLONIES)) if COLONY_REGION[c] == region]
    x, y = REGION_LAYOUT[region]
    offset = (siblings.index(colony) - (len(siblings) - 1) / 2) * COLONY_SPACING
    return x + offset, y + COLONY_DROP
