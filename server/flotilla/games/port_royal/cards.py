"""The card catalogue (spec §2): ships, persons, expeditions, tax increases, contracts.

Every number here comes from the spec's data tables; values the spec marks [designed]
are marked the same way in a comment.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

CardId = str
"""A card's printed id, e.g. "Y01", "SA3", "EX4", "TX1" (spec §2)."""

ContractId = str
"""A contract's id, "C01" … "C18" (spec §2.9)."""


class Colour(enum.Enum):
    """Ship colours (spec §2.1)."""

    YELLOW = "Y"
    BLUE = "B"
    GREEN = "G"
    RED = "R"
    BLACK = "K"


class Kind(enum.Enum):
    """What a card is when it is revealed."""

    SHIP = 1
    PERSON = 2
    EXPEDITION = 3
    TAX = 4


class Role(enum.Enum):
    """Person types (spec §2.4, §2.5)."""

    TRADER = 1
    SETTLER = 2
    CAPTAIN = 3
    PRIEST = 4
    JACK = 5
    SAILOR = 6
    PIRATE = 7
    MADEMOISELLE = 8
    JESTER = 9
    ADMIRAL = 10
    GOVERNOR = 11
    CLERK = 12
    GUNNER = 13
    VICE_ADMIRAL = 14


class Symbol(enum.Enum):
    """Expedition symbols (spec §2.1)."""

    ANCHOR = 1
    CROSS = 2
    HOUSE = 3


class TaxBonus(enum.Enum):
    """Who gets the bonus coin of a tax increase (spec §2.8)."""

    MOST_SWORDS = 1
    FEWEST_VP = 2


@dataclass(frozen=True, slots=True)
class CardInfo:
    """Printed data of one card; unused fields keep their zero value."""

    card: CardId
    kind: Kind
    colour: Colour | None = None
    coins: int = 0  # ship: coins when traded; expedition: coins when fulfilled
    repel: int | None = None  # ship: swords to repel, None = skull
    special: bool = False  # expansion ship giving 1 coin to another player
    role: Role | None = None
    cost: int = 0
    vp: int = 0
    swords: int = 0
    symbol: Symbol | None = None
    needs: tuple[Symbol, ...] = ()  # expedition requirement
    tax: TaxBonus | None = None
    expansion: bool = False


