"""Step 3 (adjust notoriety) and the collision rule shared with step 4 (§4.3)."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Seat
from flotilla.rules.evolve import evolve

from . import flow
from .actions import Direction
from .common import first_usable, occupied, search_down, search_up
from .events import MarkerCollided, NotorietyChanged, NotorietyScored
from .state import Collision, Deck, State, with_player
from .tables import (
    FIDDLER_NOTORIETY,
    MERCHANTS,
    PLANK_NOTORIETY,
    RAID_NOTORIETY,
    WIND_NOTORIETY,
    track_space,
)

Events = list[object]


def needs_prompt(state: State, seat: Seat) -> bool:
    """Whether the player has a choice at their adjustment (plank, Fiddler, a held trade wind)."""
    p = state.players[seat]
    return p.hold.hostages > 0 or p.wind_held or first_usable(p, "Fiddler") is not None


def score(
    state: State,
    step: int,
    order: tuple[Seat, ...],
    index: int,
    *,
    cash_wind: bool,
    fiddler: bool,
    events: Events,
) -> tuple[State, bool]:
    """Score one player's round, clean up, and move the marker. True when a collision choice waits."""
    seat = order[index]
    p = state.players[seat]
    cashed = cash_wind and p.wind_held
    gain = (
        sum(MERCHANTS[c].sail + MERCHANTS[c].cannon for c in p.plundered)
        + RAID_NOTORIETY * p.raids
        + PLANK_NOTORIETY * p.plank
        + (WIND_NOTORIETY if cashed else 0)
        + (FIDDLER_NOTORIETY if fiddler else 0)
    )
    decks = list(state.decks)
    for card in p.plundered:
        z = MERCHANTS[card].zone - 1
        decks[z] = Deck(decks[z].hidden, (*decks[z].bottom, card))
    winds = int(p.wind_held) + p.winds_spent
    supply = evolve(state.supply, winds=state.supply.winds + winds, hostages=state.supply.hostages + p.plank)
    events.append(NotorietyScored(seat, gain, cashed, winds, p.plank, p.plundered))
    trail = tuple(evolve(d, wind=False) for d in p.trail)
    p = evolve(p, plundered=(), raids=0, plank=0, wind_held=False, winds_spent=0, trail=trail)
    state = evolve(with_player(state, seat, p), decks=tuple(decks), supply=supply)
    if gain <= 0:
        return state, False
    return change(state, step, order, index, p.notoriety + gain, events=events)


def set_notoriety(state: State, seat: Seat, value: int, direction: Direction | None, events: Events) -> State:
    p = state.players[seat]
    events.append(NotorietyChanged(seat, p.notoriety, value, direction))
    return with_player(state, seat, evolve(p, notoriety=value))


def change(
    state: State, step: int, order: tuple[Seat, ...], index: int, target: int, *, events: Events
) -> tuple[State, bool]:
    """Move order[index]'s marker to `target`, asking up/down on a collision when both exist."""
    seat = order[index]
    occ = occupied(state, seat)
    if track_space(target) not in occ:
        return set_notoriety(state, seat, target, None, events), False
    events.append(MarkerCollided(seat, target))
    if search_down(occ, target) is None:
        return set_notoriety(state, seat, search_up(occ, target), Direction.UP, events), False
    return evolve(state, phase=Collision(step=step, order=order, index=index, target=target)), True


def directions(state: State, phase: Collision) -> tuple[Direction, ...]:
    occ = occupied(state, phase.order[phase.index])
    return (Direction.UP, Direction.DOWN) if search_down(occ, phase.target) is not None else (Direction.UP,)


def resolve_collision(state: State, phase: Collision, direction: Direction, events: Events) -> State:
    seat = phase.order[phase.index]
    occ = occupied(state, seat)
    value = search_up(occ, phase.target) if direction is Direction.UP else search_down(occ, phase.target)
    if value is None:
        raise IllegalAction("no free track space below; move up", target=str(phase.target))
    state = set_notoriety(state, seat, value, direction, events)
    return flow.after_collision(state, phase.step, phase.order, phase.index, events)
