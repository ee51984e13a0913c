"""What happened (past tense). All public except the secret burial events of step 5.3."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Seat

from .actions import Direction, MoveKind, Penalty
from .state import Cargo
from .tables import Item, Pile, Resource


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    order: tuple[Seat, ...]  # step 2 order (ascending notoriety)


@dataclass(frozen=True, slots=True)
class DiceRolled:
    seat: Seat
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DieRerolled:
    seat: Seat
    token: str
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class ShipMoved:
    seat: Seat
    die: int
    kind: MoveKind
    value: int
    from_space: int
    to_space: int
    wind: int
    cartographer: str | None
    pilot: str | None


@dataclass(frozen=True, slots=True)
class ItemDiscarded:
    seat: Seat
    item: Item


@dataclass(frozen=True, slots=True)
class PlankWalked:
    seat: Seat


@dataclass(frozen=True, slots=True)
class BoostStaged:
    seat: Seat
    token: str


@dataclass(frozen=True, slots=True)
class MerchantFought:
    seat: Seat
    card: str
    captain: str
    boosts: tuple[str, ...]
    sail: int
    cannon: int
    success: bool


@dataclass(frozen=True, slots=True)
class LootTaken:
    seat: Seat
    card: str
    taken: Cargo
    quartermaster: str | None


@dataclass(frozen=True, slots=True)
class PortRaided:
    seat: Seat
    space: int
    captain: str
    boosts: tuple[str, ...]
    cannon: int
    success: bool
    pesos: int


@dataclass(frozen=True, slots=True)
class TradeWindTaken:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Smuggled:
    seat: Seat
    space: int
    item: Item
    count: int
    cook: str | None
    cook_extra: int


@dataclass(frozen=True, slots=True)
class HostageRansomed:
    seat: Seat
    space: int
    pesos: int
    cabin_boy: str | None


@dataclass(frozen=True, slots=True)
class TurnPassed:
    seat: Seat


@dataclass(frozen=True, slots=True)
class FiddlerFlipped:
    seat: Seat
    token: str


@dataclass(frozen=True, slots=True)
class NotorietyScored:
    """Step 3: the gain of one player and what went back to decks and supply."""

    seat: Seat
    gain: int
    wind_cashed: bool
    winds_returned: int
    hostages_returned: int
    cards_returned: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MarkerCollided:
    seat: Seat
    target: int


@dataclass(frozen=True, slots=True)
class NotorietyChanged:
    seat: Seat
    old: int
    new: int
    direction: Direction | None


@dataclass(frozen=True, slots=True)
class NavyCardTaken:
    seat: Seat
    card: str


@dataclass(frozen=True, slots=True)
class NavyFought:
    seat: Seat
    card: str
    captain: str
    boosts: tuple[str, ...]
    sail: int
    cannon: int
    successes: int


@dataclass(frozen=True, slots=True)
class PenaltyAccepted:
    seat: Seat
    penalty: Penalty
    surgeon: str | None
    notoriety_loss: int
    cargo_loss: int


@dataclass(frozen=True, slots=True)
class NavyCardReturned:
    card: str


@dataclass(frozen=True, slots=True)
class BoardCleared:
    order: tuple[Seat, ...]  # step 5 order (descending notoriety)


@dataclass(frozen=True, slots=True)
class SectionBought:
    seat: Seat
    sections: int
    paid_gunpowder: int
    paid_goods: int
    paid_rum: int
    crew_used: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TokenBought:
    seat: Seat
    token: str
    slot: str
    replaced: str | None
    paid_gunpowder: int
    paid_goods: int
    paid_rum: int
    crew_used: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PesoExchanged:
    """Public in 5.2; secret (shown to the owner only) in 5.3."""

    seat: Seat
    resource: Resource
    count: int
    secret: bool


@dataclass(frozen=True, slots=True)
class BuyingPassed:
    seat: Seat


@dataclass(frozen=True, slots=True)
class ResourcesSold:
    """Secret (owner only)."""

    seat: Seat
    gunpowder: int
    goods: int
    rum: int
    purser: str | None


@dataclass(frozen=True, slots=True)
class PesosBuried:
    """Secret (owner only)."""

    seat: Seat
    pesos: int


@dataclass(frozen=True, slots=True)
class BurialFinished:
    seat: Seat
    hold: Cargo
    face_down: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NavyCardRevealed:
    card: str


@dataclass(frozen=True, slots=True)
class MerchantSailedAway:
    """A zone 1 merchant left for Europe: to the bottom of its own deck."""

    card: str
    space: int


@dataclass(frozen=True, slots=True)
class MerchantMoved:
    card: str
    from_space: int
    to_space: int


@dataclass(frozen=True, slots=True)
class MerchantDealt:
    card: str
    space: int


@dataclass(frozen=True, slots=True)
class PileReshuffled:
    pile: Pile


@dataclass(frozen=True, slots=True)
class NassauRestocked:
    discarded: tuple[str, ...]
    drawn: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameEnded:
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]


Event = (
    RoundStarted
    | DiceRolled
    | DieRerolled
    | ShipMoved
    | ItemDiscarded
    | PlankWalked
    | BoostStaged
    | MerchantFought
    | LootTaken
    | PortRaided
    | TradeWindTaken
    | Smuggled
    | HostageRansomed
    | TurnPassed
    | FiddlerFlipped
    | NotorietyScored
    | MarkerCollided
    | NotorietyChanged
    | NavyCardTaken
    | NavyFought
    | PenaltyAccepted
    | NavyCardReturned
    | BoardCleared
    | SectionBought
    | TokenBought
    | PesoExchanged
    | BuyingPassed
    | ResourcesSold
    | PesosBuried
    | BurialFinished
    | NavyCardRevealed
    | MerchantSailedAway
    | MerchantMoved
    | MerchantDealt
    | PileReshuffled
    | NassauRestocked
    | GameEnded
)

EVENT_TYPES: tuple[type, ...] = (
    RoundStarted,
    DiceRolled,
    DieRerolled,
    ShipMoved,
    ItemDiscarded,
    PlankWalked,
    BoostStaged,
    MerchantFought,
    LootTaken,
    PortRaided,
    TradeWindTaken,
    Smuggled,
    HostageRansomed,
    TurnPassed,
    FiddlerFlipped,
    NotorietyScored,
    MarkerCollided,
    NotorietyChanged,
    NavyCardTaken,
    NavyFought,
    PenaltyAccepted,
    NavyCardReturned,
    BoardCleared,
    SectionBought,
    TokenBought,
    PesoExchanged,
    BuyingPassed,
    ResourcesSold,
    PesosBuried,
    BurialFinished,
    NavyCardRevealed,
    MerchantSailedAway,
    MerchantMoved,
    MerchantDealt,
    PileReshuffled,
    NassauRestocked,
    GameEnded,
)
