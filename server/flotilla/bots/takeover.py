"""Seat takeover: the policy that plays an absent seat in the worker (instead of the game's
`default_action`).

Pure and deterministic: the policy decides from `decision_from_state` (the seat's information set,
through `determinize`) with a generator seeded from the game's seed, its version and the seat, so
the same clock work planned twice (a retried commit, another worker) plays the same action; the
action goes to the action log like any other, so the game replays exactly. A policy that raises
plays the default action instead (logged).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import structlog

from flotilla.bots.policy import POLICIES, Policy, Rules, decision_from_state, make, require
from flotilla.rules import Seat

log = structlog.get_logger("flotilla.bots")


AUTO = "auto"  # `heuristic` where it is registered, else `random`
DEFAULT = "default"  # the game's default action (what a single timeout plays)


def resolve(name: str) -> str:
    """The policy a takeover setting names ("" for the default action); ValueError when unknown."""
    if name == DEFAULT:
        return ""
    if name == AUTO:
        return "heuristic" if "heuristic" in POLICIES else "random"
    require(name, AUTO, DEFAULT)
    return name


@dataclass(slots=True)
class Takeover:
    """Plays absent seats with the policy `name` at `difficulty` ("": the game's default action)."""

    name: str = "random"
    difficulty: int = 0
    _policies: dict[tuple[str, str], Policy] = field(default_factory=dict)

    @classmethod
    def of(cls, setting: str, difficulty: int) -> Takeover:
        """From FLOTILLA_TAKEOVER_POLICY (a policy name, `auto` or `default`) and its difficulty."""
        return cls(resolve(setting), difficulty)

    def policy(self, rules: Rules) -> Policy:
        key = (rules.name, rules.version)
        if key not in self._policies:
            self._policies[key] = make(self.name, rules, self.difficulty)
        return self._policies[key]

    def action(self, rules: Rules, state: Any, seat: Seat, version: int) -> Any:
        """What the absent `seat` plays in `state` (the game at `version`)."""
        if not self.name:
            return rules.default_action(state, seat)
        seed = getattr(getattr(state, "rng", None), "seed", 0)
        rng = random.Random(f"takeover:{seed}:{version}:{int(seat)}")
        try:
            return self.policy(rules).choose(decision_from_state(rules, state, seat), rng)
        except Exception:
            log.exception("takeover.failed", game=rules.name, policy=self.name, seat=int(seat))
            return rules.default_action(state, seat)