_SKULL = None
# (colour, [(coins, swords to repel), ...]) in id order; spec §2.2.
_BASE_SHIPS: tuple[tuple[Colour, tuple[tuple[int, int | None], ...]], ...] = (
    (Colour.YELLOW, ((1, 1),) * 3 + ((2, 1),) + ((2, 2),) * 2 + ((3, 2),) + ((3, 4),) * 2 + ((4, 4),)),
    (Colour.BLUE, ((1, 1),) * 3 + ((2, 1),) + ((2, 2),) * 2 + ((3, 2),) + ((3, 5),) * 2 + ((4, 5),)),
    (Colour.GREEN, ((1, 1),) * 3 + ((2, 1),) + ((2, 3),) * 2 + ((3, 3),) + ((3, 5),) * 2 + ((4, 5),)),
    (Colour.RED, ((1, 1),) * 3 + ((2, 3),) * 3 + ((3, 6),) * 2 + ((3, _SKULL),) + ((4, _SKULL),)),
    (Colour.BLACK, ((1, 2),) * 3 + ((2, 4),) * 3 + ((3, 7),) * 2 + ((3, _SKULL),) + ((4, _SKULL),)),
)
# Expansion ships, spec §2.3: (id, colour, coins, swords, special). Ruling R15: one special per colour.
_NEW_SHIPS: tuple[tuple[CardId, Colour, int, int | None, bool], ...] = (
    ("Y11", Colour.YELLOW, 1, 2, False),
    ("Y12", Colour.YELLOW, 3, 4, True),
    ("B11", Colour.BLUE, 1, 1, False),
    ("B12", Colour.BLUE, 3, 5, True),
    ("G11", Colour.GREEN, 1, 1, False),
    ("G12", Colour.GREEN, 3, 3, True),
    ("R11", Colour.RED, 1, 1, False),
    ("R12", Colour.RED, 3, 6, True),
    ("K11", Colour.BLACK, 1, 2, False),
    ("K12", Colour.BLACK, 3, _SKULL, True),
)
# Persons, spec §2.4 / §2.5: (prefix, first number, count, role, cost, vp, swords, symbol, colour).
_P = tuple[str, int, int, Role, int, int, int, Symbol | None, Colour | None]
_BASE_PERSONS: tuple[_P, ...] = (
    ("TK", 1, 2, Role.TRADER, 3, 1, 0, None, Colour.BLACK),
    ("TB", 1, 1, Role.TRADER, 3, 1, 0, None, Colour.BLUE),
    ("TB", 2, 1, Role.TRADER, 5, 2, 0, None, Colour.BLUE),
    ("TG", 1, 2, Role.TRADER, 3, 1, 0, None, Colour.GREEN),
    ("TR", 1, 2, Role.TRADER, 3, 1, 0, None, Colour.RED),
    ("TY", 1, 1, Role.TRADER, 3, 1, 0, None, Colour.YELLOW),
    ("TY", 2, 1, Role.TRADER, 5, 2, 0, None, Colour.YELLOW),
    ("SE", 1, 5, Role.SETTLER, 4, 1, 0, Symbol.HOUSE, None),
    ("CA", 1, 5, Role.CAPTAIN, 4, 1, 0, Symbol.ANCHOR, None),
    ("PR", 1, 5, Role.PRIEST, 4, 1, 0, Symbol.CROSS, None),
    ("JT", 1, 3, Role.JACK, 6, 1, 0, None, None),
    ("SA", 1, 7, Role.SAILOR, 3, 1, 1, None, None),
    ("SA", 8, 2, Role.SAILOR, 5, 2, 1, None, None),
    ("SA", 10, 1, Role.SAILOR, 7, 3, 1, None, None),
    ("PI", 1, 1, Role.PIRATE, 5, 1, 2, None, None),
    ("PI", 2, 1, Role.PIRATE, 7, 2, 2, None, None),
    ("PI", 3, 1, Role.PIRATE, 9, 3, 2, None, None),
    ("MA", 1, 2, Role.MADEMOISELLE, 7, 2, 0, None, None),
    ("MA", 3, 2, Role.MADEMOISELLE, 9, 3, 0, None, None),
    ("JE", 1, 1, Role.JESTER, 5, 1, 0, None, None),
    ("JE", 2, 3, Role.JESTER, 7, 2, 0, None, None),
    ("JE", 5, 1, Role.JESTER, 9, 3, 0, None, None),
    ("AD", 1, 1, Role.ADMIRAL, 5, 1, 0, None, None),
    ("AD", 2, 3, Role.ADMIRAL, 7, 2, 0, None, None),
    ("AD", 5, 2, Role.ADMIRAL, 9, 3, 0, None, None),
    ("GO", 1, 4, Role.GOVERNOR, 8, 0, 0, None, None),
)
_CLERKS: tuple[tuple[CardId, Colour, int, int], ...] = (
    ("CLG", Colour.GREEN, 9, 3),
    ("CLB", Colour.BLUE, 6, 2),
    ("CLR", Colour.RED, 6, 2),
    ("CLK", Colour.BLACK, 4, 1),
    ("CLY", Colour.YELLOW, 4, 1),
)
_NEW_PERSONS: tuple[_P, ...] = (
    ("GU", 1, 1, Role.GUNNER, 4, 1, 0, None, None),
    ("GU", 2, 2, Role.GUNNER, 6, 2, 0, None, None),
    ("GU", 4, 1, Role.GUNNER, 8, 3, 0, None, None),
    ("VA", 1, 2, Role.VICE_ADMIRAL, 5, 1, 0, None, None),
    ("VA", 3, 2, Role.VICE_ADMIRAL, 7, 2, 0, None, None),
    ("VA", 5, 1, Role.VICE_ADMIRAL, 9, 3, 0, None, None),
)
_A, _C, _H = Symbol.ANCHOR, Symbol.CROSS, Symbol.HOUSE
# Expeditions, spec §2.7: (id, needs, vp, coins).
_EXPEDITIONS: tuple[tuple[CardId, tuple[Symbol, ...], int, int], ...] = (
    ("EX1", (_A, _A), 4, 2),
    ("EX2", (_H, _H), 4, 2),
    ("EX3", (_C, _C), 4, 2),
    ("EX4", (_A, _A, _H), 6, 3),
    ("EX5", (_C, _C, _H), 6, 3),
    ("EX6", (_A, _C, _H), 5, 3),
)
FIVE_PLAYER_EXPEDITION: CardId = "EX6"


