"""`from_view`: the state a view was taken from (Navegador hides nothing, spec 7: a rebuild, not a draw)."""

from __future__ import annotations

from flotilla.rules import Rng, Seat

from .config import Config
from .state import (
    Buildings,
    Colonies,
    Consume,
    Displaced,
    Draft,
    Finished,
    Holding,
    Knight,
    Ledger,
    PayShips,
    Phase,
    PlayerState,
    Rondel,
    Sailing,
    Sell,
    Ships,
    State,
    Workers,
)
from .tables import (
    COLONY_IDS,
    COLOURS,
    KNIGHT_PRICES,
    START_CUBES,
    START_MONEY,
    START_SHIPS,
    START_WORKERS,
)
from .views import HoldingView, Step, View


def _phase(v: View) -> Phase:
    """The pending decision as the state's phase (its data is all in the view)."""
    step = v.step
    if step is Step.FINISHED:
        return Finished()
    deciding = v.to_act[0]
    if step is Step.DRAFT:
        return Draft(chooser=deciding, picks_left=v.draft_picks_left)
    assert v.active is not None
    active = v.active
    if step is Step.CONSUME:
        return Consume(active=active, chooser=deciding, left=v.consumers_left)
    if step is Step.DISPLACED:
        assert v.displaced_seat is not None
        origin = v.displaced_from
        return Displaced(
            active=active,
            seat=v.displaced_seat,
            workers=v.displaced_workers,
            origin=origin,
            on_colony=origin in COLONY_IDS,
        )
    if step is Step.PAY_SHIPS:
        assert v.destination is not None
        return PayShips(active=active, space=v.destination, owed=v.ships_owed)
    if step is Step.BUILDINGS:
        return Buildings(active=active, picked=v.picked_place or None)
    if step is Step.COLONY:
        return Colonies(active=active, picked=v.picked_place or None)
    if step is Step.SAILING:
        return Sailing(
            active=active,
            moved=v.sailing_moved,
            explored=v.explored_this_action,
            origin=v.fleet_origin or None,
            destination=v.fleet_destination or None,
        )
    if step is Step.SELL:
        return Sell(active=active, picked=v.picked_sales)
    simple: dict[Step, type[Rondel | Workers | Ships | Knight]] = {
        Step.RONDEL: Rondel,
        Step.WORKERS: Workers,
        Step.SHIPS: Ships,
        Step.KNIGHT: Knight,
    }
    return simple[step](active=active)


def _holdings(views: tuple[HoldingView, ...]) -> tuple[Holding, ...]:
    return tuple(Holding(owner=h.owner, workers=h.workers) for h in views)


def _net(total: int, start: int) -> tuple[int, int]:
    """(gained, spent) booked so that `start + gained - spent == total`."""
    return max(total - start, 0), max(start - total, 0)


def from_view(v: View, seat: Seat, rng: Rng) -> State:
    """The state `v` shows (everything is public), with `rng` as its generator (unused after setup).

    The ledger, kept only for the conservation checks, books each balance's net change since the
    setup; `random_colours` (which only shaped the setup) says whether the colours differ from the
    default order."""
    del seat
    n = len(v.players)
    players = tuple(
        PlayerState(colour=p.colour, money=p.money, lisbon=p.lisbon, ships=p.ships, knights=p.knights, rondel=p.rondel)
        for p in v.players
    )
    buildings, colonies = _holdings(v.buildings), _holdings(v.colonies)
    phase = _phase(v)
    placed = [0] * n
    for h in (*buildings, *colonies):
        if h.owner is not None:
            placed[h.owner] += h.workers
    if isinstance(phase, Displaced):
        placed[phase.seat] += phase.workers
    workers = [_net(placed[i] + p.lisbon, START_WORKERS) for i, p in enumerate(players)]
    ships = [_net(sum(p.ships), START_SHIPS) for p in players]
    cubes = [_net(c, START_CUBES) for c in v.cubes]
    paid_out, paid_in = _net(sum(p.money for p in players), START_MONEY * n)
    ledger = Ledger(
        money_paid_out=paid_out,
        money_paid_in=paid_in,
        workers_gained=tuple(w[0] for w in workers),
        workers_spent=tuple(w[1] for w in workers),
        ships_gained=tuple(s[0] for s in ships),
        ships_lost=tuple(s[1] for s in ships),
        cubes_added=tuple(c[0] for c in cubes),
        cubes_removed=tuple(c[1] for c in cubes),
    )
    knight_step = KNIGHT_PRICES.index(v.knight_price)
    return State(
        config=Config(seats=n, random_colours=tuple(p.colour for p in players) != COLOURS[:n]),
        rng=rng,
        start_player=v.start_player,
        players=players,
        buildings=buildings,
        colonies=colonies,
        tiles=tuple(r.tile_owner for r in v.regions),
        cubes=v.cubes,
        knight_phase=v.knight_phase,
        knight_step=knight_step,
        knights_sold=v.knights_sold,
        phase=phase,
        turn=v.turn,
        ledger=ledger,
    )


__all__ = ["from_view"]
