"""The policy interface: a policy sees one `Decision` (its seat's view, the legal actions and a
sampler of worlds it cannot tell apart from the real one) and picks one of the legal actions.

A policy never gets the true state. `Decision.sample` returns a full state drawn from the seat's
information set: in process it is the engine's `determinize(state, seat, rng)`; over RPC it is
built from the seat's view (the rules' `from_view`, where a game has one). A policy that reads only
`view`, `legal` and what `sample` returns cannot see hidden cards, and the tests check it: the same
policy with the same random generator picks the same action from a state and from any
determinization of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from flotilla.rules import GameRules, Rng, Seat

Rules = GameRules[Any, Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat may know when it must act."""

    rules: Rules
    seat: Seat
    view: Any
    """The engine view of `seat` (`rules.view(state, seat)`)."""
    legal: tuple[Any, ...]
    """The legal actions, in the engine's order (never empty)."""
    sample: Callable[[Rng], Any]
    """A full state consistent with `view`, with everything the seat cannot see re-drawn."""


class Policy(Protocol):
    """Picks one action of `decision.legal`; all its randomness comes from `rng`."""

    name: str

    def choose(self, decision: Decision, rng: random.Random) -> Any: ...


PolicyFactory = Callable[[Rules, int], Policy]
"""(rules, difficulty) -> policy; difficulty 0 is the weakest, each policy documents its range."""

POLICIES: dict[str, PolicyFactory] = {}


def register(name: str) -> Callable[[PolicyFactory], PolicyFactory]:
    """Decorator: make a policy factory available by `name` (rooms, matchmaking, CLI, arena)."""

    def add(factory: PolicyFactory) -> PolicyFactory:
        POLICIES[name] = factory
        return factory

    return add


def require(name: str, *also: str) -> None:
    """ValueError naming the known policies (and `also`, other accepted words) unless `name` is one."""
    if name not in POLICIES and name not in also:
        msg = f"no bot policy {name[:40]!r}; known: {', '.join([*sorted(POLICIES), *also])}"
        raise ValueError(msg)


def make(name: str, rules: Rules, difficulty: int = 1) -> Policy:
    """The policy called `name` for `rules`; ValueError naming the known ones when there is none."""
    require(name)
    return POLICIES[name](rules, difficulty)


def decision_from_state(rules: Rules, state: Any, seat: Seat) -> Decision:
    """The decision of `seat` in a state the caller holds (in process: arena, seat takeover)."""
    return Decision(
        rules=rules,
        seat=seat,
        view=rules.view(state, seat),
        legal=tuple(rules.legal_actions(state, seat)),
        sample=lambda rng: rules.determinize(state, seat, rng),
    )


@register("random")
class RandomPolicy:
    """Uniformly random legal actions (difficulty is ignored)."""

    name = "random"

    def __init__(self, rules: Rules, difficulty: int = 0) -> None:
        del rules, difficulty

    def choose(self, decision: Decision, rng: random.Random) -> Any:
        return decision.legal[rng.randrange(len(decision.legal))]