def _persons(rows: tuple[_P, ...]) -> list[CardInfo]:
    out = []
    for prefix, first, count, role, cost, vp, swords, symbol, colour in rows:
        for n in range(first, first + count):
            out.append(
                CardInfo(
                    f"{prefix}{n}",
                    Kind.PERSON,
                    colour=colour,
                    role=role,
                    cost=cost,
                    vp=vp,
                    swords=swords,
                    symbol=symbol,
                    expansion=prefix in {"GU", "VA"},
                )
            )
    return out


def _catalogue() -> tuple[tuple[CardInfo, ...], tuple[CardInfo, ...]]:
    """(base cards, expansion cards), each in canonical order (spec §2.11)."""
    base: list[CardInfo] = []
    new: list[CardInfo] = []
    for colour, rows in _BASE_SHIPS:
        for n, (coins, repel) in enumerate(rows, start=1):
            base.append(CardInfo(f"{colour.value}{n:02d}", Kind.SHIP, colour=colour, coins=coins, repel=repel))
    for card, colour, coins, repel, special in _NEW_SHIPS:
        new.append(CardInfo(card, Kind.SHIP, colour=colour, coins=coins, repel=repel, special=special, expansion=True))
    base.extend(_persons(_BASE_PERSONS))
    for card, colour, cost, vp in _CLERKS:
        new.append(CardInfo(card, Kind.PERSON, colour=colour, role=Role.CLERK, cost=cost, vp=vp, expansion=True))
    new.extend(_persons(_NEW_PERSONS))
    expeditions = [
        CardInfo(card, Kind.EXPEDITION, needs=needs, vp=vp, coins=coins) for card, needs, vp, coins in _EXPEDITIONS
    ]
    taxes = [
        CardInfo("TX1", Kind.TAX, tax=TaxBonus.MOST_SWORDS),
        CardInfo("TX2", Kind.TAX, tax=TaxBonus.MOST_SWORDS),
        CardInfo("TX3", Kind.TAX, tax=TaxBonus.FEWEST_VP),
        CardInfo("TX4", Kind.TAX, tax=TaxBonus.FEWEST_VP),
    ]
    # Canonical order: ships (base, then new), persons (base, then new), expeditions, taxes.
    ships_base = [c for c in base if c.kind is Kind.SHIP]
    persons_base = [c for c in base if c.kind is Kind.PERSON]
    ships_new = [c for c in new if c.kind is Kind.SHIP]
    persons_new = [c for c in new if c.kind is Kind.PERSON]
    ordered = (*ships_base, *ships_new, *persons_base, *persons_new, *expeditions, *taxes)
    return tuple(c for c in ordered if not c.expansion), tuple(ordered)


BASE_CARDS, ALL_CARDS = _catalogue()
CARDS: dict[CardId, CardInfo] = {c.card: c for c in ALL_CARDS}
ORDER: dict[CardId, int] = {c.card: i for i, c in enumerate(ALL_CARDS)}
"""Position of each card in the canonical order of the full 144-card catalogue (spec §2.11)."""

SPECIAL_SHIPS = frozenset(c.card for c in ALL_CARDS if c.special)


def deck(expansion: bool) -> tuple[CardId, ...]:
    """The draw pile of a mode before setup, canonical order, without EX6 (spec §2.11)."""
    cards = ALL_CARDS if expansion else BASE_CARDS
    return tuple(c.card for c in cards if c.card != FIVE_PLAYER_EXPEDITION)


def sort_pile(cards: list[CardId]) -> None:
    """Sort a face-down pile in place by the canonical order."""
    cards.sort(key=ORDER.__getitem__)


# ---------------------------------------------------------------- contracts (spec §2.9)


class Timing(enum.Enum):
    """When a contract may be completed (spec §2.9, §4.8)."""

    STATE = 1  # at any legal moment while the condition holds
    IMMEDIATE = 2  # only at its trigger


