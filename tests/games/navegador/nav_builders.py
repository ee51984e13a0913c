"""Scenario builders: Navegador states made directly, with a ledger that balances them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from flotilla.games.navegador.config import Config
from flotilla.games.navegador.ids import BUILDING_INDEX, COLONY_INDEX, REGION_INDEX
from flotilla.games.navegador.state import EMPTY, Holding, Ledger, Phase, PlayerState, Rondel, State
from flotilla.games.navegador.tables import (
    COLOURS,
    START_CUBES,
    START_MONEY,
    START_SHIPS,
    START_WORKERS,
    Space,
)
from flotilla.rules import Rng, Seat

A, B, C, D, E = (Seat(i) for i in range(5))


def a_player(
    *,
    seat: int = 0,
    money: int = 100,
    lisbon: int = 3,
    ships: Mapping[str, int] | None = None,
    knights: int = 1,
    rondel: Space | None = Space.SAILING,
) -> PlayerState:
    """A player; `ships` maps region ids to counts (default: 3 in Portugal)."""
    fleet = [0] * 13
    for region, n in (ships if ships is not None else {"SR0": 3}).items():
        fleet[REGION_INDEX[region]] = n
    return PlayerState(
        colour=COLOURS[seat], money=money, lisbon=lisbon, ships=tuple(fleet), knights=knights, rondel=rondel
    )


def a_state(
    *,
    seats: int = 3,
    players: Mapping[int, PlayerState] | None = None,
    buildings: Mapping[str, tuple[int, int]] | None = None,
    colonies: Mapping[str, tuple[int, int]] | None = None,
    tiles: Mapping[str, int] | None = None,
    cubes: tuple[int, int, int] = (START_CUBES,) * 3,
    knight_phase: int = 1,
    knight_step: int = 0,
    knights_sold: int | None = None,
    phase: Phase | None = None,
) -> State:
    """A state mid-game; unspecified players are a default player; holdings map id -> (seat, workers)."""
    given = dict(players or {})
    roster = tuple(given.get(s, a_player(seat=s)) for s in range(seats))
    builds = [EMPTY] * 7
    for b, (owner, w) in (buildings or {}).items():
        builds[BUILDING_INDEX[b]] = Holding(owner=Seat(owner), workers=w)
    cols = [EMPTY] * 21
    for c, (owner, w) in (colonies or {}).items():
        cols[COLONY_INDEX[c]] = Holding(owner=Seat(owner), workers=w)
    owners: list[Seat | None] = [None] * 13
    for r, owner in (tiles or {}).items():
        owners[REGION_INDEX[r]] = Seat(owner)
    sold = (knight_phase - 1) * 5 + knight_step if knights_sold is None else knights_sold
    state = State(
        config=Config(seats=seats),
        rng=Rng(12345),
        start_player=A,
        players=roster,
        buildings=tuple(builds),
        colonies=tuple(cols),
        tiles=tuple(owners),
        cubes=cubes,
        knight_phase=knight_phase,
        knight_step=knight_step,
        knights_sold=sold,
        phase=phase if phase is not None else Rondel(active=A),
        turn=10,
        ledger=Ledger(),
    )
    return balanced(state)


def balanced(state: State) -> State:
    """The same state with a ledger that accounts for everything in it (so the invariants hold)."""
    n = state.config.seats
    money = sum(p.money for p in state.players) - START_MONEY * n
    placed = [0] * n
    for h in (*state.buildings, *state.colonies):
        if h.owner is not None:
            placed[h.owner] += h.workers
    workers = [placed[s] + p.lisbon - START_WORKERS for s, p in enumerate(state.players)]
    ships = [sum(p.ships) - START_SHIPS for p in state.players]
    ledger = Ledger(
        money_paid_out=max(money, 0),
        money_paid_in=max(-money, 0),
        workers_gained=tuple(max(w, 0) for w in workers),
        workers_spent=tuple(max(-w, 0) for w in workers),
        ships_gained=tuple(max(k, 0) for k in ships),
        ships_lost=tuple(max(-k, 0) for k in ships),
        cubes_added=tuple(max(c - START_CUBES, 0) for c in state.cubes),
        cubes_removed=tuple(max(START_CUBES - c, 0) for c in state.cubes),
    )
    return replace(state, ledger=ledger)


def ships_of(state: State, seat: Seat) -> dict[str, int]:
    """A player's ships by region id (regions with none left out)."""
    return {f"SR{r}": n for r, n in enumerate(state.players[seat].ships) if n}
