"""Card catalogue of Sail Away (spec §2): islands, ships, pirate action cards, objective tokens.

Almost all card data is [designed] in the spec (no public card list exists); the engine reads
it only from these tables so real values can be swapped in without code changes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType


class Resource(enum.Enum):
    """The three goods; a crate is the resource of the space it sits on (SR3)."""

    COTTON = "C"
    VANILLA = "V"
    SUGAR = "S"


class Ability(enum.IntEnum):
    """The five launch-ability slots of a player board (§2.2)."""

    EXTRA_CRATE = 1
    DIRECT_LOAD = 2
    CLAIM = 3
    RELEASE = 4
    RESERVE = 5


@dataclass(frozen=True, slots=True)
class IslandCard:
    """An island: resource spaces left to right and its coin value."""

    id: str
    spaces: tuple[Resource, ...]
    value: int


@dataclass(frozen=True, slots=True)
class ShipCard:
    """A ship: resource spaces, the index of its gold-coin space (or None) and its points."""

    id: str
    spaces: tuple[Resource, ...]
    coin_space: int | None
    points: int


@dataclass(frozen=True, slots=True)
class PirateActionCard:
    """A pirate action card (§2.5); `persistent` cards act while the crate stays."""

    id: str
    name: str
    persistent: bool


C, V, S = Resource.COTTON, Resource.VANILLA, Resource.SUGAR


def _islands() -> dict[str, IslandCard]:
    rows = [
        ((C, C, V), 1),
        ((V, V, S), 1),
        ((S, S, C), 1),
        ((C, V, S), 1),
        ((C, C, V, S), 2),
        ((V, V, C, S), 2),
        ((S, S, C, V), 2),
        ((C, C, V, V), 2),
        ((V, V, S, S), 2),
        ((S, S, C, C), 2),
        ((C, C, V, V, S), 3),
        ((V, V, S, S, C), 3),
        ((S, S, C, C, V), 3),
    ]
    return {f"IS{i:02d}": IslandCard(f"IS{i:02d}", sp, v) for i, (sp, v) in enumerate(rows, 1)}


def _ships() -> dict[str, ShipCard]:
    rows: list[tuple[tuple[Resource, ...], int | None, int]] = [
        ((C, C), None, 2),
        ((V, V), None, 2),
        ((S, S), None, 2),
        ((C, V), None, 2),
        ((C, S), None, 2),
        ((V, S), None, 2),
        ((C, C), None, 2),
        ((V, V), None, 2),
        ((S, S), None, 2),
        ((C, V), None, 2),
        ((C, S), None, 2),
        ((V, S), None, 2),
        ((C, C, V), None, 4),
        ((C, C, S), None, 4),
        ((V, V, C), None, 4),
        ((V, V, S), None, 4),
        ((S, S, C), None, 4),
        ((S, S, V), None, 4),
        ((C, V, S), None, 4),
        ((C, V, S), None, 4),
        ((C, V, S), None, 4),
        ((C, C, C), 2, 3),
        ((V, V, V), 2, 3),
        ((S, S, S), 2, 3),
        ((C, C, V, V), None, 6),
        ((C, C, S, S), None, 6),
        ((V, V, S, S), None, 6),
        ((C, C, V, S), None, 6),
        ((V, V, C, S), None, 6),
        ((S, S, C, V), None, 6),
        ((C, C, V, V), 3, 5),
        ((C, C, S, S), 3, 5),
        ((V, V, S, S), 3, 5),
        ((C, V, S, C), 3, 5),
        ((C, V, S, V), 3, 5),
        ((C, V, S, S), 3, 5),
    ]
    return {f"SH{i:02d}": ShipCard(f"SH{i:02d}", sp, coin, pts) for i, (sp, coin, pts) in enumerate(rows, 1)}


ISLANDS = MappingProxyType(_islands())
SHIPS = MappingProxyType(_ships())

FORCED_SALE = "PA1"
SMUGGLED_GOODS = "PA2"
DIRTY_DEEDS = "PA3"
LANDLUBBER = "PA4"
BURIED_TREASURE = "PA5"
SEA_LEGS = "PA6"
HARBOR_DUES = "PA7"
BLACK_FLAG = "PA8"

PIRATE_ACTIONS = MappingProxyType(
    {
        c.id: c
        for c in (
            PirateActionCard(FORCED_SALE, "Forced Sale", persistent=False),
            PirateActionCard(SMUGGLED_GOODS, "Smuggled Goods", persistent=False),
            PirateActionCard(DIRTY_DEEDS, "Dirty Deeds", persistent=False),
            PirateActionCard(LANDLUBBER, "Landlubber", persistent=False),
            PirateActionCard(BURIED_TREASURE, "Buried Treasure", persistent=False),
            PirateActionCard(SEA_LEGS, "Sea Legs", persistent=True),
            PirateActionCard(HARBOR_DUES, "Harbor Dues", persistent=True),
            PirateActionCard(BLACK_FLAG, "Black Flag", persistent=True),
        )
    }
)

OBJECTIVES = MappingProxyType({"OB1": C, "OB2": C, "OB3": V, "OB4": V, "OB5": S, "OB6": S})

# Canonical orders (§2.7): the sort key of every face-down pile.
ISLAND_IDS: tuple[str, ...] = tuple(sorted(ISLANDS))
SHIP_IDS: tuple[str, ...] = tuple(sorted(SHIPS))
PIRATE_IDS: tuple[str, ...] = tuple(sorted(PIRATE_ACTIONS))
OBJECTIVE_IDS: tuple[str, ...] = tuple(sorted(OBJECTIVES))


def launchable(card: ShipCard, filled: tuple[bool, ...]) -> bool:
    """Every non-coin space holds a crate."""
    return all(f or i == card.coin_space for i, f in enumerate(filled))


# English rules texts and names for clients (catalogue.py), from spec §2.2 and §2.5; {placeholders} are
# filled from tables.py, so no number is written twice.
PIRATE_ACTION_TEXT = MappingProxyType(
    {
        FORCED_SALE: "Give another player {forced_sale_price} coin; move a standard crate from one of their "
        "unlaunched ships to an empty space of the same resource on one of yours (it returns to its owner when "
        "your ship launches).",
        SMUGGLED_GOODS: "Move one of your crates from an open island to an empty space of the same resource on "
        "one of your unlaunched ships (not a standard crate covered by a pirate crate).",
        DIRTY_DEEDS: "Use any one launch ability of your board (L1-L5), even an unlocked or used one; the slot "
        "is not used up.",
        LANDLUBBER: "Choose an open island without a claim post: every crate on it returns to its owner's "
        "supply (no coins), and the island is replaced.",
        BURIED_TREASURE: "Gain {buried_treasure_coins} coins.",
        SEA_LEGS: "While your crate is here, your crate limit is {sea_legs_crate_limit} instead of {base_crate_limit}.",
        HARBOR_DUES: "While your crate is here, another player who resolves an island pays you "
        "{harbor_dues_coins} coin after taking its coins (if able).",
        BLACK_FLAG: "While your crate is here, a ransom for one of your pirate crates costs {black_flag_ransom} "
        "coins instead of {ransom}.",
    }
)
ABILITY_NAMES = MappingProxyType(
    {
        Ability.EXTRA_CRATE: "Extra Crate",
        Ability.DIRECT_LOAD: "Direct Load",
        Ability.CLAIM: "Claim",
        Ability.RELEASE: "Release",
        Ability.RESERVE: "Reserve",
    }
)
ABILITY_TEXT = MappingProxyType(
    {
        Ability.EXTRA_CRATE: "This turn you may place one more crate than your limit.",
        Ability.DIRECT_LOAD: "Place a crate from your supply on an empty space of one of your unlaunched ships "
        "(outside your crate limit).",
        Ability.CLAIM: "Claim an open island with one of your posts even though it has empty spaces.",
        Ability.RELEASE: "Return one pirate crate from a pirate action card to its owner's supply.",
        Ability.RESERVE: "Move your reserve crates into your supply.",
    }
)
