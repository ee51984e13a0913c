"""`counter`: the benchmark-only game of the boardgame.io peer (two seats, add numbers, 200 moves).

Identical to `shared/peers/bgio/game.js`, so Flotilla's end-to-end figures compare with the
peer's on the same work. Not a real game: it exists for `bench/`.
"""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules import (
    GameRules,
    IllegalAction,
    InvalidAction,
    InvalidConfig,
    NotYourTurn,
    Result,
    Rng,
    Seat,
    Transition,
)
from flotilla.rules.evolve import evolve
from flotilla.rules.scoring import ranked_result
from flotilla.rules.snapshot import Upcaster

MAX_ADD = 1_000_000

SCHEMA_VERSION = 1
"""This game's snapshot schema version (`flotilla.rules.snapshot`): bump it, with an entry
in UPCASTERS, for a state change that needs more than a new field's default."""
UPCASTERS: dict[int, Upcaster] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Two seats; the game ends after `moves` moves."""

    seats: int = 2
    moves: int = 200

    def __post_init__(self) -> None:
        if self.seats != 2:
            msg = f"counter is for 2 seats, not {self.seats}"
            raise InvalidConfig(msg)
        if not 1 <= self.moves <= 100_000:
            msg = f"moves must be 1..100000, got {self.moves}"
            raise InvalidConfig(msg)


@dataclass(frozen=True, slots=True, kw_only=True)
class State:
    config: Config
    rng: Rng
    total: int = 0
    count: int = 0


@dataclass(frozen=True, slots=True)
class Add:
    """Add `n` to the total."""

    n: int


Action = Add


@dataclass(frozen=True, slots=True)
class Added:
    seat: Seat
    n: int
    total: int


Event = Added


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    viewer: Seat | None
    total: int
    count: int
    moves: int
    to_act: tuple[Seat, ...]


def new_game(config: Config, seed: int) -> State:
    return State(config=config, rng=Rng(seed))


def to_act(state: State) -> frozenset[Seat]:
    if state.count >= state.config.moves:
        return frozenset()
    return frozenset({Seat(state.count % 2)})


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    # Any n in [-MAX_ADD, MAX_ADD] is legal; these two stand for the rest.
    return (Add(1), Add(2)) if seat in to_act(state) else ()


def apply(state: State, seat: Seat, action: Action) -> Transition[State, Event]:
    if state.count >= state.config.moves:
        raise IllegalAction("the game is over")
    if seat not in to_act(state):
        raise NotYourTurn(f"seat {state.count % 2} is to act", seat=str(seat))
    if not isinstance(action, Add):
        raise InvalidAction(f"not a counter action: {type(action).__name__}")
    if not -MAX_ADD <= action.n <= MAX_ADD:
        raise InvalidAction(f"n must be within +-{MAX_ADD}", n=str(action.n))
    total = state.total + action.n
    after = evolve(state, total=total, count=state.count + 1)
    return Transition(after, (Added(seat, action.n, total),))


def view(state: State, viewer: Seat | None) -> View:
    return View(
        viewer=viewer,
        total=state.total,
        count=state.count,
        moves=state.config.moves,
        to_act=tuple(sorted(to_act(state))),
    )


def redact(event: Event, _viewer: Seat | None) -> Event | None:
    return event


def default_action(_state: State, _seat: Seat) -> Action:
    return Add(1)


def determinize(state: State, _seat: Seat, rng: Rng) -> State:
    return evolve(state, rng=rng)


def from_view(seen: View, _seat: Seat, rng: Rng) -> State:
    """The one state with this view (counter hides nothing but the generator, drawn from `rng`)."""
    return State(config=Config(moves=seen.moves), rng=rng, total=seen.total, count=seen.count)


def result(state: State) -> Result | None:
    if state.count < state.config.moves:
        return None
    scores = (state.total, state.total)
    return ranked_result(scores, [(0,), (0,)])


from .describe import DESCRIBER  # noqa: E402 - it names the classes above

RULES = GameRules(
    name="counter",
    version="1",
    config_type=Config,
    state_type=State,
    action_types=(Add,),
    event_types=(Added,),
    view_type=View,
    new_game=new_game,
    to_act=to_act,
    legal_actions=legal_actions,
    apply=apply,
    view=view,
    redact=redact,
    default_action=default_action,
    determinize=determinize,
    result=result,
    from_view=from_view,
    max_steps=100_000,
    describer=DESCRIBER,
)
