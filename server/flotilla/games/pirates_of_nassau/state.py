"""The game state: players, board, decks, piles and the current phase."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import Rng, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.snapshot import Upcaster

from .config import Config
from .tables import Item, Resource

SCHEMA_VERSION = 1
"""This game's snapshot schema version (`flotilla.rules.snapshot`): bump it, with an entry
in UPCASTERS, for a state change that needs more than a new field's default."""
UPCASTERS: dict[int, Upcaster] = {}


@dataclass(frozen=True, slots=True)
class Cargo:
    """The items in a hold (or a loot list)."""

    pesos: int = 0
    gunpowder: int = 0
    goods: int = 0
    rum: int = 0
    hostages: int = 0

    @property
    def total(self) -> int:
        return self.pesos + self.gunpowder + self.goods + self.rum + self.hostages

    def get(self, item: Item) -> int:
        return (self.pesos, self.gunpowder, self.goods, self.rum, self.hostages)[item.value - 1]

    def add(self, item: Item, n: int) -> Cargo:
        values = [self.pesos, self.gunpowder, self.goods, self.rum, self.hostages]
        values[item.value - 1] += n
        return Cargo(*values)

    def res(self, r: Resource) -> int:
        return (self.gunpowder, self.goods, self.rum)[r.value - 1]


@dataclass(frozen=True, slots=True)
class PlacedDie:
    """A used die on the board; `wind` when a spent trade wind lies under it."""

    value: int
    space: int
    wind: bool


@dataclass(frozen=True, slots=True)
class Fitted:
    """A token on a ship slot."""

    slot: str
    token: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    notoriety: int
    dice: tuple[int, ...] = ()  # unused dice, sorted
    trail: tuple[PlacedDie, ...] = ()
    space: int = 0  # 0 = Nassau
    hold: Cargo = Cargo()
    chest: int = 0
    hand: tuple[str, ...] = ("C12", "C21", "C22", "C33")
    sections: int = 0  # extra sections bought (0..2)
    fitted: tuple[Fitted, ...] = ()  # in slot order
    face_down: tuple[str, ...] = ()  # flipped one-shot tokens, sorted
    bought: tuple[str, ...] = ()  # tokens bought this round (R14), sorted
    plundered: tuple[str, ...] = ()  # merchant cards, in plunder order
    raids: int = 0  # ports raided this round
    plank: int = 0  # hostages in the plank pile
    wind_held: bool = False
    winds_spent: int = 0  # spent trade winds lying under dice


@dataclass(frozen=True, slots=True)
class Route:
    space: int
    card: str


@dataclass(frozen=True, slots=True)
class Deck:
    """A face-down deck: a shuffled part (sorted multiset, drawn at random) over publicly returned cards."""

    hidden: tuple[str, ...]
    bottom: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.hidden) + len(self.bottom)


@dataclass(frozen=True, slots=True)
class NavyDeck:
    """Phase 1 cards (shuffled) on phase 2 + END (shuffled) on the publicly returned cards."""

    phase1: tuple[str, ...]
    phase2: tuple[str, ...]
    bottom: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.phase1) + len(self.phase2) + len(self.bottom)


@dataclass(frozen=True, slots=True)
class TokenPile:
    hidden: tuple[str, ...]
    discard: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Supply:
    gunpowder: int = 20
    goods: int = 20
    rum: int = 20
    hostages: int = 7
    winds: int = 10

    def get(self, item: Item) -> int:
        if item is Item.PESO:
            return 1 << 30  # unlimited (R3)
        return (0, self.gunpowder, self.goods, self.rum, self.hostages)[item.value - 1]

    def add(self, item: Item, n: int) -> Supply:
        if item is Item.PESO:
            return self
        name = ("gunpowder", "goods", "rum", "hostages")[item.value - 2]
        return evolve(self, **{name: getattr(self, name) + n})


# --- Phases -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PirateMove:
    """Step 2: the active player moves (turn t of 3n; active = order[t % n])."""

    order: tuple[Seat, ...]
    turn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PirateAction:
    """Step 2: the active player may act on the space reached; `boosts` are staged for a fight."""

    order: tuple[Seat, ...]
    turn: int
    boosts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TakingLoot:
    """Step 2: after a successful Plunder, the player picks the loot that fits."""

    order: tuple[Seat, ...]
    turn: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AfterSmuggle:
    """Step 2: after a Smuggle, the player may Ransom one hostage."""

    order: tuple[Seat, ...]
    turn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjusting:
    """Step 3: order[index] adjusts notoriety (descending order)."""

    order: tuple[Seat, ...]
    index: int
    fiddler: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Collision:
    """Step 3 or 4: order[index] landed on an occupied track space and picks up or down."""

    step: int
    order: tuple[Seat, ...]
    index: int
    target: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NavyChoice:
    """Step 4: order[index] takes a card from the navy display (ascending order)."""

    order: tuple[Seat, ...]
    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NavyFight:
    """Step 4: order[index] declares boosts and a captain card against a warship."""

    order: tuple[Seat, ...]
    index: int
    card: str
    boosts: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class NavyPenalty:
    """Step 4: order[index] picks the penalty after one or no success."""

    order: tuple[Seat, ...]
    index: int
    card: str
    successes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LosingCargo:
    """Step 4: order[index] discards `remaining` more items, then loses `notoriety_loss`."""

    order: tuple[Seat, ...]
    index: int
    remaining: int
    notoriety_loss: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Buying:
    """Step 5.2: order[index] buys one thing or passes (descending order, repeated)."""

    order: tuple[Seat, ...]
    index: int
    passed: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Burying:
    """Step 5.3 (secret): order[index] buries pesos; others see the hold and tokens as they were."""

    order: tuple[Seat, ...]
    index: int
    hold_before: Cargo
    face_down_before: tuple[str, ...]
    purser_used: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldCheck:
    """Step 5.4: order[index] discards down to capacity."""

    order: tuple[Seat, ...]
    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Finished:
    """The END card was revealed."""


Phase = (
    PirateMove
    | PirateAction
    | TakingLoot
    | AfterSmuggle
    | Adjusting
    | Collision
    | NavyChoice
    | NavyFight
    | NavyPenalty
    | LosingCargo
    | Buying
    | Burying
    | HoldCheck
    | Finished
)


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    config: Config
    rng: Rng
    round: int
    phase: Phase
    players: tuple[Player, ...]
    routes: tuple[Route, ...]  # merchants on trade routes, by space
    decks: tuple[Deck, ...]  # Z1, Z2, Z3
    navy: NavyDeck
    navy_display: tuple[str, ...]
    piles: tuple[TokenPile, ...]  # hull, mast, crew
    display: tuple[str, ...]  # Nassau
    supply: Supply
    sacked: tuple[int, ...] = ()
    pesos_issued: int = 0  # pesos in holds + chests (the peso ledger, R3)


def active_seat(phase: Phase) -> Seat | None:
    """The one seat to act in `phase` (None once finished)."""
    match phase:
        case PirateMove() | PirateAction() | TakingLoot() | AfterSmuggle():
            return phase.order[phase.turn % len(phase.order)]
        case Finished():
            return None
        case _:
            return phase.order[phase.index]


def with_player(state: State, seat: int, player: Player) -> State:
    players = list(state.players)
    players[seat] = player
    return evolve(state, players=tuple(players))
