"""What a seat (or a spectator) sees: everything public (spec 7), built as an explicit whitelist."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from flotilla.rules import Seat

from . import scoring
from .events import Event
from .rules import deciding
from .state import (
    Buildings,
    Colonies,
    Consume,
    Displaced,
    Draft,
    Finished,
    Holding,
    Knight,
    PayShips,
    Phase,
    Rondel,
    Sailing,
    Sell,
    Ships,
    State,
    Workers,
)
from .tables import BUILDING_IDS, COLONY_IDS, EXPLORATION_BONUS, KNIGHT_PRICES, REGION_IDS, Colour, Space


class Step(enum.Enum):
    """Which decision is pending."""

    DRAFT = 0
    RONDEL = 1
    PAY_SHIPS = 2
    WORKERS = 3
    SHIPS = 4
    BUILDINGS = 5
    SAILING = 6
    COLONY = 7
    CONSUME = 8
    SELL = 9
    KNIGHT = 10
    DISPLACED = 11
    FINISHED = 12


_STEPS: dict[type, Step] = {
    Draft: Step.DRAFT,
    Rondel: Step.RONDEL,
    PayShips: Step.PAY_SHIPS,
    Workers: Step.WORKERS,
    Ships: Step.SHIPS,
    Buildings: Step.BUILDINGS,
    Sailing: Step.SAILING,
    Colonies: Step.COLONY,
    Consume: Step.CONSUME,
    Sell: Step.SELL,
    Knight: Step.KNIGHT,
    Displaced: Step.DISPLACED,
    Finished: Step.FINISHED,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerView:
    seat: Seat
    colour: Colour
    money: int
    lisbon: int
    ships: tuple[int, ...]  # by sea region SR0..SR12
    knights: int
    rondel: Space | None
    buildings: tuple[str, ...]
    colonies: tuple[str, ...]
    tiles: tuple[str, ...]
    bonus_sum: int
    base_points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldingView:
    place: str
    owner: Seat | None
    workers: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RegionView:
    region: str
    explored: bool
    bonus: int
    tile_owner: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    viewer: Seat | None
    step: Step
    active: Seat | None
    to_act: tuple[Seat, ...]
    turn: int
    start_player: Seat
    players: tuple[PlayerView, ...]
    buildings: tuple[HoldingView, ...]
    colonies: tuple[HoldingView, ...]
    regions: tuple[RegionView, ...]
    cubes: tuple[int, ...]  # sugar, gold, spice
    knight_phase: int
    knight_price: int
    knights_sold: int
    draft_picks_left: int
    ships_owed: int
    destination: Space | None
    sailing_moved: tuple[int, ...]
    explored_this_action: bool
    consumers_left: int
    displaced_seat: Seat | None
    displaced_workers: int
    displaced_from: str
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    picked_place: str  # rules version 2: the building (D5) or colony (D7) picked, "" if none
    fleet_origin: str  # rules version 2: the next fleet's region (D6), "" if not picked yet
    fleet_destination: str  # and its destination
    picked_sales: tuple[int, ...]  # rules version 2: units of sugar (then gold) picked for sale (D9)


@cache
def _holding_view(place: str, owner: Seat | None, workers: int) -> HoldingView:
    return HoldingView(place=place, owner=owner, workers=workers)


@cache
def _region_view(region: int, owner: Seat | None) -> RegionView:
    return RegionView(
        region=REGION_IDS[region],
        explored=region == 0 or owner is not None,
        bonus=EXPLORATION_BONUS[region],
        tile_owner=owner,
    )


def _holdings(ids: tuple[str, ...], holdings: tuple[Holding, ...]) -> tuple[HoldingView, ...]:
    return tuple(_holding_view(i, h.owner, h.workers) for i, h in zip(ids, holdings, strict=True))


def _players(state: State) -> tuple[PlayerView, ...]:
    """Every seat with what it owns (buildings, colonies, exploration tiles) and its points so far."""
    n = len(state.players)
    buildings: list[list[str]] = [[] for _ in range(n)]
    colonies: list[list[str]] = [[] for _ in range(n)]
    tiles: list[list[str]] = [[] for _ in range(n)]
    bonus = [0] * n
    for b, h in zip(BUILDING_IDS, state.buildings, strict=True):
        if h.owner is not None:
            buildings[h.owner].append(b)
    for c, h in zip(COLONY_IDS, state.colonies, strict=True):
        if h.owner is not None:
            colonies[h.owner].append(c)
    for r, owner in enumerate(state.tiles):
        if owner is not None:
            tiles[owner].append(REGION_IDS[r])
            bonus[owner] += EXPLORATION_BONUS[r]
    return tuple(
        PlayerView(
            seat=Seat(s),
            colour=p.colour,
            money=p.money,
            lisbon=p.lisbon,
            ships=p.ships,
            knights=p.knights,
            rondel=p.rondel,
            buildings=tuple(buildings[s]),
            colonies=tuple(colonies[s]),
            tiles=tuple(tiles[s]),
            bonus_sum=bonus[s],
            base_points=scoring.points(len(buildings[s]), len(colonies[s]), len(tiles[s]), p),
        )
        for s, p in enumerate(state.players)
    )


def view(state: State, viewer: Seat | None) -> View:
    """Everything (perfect information): the board, every seat, and the pending decision's details."""
    phase = state.phase
    seat_to_act = deciding(phase)
    players = _players(state)
    outcome = scoring.result(state)
    return View(
        viewer=viewer,
        step=_STEPS[type(phase)],
        active=_active(phase),
        to_act=() if seat_to_act is None else (seat_to_act,),
        turn=state.turn,
        start_player=state.start_player,
        players=players,
        buildings=_holdings(BUILDING_IDS, state.buildings),
        colonies=_holdings(COLONY_IDS, state.colonies),
        regions=tuple(_region_view(r, owner) for r, owner in enumerate(state.tiles)),
        cubes=state.cubes,
        knight_phase=state.knight_phase,
        knight_price=KNIGHT_PRICES[state.knight_step],
        knights_sold=state.knights_sold,
        draft_picks_left=phase.picks_left if isinstance(phase, Draft) else 0,
        ships_owed=phase.owed if isinstance(phase, PayShips) else 0,
        destination=phase.space if isinstance(phase, PayShips) else None,
        sailing_moved=phase.moved if isinstance(phase, Sailing) else (),
        explored_this_action=phase.explored if isinstance(phase, Sailing) else False,
        consumers_left=phase.left if isinstance(phase, Consume) else 0,
        displaced_seat=phase.seat if isinstance(phase, Displaced) else None,
        displaced_workers=phase.workers if isinstance(phase, Displaced) else 0,
        displaced_from=phase.origin if isinstance(phase, Displaced) else "",
        scores=outcome.scores if outcome else (),
        winners=tuple(sorted(outcome.winners)) if outcome else (),
        picked_place=(phase.picked or "") if isinstance(phase, Buildings | Colonies) else "",
        fleet_origin=(phase.origin or "") if isinstance(phase, Sailing) else "",
        fleet_destination=(phase.destination or "") if isinstance(phase, Sailing) else "",
        picked_sales=phase.picked if isinstance(phase, Sell) else (),
    )


def _active(phase: Phase) -> Seat | None:
    if isinstance(phase, Draft | Finished):
        return None
    return phase.active


def redact(event: Event, _viewer: Seat | None) -> Event | None:
    """Every event is public: the game has perfect information (spec 7, R26)."""
    return event