@dataclass(frozen=True, slots=True)
class ContractInfo:
    """Printed data of one contract."""

    contract: ContractId
    name: str
    seal_number: int
    seal_letter: str
    slots: tuple[int, int, int, int, int]
    boxes: int
    active_only: bool
    timing: Timing
    coop_only: bool = False


_S, _I = Timing.STATE, Timing.IMMEDIATE
CONTRACTS: dict[ContractId, ContractInfo] = {
    c.contract: c
    for c in (
        ContractInfo("C01", "Lady Killer", 1, "G", (3, 2, 1, 0, 0), 0, False, _S),
        ContractInfo("C02", "Explorer", 1, "E", (2, 1, 0, 0, 0), 0, False, _S),
        ContractInfo("C03", "Tax Officer", 1, "C", (7, 7, 7, 7, 7), 0, False, _I),
        ContractInfo("C04", "Frigate Foe", 0, "C", (8, 6, 5, 4, 3), 2, False, _I),
        ContractInfo("C05", "Galleon Foe", -1, "H", (6, 5, 4, 3, 2), 1, False, _I),
        ContractInfo("C06", "Trader Prince", 0, "B", (3, 2, 1, 0, 0), 0, False, _S),
        ContractInfo("C07", "Trade Outpost", 0, "D", (4, 3, 2, 1, 0), 0, False, _S),
        ContractInfo("C08", "Fighter", 0, "A", (3, 2, 1, 0, 0), 0, False, _S),
        ContractInfo("C09", "Comedian", 0, "I", (4, 3, 2, 1, 0), 0, False, _S),
        ContractInfo("C10", "New Colony", 1, "D", (3, 2, 1, 0, 0), 0, False, _S),
        ContractInfo("C11", "The Jinx", -1, "F", (1, 1, 1, 1, 1), 0, True, _I),
        ContractInfo("C12", "Pack of Pirates", 0, "A", (3, 2, 1, 0, 0), 0, True, _S),
        ContractInfo("C13", "Maritime Supremacy", 0, "G", (4, 3, 2, 1, 0), 0, False, _S),
        ContractInfo("C14", "Gamester", 0, "A", (2, 1, 0, 0, 0), 0, True, _I),
        ContractInfo("C15", "Cheap Staff", 1, "B", (5, 4, 3, 2, 1), 0, False, _S),
        ContractInfo("C16", "Tiny Gamester", 0, "A", (2, 1, 0, 0, 0), 1, True, _I),
        # Coop only: seal and blank slots are [designed] (spec §2.9, ruling R29).
        ContractInfo("C17", "Tiny Royal Household", 2, "J", (0, 0, 0, 0, 0), 0, False, _S, coop_only=True),
        ContractInfo("C18", "Ransom", 2, "K", (0, 0, 0, 0, 0), 0, False, _S, coop_only=True),
    )
}
CONTRACT_ORDER: tuple[ContractId, ...] = tuple(CONTRACTS)
COMPETITIVE_CONTRACTS: tuple[ContractId, ...] = tuple(c for c in CONTRACTS if not CONTRACTS[c].coop_only)
COOP_ONLY_CONTRACTS: tuple[ContractId, ...] = tuple(c for c in CONTRACTS if CONTRACTS[c].coop_only)

LADY_KILLER, EXPLORER, TAX_OFFICER, FRIGATE_FOE, GALLEON_FOE = "C01", "C02", "C03", "C04", "C05"
TRADER_PRINCE, TRADE_OUTPOST, FIGHTER, COMEDIAN, NEW_COLONY = "C06", "C07", "C08", "C09", "C10"
JINX, PACK_OF_PIRATES, MARITIME_SUPREMACY, GAMESTER, CHEAP_STAFF = "C11", "C12", "C13", "C14", "C15"
TINY_GAMESTER, ROYAL_HOUSEHOLD, RANSOM = "C16", "C17", "C18"


# ---------------------------------------------------------------- names and texts (spec 2.1, 2.4-2.9)
# English names and rules texts for clients (catalogue.py); {placeholders} are filled from tables.py and
# the card data, so no number is written twice.

