"""What each viewer may see (§7): an explicit whitelist View, event redaction, determinization."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from flotilla.rules import Rng, Seat, draw
from flotilla.rules.evolve import evolve

from . import resolution
from .board import crate_limit, ship_launchable
from .cards import ISLANDS, OBJECTIVES, PIRATE_ACTIONS, SHIP_IDS, SHIPS, Resource
from .events import Event, ShipPicked, ShipsKept
from .rules import to_act
from .scoring import final_result, public_objective_winner, scores
from .state import (
    CardEffect,
    Crate,
    Island,
    LaunchedShip,
    Launching,
    Phase,
    PirateCard,
    Resolution,
    Ship,
    Stage,
    State,
    Task,
)
from .tables import SHIPS_KEPT


class DecisionKind(enum.Enum):
    """The kind of decision being waited for."""

    CHOOSE_SHIPS = 1
    TAKE_CRATE = 2
    PLACEMENT = 3
    CARD_EFFECT = 4
    RANSOM = 5
    DISTRIBUTE = 6
    LAUNCH_OR_KEEP = 7
    CHOOSE_SLOT = 8
    TAKE_MARKET_SHIP = 9


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionView:
    """The decision being waited for; ids name what it is about."""

    kind: DecisionKind
    seat: Seat | None
    island: str | None = None
    space: int | None = None
    ship: str | None = None
    card: str | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class IslandSpaceView:
    """An island space: its resource, its crate and the covering pirate crate's owner."""

    resource: Resource
    crate: Crate | None
    cover: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class IslandView:
    """A face-up island at a row position (0-based)."""

    position: int
    card: str
    value: int
    spaces: tuple[IslandSpaceView, ...]
    post: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShipSpaceView:
    """A ship space: resource, whether it is the gold-coin space, and its crate."""

    resource: Resource
    coin: bool
    crate: Crate | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShipView:
    """An unlaunched ship (or a market ship, with empty spaces)."""

    card: str
    points: int
    spaces: tuple[ShipSpaceView, ...]
    launchable: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MarketShipView:
    """A ship in a market position (0-based)."""

    position: int
    ship: ShipView


