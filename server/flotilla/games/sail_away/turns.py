"""Turn order: start of turn and crate check (§4.1, SD2), end check (§8.1) and the round cap."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve
from flotilla.rules.tuples import replace_at

from . import tables
from .actions import Action, TakeCrateFromShip
from .board import EventList, find_ship, return_crates, set_player
from .events import CrateTakenFromShip, EndTriggered, GameEnded, TurnStarted
from .scoring import final_result, public_objective_winner, scores
from .state import Phase, State


def start_turn(s: State, seat: Seat, ev: EventList) -> State:
    """Begin `seat`'s turn: a crate check if its supply is empty, else the placement step."""
    s = evolve(
        s,
        active=seat,
        turn=s.turn + 1,
        placed=0,
        extra=0,
        used_cards=(),
        claims=(),
        phase=Phase.PLACEMENT,
    )
    ev.append(TurnStarted(seat, s.turn))
    p = s.players[seat]
    if p.standard == 0 and p.pirate == 0 and crate_check_options(s):
        s = evolve(s, phase=Phase.CRATE_CHECK)
    return s


def crate_check_options(s: State) -> list[Action]:
    """SD2: the active seat's own crates on its own ships (lowest position, lowest space first)."""
    seat = s.active
    return [
        TakeCrateFromShip(ship.card, i)
        for ship in s.players[seat].ships
        for i, crate in enumerate(ship.crates)
        if crate is not None and crate.owner == seat
    ]


def take_crate(s: State, action: TakeCrateFromShip, ev: EventList) -> State:
    """Move the chosen crate from the ship to the supply; the placement step follows."""
    if action not in crate_check_options(s):
        raise IllegalAction(f"{action.ship} space {action.space} holds no crate of yours", ship=action.ship)
    seat = s.active
    _, i = find_ship(s, action.ship)
    p = s.players[seat]
    ship = p.ships[i]
    crate = ship.crates[action.space]
    assert crate is not None
    ship = evolve(ship, crates=replace_at(ship.crates, action.space, None))
    s = set_player(s, seat, evolve(p, ships=replace_at(p.ships, i, ship)))
    s = return_crates(s, [crate])
    ev.append(CrateTakenFromShip(seat, action.ship, action.space, crate.pirate))
    return evolve(s, phase=Phase.PLACEMENT)


def end_turn(s: State, ev: EventList) -> State:
    """End check (SR17), the round cap (SA-R1), then the next seat's turn."""
    seat = s.active
    n = len(s.players)
    if s.end_trigger is None and len(s.players[seat].launched) >= tables.END_SHIPS:
        s = evolve(s, end_trigger=seat, final_turns=n - 1)
        ev.append(EndTriggered(seat))
    elif s.end_trigger is not None:
        s = evolve(s, final_turns=s.final_turns - 1)
    if s.end_trigger is not None:
        if s.final_turns == 0:
            return finish(s, ev, round_cap=False)
    elif s.turn >= s.config.max_rounds * n:
        return finish(s, ev, round_cap=True)
    return start_turn(s, Seat((seat + 1) % n), ev)


def finish(s: State, ev: EventList, *, round_cap: bool) -> State:
    """Score the game (§8.2) and reveal every secret objective."""
    s = evolve(s, phase=Phase.FINISHED, tasks=())
    result = final_result(s)
    ev.append(
        GameEnded(
            scores(s),
            tuple(sorted(result.winners)),
            tuple(p.objective for p in s.players),
            public_objective_winner(s),
            round_cap,
        )
    )
    return s