SHIP_NAMES: dict[Colour, str] = {
    Colour.YELLOW: "Pinnace",
    Colour.BLUE: "Flute",
    Colour.GREEN: "Skiff",
    Colour.RED: "Frigate",
    Colour.BLACK: "Galleon",
}
PERSON_NAMES: dict[Role, str] = {
    Role.TRADER: "Trader",
    Role.SETTLER: "Settler",
    Role.CAPTAIN: "Captain",
    Role.PRIEST: "Priest",
    Role.JACK: "Jack of all Trades",
    Role.SAILOR: "Sailor",
    Role.PIRATE: "Pirate",
    Role.MADEMOISELLE: "Mademoiselle",
    Role.JESTER: "Jester",
    Role.ADMIRAL: "Admiral",
    Role.GOVERNOR: "Governor",
    Role.CLERK: "Clerk",
    Role.GUNNER: "Gunner",
    Role.VICE_ADMIRAL: "Vice Admiral",
}
PERSON_TEXT: dict[Role, str] = {
    Role.TRADER: "+1 coin when you trade a {colour} ship.",
    Role.SETTLER: "Gives a house for an expedition; discarded when used.",
    Role.CAPTAIN: "Gives an anchor for an expedition; discarded when used.",
    Role.PRIEST: "Gives a cross for an expedition; discarded when used.",
    Role.JACK: "Gives any one symbol (house, anchor or cross) for an expedition; discarded when used.",
    Role.SAILOR: "{swords} sword: repels ships when you are the active player.",
    Role.PIRATE: "{swords} swords: repel ships when you are the active player.",
    Role.MADEMOISELLE: "Every person you hire costs you 1 coin less (not below 0).",
    Role.JESTER: "+1 coin at your window when the harbor is empty (not as the active player), and on every bust.",
    Role.ADMIRAL: "+{admiral_coins} coins at your window if the harbor holds {admiral_min_harbor} or more cards.",
    Role.GOVERNOR: "You may take one more card in each of your windows.",
    Role.CLERK: "When you trade a {colour} ship, you may take one more card.",
    Role.GUNNER: "At your window: +1 coin per ship in the harbor beyond the first.",
    Role.VICE_ADMIRAL: "+1 coin at your window if the harbor holds exactly {vice_admiral_harbor} cards.",
}
SHIP_TEXT = "Trade it for {coins} coin(s), or repel it with {swords} sword(s)."
SKULL_SHIP_TEXT = "Trade it for {coins} coin(s); it cannot be repelled."
SPECIAL_SHIP_TEXT = " Trading it gives another player of your choice 1 coin."
EXPEDITION_TEXT = "Discard persons giving {needs} to fulfil it: {vp} VP and {coins} coins."
TAX_TEXT: dict[TaxBonus, str] = {
    TaxBonus.MOST_SWORDS: "Everyone with {tax_threshold} or more coins pays half (rounded down); "
    "the most swords gain 1 coin.",
    TaxBonus.FEWEST_VP: "Everyone with {tax_threshold} or more coins pays half (rounded down); "
    "the fewest VP gain 1 coin.",
}
CONTRACT_TEXT: dict[ContractId, str] = {
    "C01": "Own at least one Captain and one Mademoiselle.",
    "C02": "Own at least one fulfilled expedition.",
    "C03": "You had to pay taxes on a Tax Increase just now.",
    "C04": "Trade a red ship and refuse all its coins, {times} times.",
    "C05": "Trade a black ship and refuse all its coins, {times} times.",
    "C06": "Own at least {trader_prince_traders} Traders (any colours).",
    "C07": "Own at least one Settler and one Clerk.",
    "C08": "Own at least {fighter_swords} swords.",
    "C09": "Own at least one Priest and one Jester.",
    "C10": "Own at least one Settler and one Gunner.",
    "C11": "As the active player, bust.",
    "C12": "As the active player, collect repelled ships of all {colours} colours.",
    "C13": "Own at least one Captain and one Vice Admiral.",
    "C14": "As the active player, have ships of {gamester_colours} or more colours in the harbor.",
    "C15": "Own at least {cheap_staff_count} persons whose printed cost is {cheap_staff_cost} or less.",
    "C16": "As the active player, have ships of {tiny_gamester_colours} or more colours in the harbor, "
    "in {times} different turns.",
    "C17": "Own at least {royal_household_vp} VP (co-op only).",
    "C18": "Pay {ransom_coins} coins to the bank (co-op only).",
}
