"""The engine interface every game implements (see ARCHITECTURE.md, "Rules engines")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, NewType, TypeVar

from flotilla.rules.describe import Describer
from flotilla.rules.rng import Rng

Seat = NewType("Seat", int)
"""A seat index 0..n-1 inside the rules; user ids exist only at the edge."""

C = TypeVar("C")
S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E")
V = TypeVar("V")


class Transition(NamedTuple, Generic[S, E]):
    """The state after an action and what happened, in order, unredacted."""

    state: S
    events: tuple[E, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """Final outcome: scores by seat, the winning seats and ranks (1 = best, shared on ties)."""

    scores: tuple[int, ...]
    winners: frozenset[Seat]
    ranks: tuple[int, ...] = ()
    detail: Mapping[str, str] = field(default_factory=dict)


def _no_invariants(_state: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class GameRules(Generic[C, S, A, E, V]):
    """Everything the server needs from one game. Every callable is a pure function.

    `action_types`, `event_types` and `view_type` name the dataclasses the wire contract
    mirrors (one proto message per dataclass, see docs/wire.md). `version` is the rules
    version a game is started with; a worker never applies a different one to it.
    """

    name: str
    version: str
    config_type: type[C]
    state_type: type[S]
    action_types: tuple[type, ...]
    event_types: tuple[type, ...]
    view_type: type[V]
    new_game: Callable[[C, int], S]
    to_act: Callable[[S], frozenset[Seat]]
    legal_actions: Callable[[S, Seat], tuple[A, ...]]
    apply: Callable[[S, Seat, A], Transition[S, E]]
    view: Callable[[S, Seat | None], V]
    redact: Callable[[E, Seat | None], E | None]
    default_action: Callable[[S, Seat], A]
    determinize: Callable[[S, Seat, Rng], S]
    result: Callable[[S], Result | None]
    check_invariants: Callable[[S], None] = _no_invariants
    seats_of: Callable[[C], int] = lambda config: int(config.seats)  # type: ignore[attr-defined]
    max_steps: int = 100_000
    describer: Describer | None = None
    """Texts for humans of the game's actions and events (its `describe.py`); None: generic texts."""
    from_view: Callable[[V, Seat, Rng], S] | None = None
    """A full state consistent with `seat`'s view: what the seat sees taken from the view, what it
    cannot see (deck order, face-down cards, other seats' secrets, the RNG) drawn from `rng` among
    what the rules allow. What a bot playing over RPC samples its worlds from; None: not built."""
