"""Every choice a player makes is one of these (imperative names; ids, not positions)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .tables import Item, Resource


class MoveKind(enum.Enum):
    """How a die moves the ship (§4.2.2, §4.2.3)."""

    VALUE = 1  # first move: go to the space equal to the value (above 7 counts as 7)
    FORWARD = 2
    BACK = 3
    LAYOVER_7 = 4
    LAYOVER_14 = 5


class Direction(enum.Enum):
    """Collision search direction on the notoriety track."""

    UP = 1
    DOWN = 2


class Penalty(enum.Enum):
    """What a Royal Navy penalty takes (§4.4)."""

    NOTORIETY = 1
    CARGO = 2
    BOTH = 3


@dataclass(frozen=True, slots=True)
class RerollDie:
    """Flip a Crow's Nest to re-roll one unused die before moving (D2)."""

    token: str
    die: int


@dataclass(frozen=True, slots=True)
class Move:
    """Move with one unused die (D3); modifiers use a held trade wind and the lowest usable
    Cartographer / Pilot: wind and cartographer are -1, 0 or +1, pilot is -2, 0 or +2."""

    die: int
    kind: MoveKind
    wind: int = 0
    cartographer: int = 0
    pilot: int = 0


@dataclass(frozen=True, slots=True)
class Boost:
    """Stage a one-shot token as a boost for the coming fight (declared with the captain card)."""

    token: str


@dataclass(frozen=True, slots=True)
class Plunder:
    """Fight the merchant on this route with a captain card (and the staged boosts)."""

    captain: str


@dataclass(frozen=True, slots=True)
class Raid:
    """Raid the port on this space with a captain card (and the staged boosts)."""

    captain: str


@dataclass(frozen=True, slots=True)
class RideTradeWinds:
    """Take a trade wind token from the supply."""


@dataclass(frozen=True, slots=True)
class Smuggle:
    """Take `count` of one offered item at this port; `cook` flips a Ship's Cook for 1 more."""

    item: Item
    count: int
    cook: bool = False


@dataclass(frozen=True, slots=True)
class Ransom:
    """After a Smuggle, return one hostage for pesos; `cabin_boy` flips a Cabin Boy for 1 more."""

    cabin_boy: bool = False


@dataclass(frozen=True, slots=True)
class TakeLoot:
    """Take these items of a plundered ship's loot (as many as fit); `quartermaster` adds 1 peso."""

    pesos: int
    gunpowder: int
    goods: int
    rum: int
    hostages: int
    quartermaster: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing more now (end the turn's action, or stop buying for this step)."""


@dataclass(frozen=True, slots=True)
class DiscardItem:
    """Return one item from the hold to the supply (a free activity, or a forced loss)."""

    item: Item


@dataclass(frozen=True, slots=True)
class WalkPlank:
    """Move one hostage from the hold to the plank pile (+3 notoriety at step 3)."""


@dataclass(frozen=True, slots=True)
class FlipFiddler:
    """Flip a Fiddler for +1 at this step 3 adjustment."""

    token: str


@dataclass(frozen=True, slots=True)
class AdjustNotoriety:
    """Score this round's notoriety; `cash_wind` turns a held trade wind into +1."""

    cash_wind: bool


@dataclass(frozen=True, slots=True)
class MoveMarker:
    """Resolve a notoriety collision by searching up or down."""

    direction: Direction


@dataclass(frozen=True, slots=True)
class TakeNavyCard:
    """Take a card from the navy display (step 4)."""

    card: str


@dataclass(frozen=True, slots=True)
class EvadeNavy:
    """Fight the warship taken with a captain card (and the staged boosts)."""

    captain: str


@dataclass(frozen=True, slots=True)
class AcceptPenalty:
    """Choose the navy penalty (BOTH when no comparison succeeded); `surgeon` flips a Surgeon."""

    penalty: Penalty
    surgeon: bool = False


@dataclass(frozen=True, slots=True)
class BuySection:
    """Buy the next ship section; each crew field names what that crew token changes (or None)."""

    carpenter: Resource | None = None
    powder_monkey: Resource | None = None
    cooper: Resource | None = None


@dataclass(frozen=True, slots=True)
class BuyToken:
    """Buy a Nassau display token onto a matching slot (replacing what is there).

    carpenter / sailmaker: the resource unit waived; powder_monkey: what is paid instead of
    1 gunpowder; cooper: what is paid instead of 1 rum (None: that crew is not used).
    """

    token: str
    slot: str
    carpenter: Resource | None = None
    sailmaker: Resource | None = None
    powder_monkey: Resource | None = None
    cooper: Resource | None = None


@dataclass(frozen=True, slots=True)
class ExchangePeso:
    """Step 5: pay 1 peso from the hold for 2 of one resource."""

    resource: Resource


@dataclass(frozen=True, slots=True)
class SellResources:
    """Step 5.3: pay 3 resources (2 with a Purser) for 1 peso."""

    gunpowder: int
    goods: int
    rum: int
    purser: bool = False


@dataclass(frozen=True, slots=True)
class Bury:
    """Step 5.3: move pesos from the hold into the chest."""

    pesos: int


@dataclass(frozen=True, slots=True)
class FinishBurying:
    """Step 5.3: done."""


Action = (
    RerollDie
    | Move
    | Boost
    | Plunder
    | Raid
    | RideTradeWinds
    | Smuggle
    | Ransom
    | TakeLoot
    | Pass
    | DiscardItem
    | WalkPlank
    | FlipFiddler
    | AdjustNotoriety
    | MoveMarker
    | TakeNavyCard
    | EvadeNavy
    | AcceptPenalty
    | BuySection
    | BuyToken
    | ExchangePeso
    | SellResources
    | Bury
    | FinishBurying
)

ACTION_TYPES: tuple[type, ...] = (
    RerollDie,
    Move,
    Boost,
    Plunder,
    Raid,
    RideTradeWinds,
    Smuggle,
    Ransom,
    TakeLoot,
    Pass,
    DiscardItem,
    WalkPlank,
    FlipFiddler,
    AdjustNotoriety,
    MoveMarker,
    TakeNavyCard,
    EvadeNavy,
    AcceptPenalty,
    BuySection,
    BuyToken,
    ExchangePeso,
    SellResources,
    Bury,
    FinishBurying,
)
