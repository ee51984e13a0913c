"""Conservation checks run after every step by the conformance harness."""

from __future__ import annotations

from operator import itemgetter

from .state import Buildings, Colonies, Displaced, Finished, Sailing, Sell, State
from .tables import (
    BUILDING_IDS,
    COLONY_IDS,
    GOODS,
    KNIGHT_PRICES,
    KNIGHTS_FOR_SALE,
    REGION_IDS,
    START_CUBES,
    START_KNIGHTS,
    START_MONEY,
    START_SHIPS,
    START_WORKERS,
    TRACK_SPACES,
)


def check_invariants(state: State) -> None:
    """Raise AssertionError if money, workers, ships, cubes or knights appeared or vanished."""
    assert len(state.players) == state.config.seats
    _check_money(state)
    _check_workers_and_ships(state)
    _check_cubes_and_knights(state)
    _check_map(state)
    _check_picks(state)


def _check_money(state: State) -> None:
    """Money only moves through the bank."""
    led = state.ledger
    money = [p.money for p in state.players]
    assert all(m >= 0 for m in money), "negative money"
    assert sum(money) == START_MONEY * state.config.seats + led.money_paid_out - led.money_paid_in, "money leak"


def _check_workers_and_ships(state: State) -> None:
    """Each seat's workers (placed, displaced, in Lisbon) and ships match what it gained and spent."""
    n = state.config.seats
    led = state.ledger
    placed = [0] * n
    for holdings in (state.buildings, state.colonies):
        for h in holdings:
            owner = h.owner
            assert (owner is None) == (h.workers == 0), f"holding {h} is inconsistent"
            if owner is not None:
                assert 0 <= owner < n
                placed[owner] += h.workers
    if isinstance(state.phase, Displaced):  # the displaced group waits for its owner's decision
        placed[state.phase.seat] += state.phase.workers
    workers_gained, workers_spent = led.workers_gained, led.workers_spent
    ships_gained, ships_lost = led.ships_gained, led.ships_lost
    for s, p in enumerate(state.players):
        assert p.lisbon >= 0, "negative Lisbon"
        assert placed[s] + p.lisbon == START_WORKERS + workers_gained[s] - workers_spent[s], f"workers of {s}"
        ships = p.ships
        assert min(ships) >= 0, "negative ships"
        assert sum(ships) == START_SHIPS + ships_gained[s] - ships_lost[s], f"ships of {s}"
        assert p.knights >= START_KNIGHTS


def _check_cubes_and_knights(state: State) -> None:
    """Cubes: 0..10 on each track, every change booked; knights: the 15 for sale plus one per seat."""
    led = state.ledger
    for g, c in enumerate(state.cubes):
        assert 0 <= c <= TRACK_SPACES, f"track {g} has {c} cubes"
        assert c == START_CUBES + led.cubes_added[g] - led.cubes_removed[g], f"cube leak on track {g}"
    assert sum(p.knights for p in state.players) == START_KNIGHTS * state.config.seats + state.knights_sold
    assert 0 <= state.knights_sold <= KNIGHTS_FOR_SALE
    if state.knights_sold < KNIGHTS_FOR_SALE:
        assert state.knights_sold == (state.knight_phase - 1) * len(KNIGHT_PRICES) + state.knight_step
    else:
        assert isinstance(state.phase, Finished), "the 15th knight must end the game"


def _check_map(state: State) -> None:
    """Portugal has no exploration tile; ships stand only in explored regions, and ships that moved
    this Sailing action are still there (they cannot have moved on or been spent)."""
    players = state.players
    tiles = state.tiles
    assert tiles[0] is None
    assert len({len(p.ships) for p in players}) == 1, "fleets of different sizes"
    unexplored = [r for r in range(1, len(tiles)) if tiles[r] is None]
    if unexplored:
        ships_there = itemgetter(*unexplored, 0)  # a tuple even for one region (Portugal's count is not used)
        assert not any(any(ships_there(p.ships)[:-1]) for p in players), "ships off the map"
    if isinstance(state.phase, Sailing):
        ships = players[state.phase.active].ships
        assert all(m <= k for m, k in zip(state.phase.moved, ships, strict=True)), "moved ships went missing"


def _check_picks(state: State) -> None:
    """Rules version 2's picks: known ids, the destination only after the origin."""
    phase = state.phase
    if isinstance(phase, Buildings | Colonies) and phase.picked is not None:
        assert phase.picked in (BUILDING_IDS if isinstance(phase, Buildings) else COLONY_IDS), "unknown pick"
    if isinstance(phase, Sailing):
        assert phase.origin is not None or phase.destination is None, "a destination without an origin"
        assert {phase.origin, phase.destination} <= {None, *REGION_IDS}, "unknown sea region picked"
    if isinstance(phase, Sell):
        assert len(phase.picked) < len(GOODS), "every good picked for sale (the last one is SellGoods)"
        assert min(phase.picked, default=0) >= 0, "negative units picked for sale"