@dataclass(frozen=True, slots=True, kw_only=True)
class LaunchedShipView:
    """A launched ship: slot (0 = beside the board), ability used (face down), ready to use."""

    card: str
    points: int
    resources: tuple[Resource, ...]
    slot: int
    used: bool
    ready: bool
    turn: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class PirateSpaceView:
    """A pirate action card space and the owner of its crate."""

    owner: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PirateCardView:
    """A pirate action card in play (position = index in the row)."""

    card: str
    name: str
    persistent: bool
    spaces: tuple[PirateSpaceView, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerView:
    """One seat as the viewer may see it; `objective` only for the seat itself or after the end."""

    seat: Seat
    coins: int
    standard: int
    pirate: int
    reserve_standard: int
    reserve_pirate: int
    posts: int
    ships: tuple[ShipView, ...]
    launched: tuple[LaunchedShipView, ...]
    chose_ships: bool
    objective: str | None
    objective_resource: Resource | None
    kept: tuple[str, ...] = ()
    """The ships kept at setup: the viewer's own while choosing, everyone's once revealed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """Everything `viewer` (None = spectator) may know of a Sail Away game."""

    viewer: Seat | None
    phase: Phase
    to_act: tuple[Seat, ...]
    decision: DecisionView | None
    turn: int
    max_rounds: int
    start_player: Seat
    active: Seat
    players: tuple[PlayerView, ...]
    islands: tuple[IslandView, ...]
    island_deck_size: int
    island_discard: tuple[str, ...]
    pirate_cards: tuple[PirateCardView, ...]
    market: tuple[MarketShipView, ...]
    ship_deck_size: int
    public_objective: str
    public_resource: Resource
    placed: int
    crate_limit: int
    used_cards: tuple[str, ...]
    claims: tuple[str, ...]
    end_trigger: Seat | None
    final_turns: int
    dealt: tuple[str, ...]
    kept: tuple[str, ...]
    returned: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    public_objective_winner: Seat | None
    tasks: tuple[Task, ...] = ()
    """Every pending decision in order (`decision` describes the first); all public."""


@lru_cache(maxsize=4096)  # a function of immutable values, the same ones over and over (a view shows ~12 ships)
def _ship_view(card: str, crates: tuple[Crate | None, ...]) -> ShipView:
    data = SHIPS[card]
    spaces = tuple(
        ShipSpaceView(resource=r, coin=i == data.coin_space, crate=crates[i]) for i, r in enumerate(data.spaces)
    )
    return ShipView(card=card, points=data.points, spaces=spaces, launchable=ship_launchable(Ship(card, crates)))


@lru_cache(maxsize=4096)
def _island_view(position: int, isl: Island) -> IslandView:
    card = ISLANDS[isl.card]
    return IslandView(
        position=position,
        card=isl.card,
        value=card.value,
        post=isl.post,
        spaces=tuple(
            IslandSpaceView(resource=card.spaces[k], crate=sp.crate, cover=sp.cover) for k, sp in enumerate(isl.spaces)
        ),
    )


@lru_cache(maxsize=1024)
def _pirate_card_view(pc: PirateCard) -> PirateCardView:
    action = PIRATE_ACTIONS[pc.card]
    return PirateCardView(
        card=pc.card,
        name=action.name,
        persistent=action.persistent,
        spaces=tuple(PirateSpaceView(owner=o) for o in pc.spaces),
    )


def _decision(s: State) -> DecisionView | None:
    if s.phase is Phase.FINISHED:
        return None
    if s.phase is Phase.CHOOSE_SHIPS:
        return DecisionView(kind=DecisionKind.CHOOSE_SHIPS, seat=None)
    if s.tasks:
        task = s.tasks[0]
        if isinstance(task, CardEffect):
            return DecisionView(kind=DecisionKind.CARD_EFFECT, seat=s.active, card=task.card)
        if isinstance(task, Launching):
            kind = DecisionKind.CHOOSE_SLOT if task.choose_slot else DecisionKind.TAKE_MARKET_SHIP
            return DecisionView(kind=kind, seat=task.owner, ship=task.ship)
        assert isinstance(task, Resolution)
        seat = resolution.waiting_seat(s, task)
        if task.stage is Stage.RANSOM:
            sp = s.islands[[i.card for i in s.islands].index(task.island)].spaces[task.index]
            assert sp.cover is not None
            return DecisionView(
                kind=DecisionKind.RANSOM,
                seat=seat,
                island=task.island,
                space=task.index,
                amount=resolution.ransom(s, sp.cover),
            )
        if task.stage is Stage.DISTRIBUTE:
            nxt = resolution.next_crate(s, task)
            assert nxt is not None
            return DecisionView(kind=DecisionKind.DISTRIBUTE, seat=seat, island=task.island, space=nxt[1])
        return DecisionView(kind=DecisionKind.LAUNCH_OR_KEEP, seat=seat, island=task.island, ship=task.candidates[0])
    if s.phase is Phase.CRATE_CHECK:
        return DecisionView(kind=DecisionKind.TAKE_CRATE, seat=s.active)
    return DecisionView(kind=DecisionKind.PLACEMENT, seat=s.active)


def _launched_view(s: State, seat: int, ls: LaunchedShip) -> LaunchedShipView:
    """A launched ship; its ability is ready from the turn after its launch (at once for others' turns)."""
    data = SHIPS[ls.card]
    return LaunchedShipView(
        card=ls.card,
        points=data.points,
        resources=data.spaces,
        slot=ls.slot,
        used=ls.used,
        ready=ls.slot != 0 and not ls.used and (ls.turn < s.turn or s.active != seat),
        turn=ls.turn,
    )


def _player_view(s: State, seat: int, viewer: Seat | None, *, finished: bool, setting_up: bool) -> PlayerView:
    """One seat: its objective to itself or after the end; its kept ships to itself while choosing."""
    p = s.players[seat]
    own = viewer == seat or finished
    return PlayerView(
        seat=Seat(seat),
        coins=p.coins,
        standard=p.standard,
        pirate=p.pirate,
        reserve_standard=p.reserve_standard,
        reserve_pirate=p.reserve_pirate,
        posts=p.posts,
        ships=tuple(_ship_view(ship.card, ship.crates) for ship in p.ships),
        launched=tuple(_launched_view(s, seat, ls) for ls in p.launched),
        chose_ships=len(p.kept) == SHIPS_KEPT,
        objective=p.objective if own else None,
        objective_resource=OBJECTIVES[p.objective] if own else None,
        kept=p.kept if not setting_up or viewer == seat else (),
    )


def view(s: State, viewer: Seat | None) -> View:
    """Public data plus the viewer's own secret objective and setup hand (§7)."""
    finished = s.phase is Phase.FINISHED
    setting_up = s.phase is Phase.CHOOSE_SHIPS
    players = [
        _player_view(s, seat, viewer, finished=finished, setting_up=setting_up) for seat in range(len(s.players))
    ]
    me = s.players[viewer] if viewer is not None else None
    result_scores = scores(s) if finished else ()
    return View(
        viewer=viewer,
        phase=s.phase,
        to_act=tuple(sorted(to_act(s))),
        decision=_decision(s),
        turn=s.turn,
        max_rounds=s.config.max_rounds,
        start_player=s.start_player,
        active=s.active,
        players=tuple(players),
        islands=tuple(_island_view(i, isl) for i, isl in enumerate(s.islands)),
        island_deck_size=len(s.island_deck),
        island_discard=s.island_discard,
        pirate_cards=tuple(_pirate_card_view(pc) for pc in s.pirate_cards),
        market=tuple(
            MarketShipView(position=i, ship=_ship_view(m, (None,) * len(SHIPS[m].spaces)))
            for i, m in enumerate(s.market)
            if m is not None
        ),
        ship_deck_size=len(s.ship_deck),
        public_objective=s.public_objective,
        public_resource=OBJECTIVES[s.public_objective],
        placed=s.placed,
        crate_limit=crate_limit(s, s.active) if s.turn else 0,
        used_cards=s.used_cards,
        claims=s.claims,
        end_trigger=s.end_trigger,
        final_turns=s.final_turns,
        dealt=me.dealt if me is not None else (),
        kept=me.kept if me is not None and setting_up else (),
        returned=me.returned if me is not None else (),
        scores=result_scores,
        winners=tuple(sorted(final_result(s).winners)) if finished else (),
        public_objective_winner=public_objective_winner(s) if finished else None,
        tasks=s.tasks,
    )


def redact(event: Event, viewer: Seat | None) -> Event | None:
    """Only an SD1 answer is secret: others learn that the seat chose, not what, and nothing of
    its single picks."""
    if isinstance(event, ShipsKept) and event.seat != viewer:
        return evolve(event, ships=())
    if isinstance(event, ShipPicked) and event.seat != viewer:
        return None
    return event


def determinize(s: State, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell from `s`: others' secrets re-dealt from what `seat` cannot see."""
    players = list(s.players)
    others = [i for i in range(len(players)) if i != seat]
    if s.phase is not Phase.FINISHED:
        pool = tuple(sorted([*s.objective_box, *(players[i].objective for i in others)]))
        for i in others:
            card, pool, rng = draw(pool, rng)
            players[i] = evolve(players[i], objective=card)
        s = evolve(s, objective_box=pool)
    if s.phase is Phase.CHOOSE_SHIPS:
        ships = tuple(sorted([*s.ship_deck, *(c for i in others for c in players[i].dealt)]))
        for i in others:
            hand = []
            for _ in range(len(players[i].dealt)):
                card, ships, rng = draw(ships, rng)
                hand.append(card)
            kept = tuple(hand[: len(players[i].kept)])
            players[i] = evolve(players[i], dealt=tuple(hand), kept=kept)
        s = evolve(s, ship_deck=ships)
    else:
        mine = set(players[seat].returned) | set(players[seat].kept)
        public = {c for p in players for c in p.kept}
        unseen = tuple(c for c in SHIP_IDS if c not in mine and c not in public)
        for i in others:
            back = []
            for _ in range(len(players[i].returned)):
                card, unseen, rng = draw(unseen, rng)
                back.append(card)
            players[i] = evolve(players[i], returned=tuple(back))
    return evolve(s, players=tuple(players), rng=rng)
