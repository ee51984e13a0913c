"""The conformance harness every game's tests call (shipped, like structlog.testing).

`check_rules(rules, config, seeds)` plays one random game per seed and checks, along the way:

1. every action in `legal_actions(s, seat)` applies (all of them at sampled steps);
2. actions seen elsewhere but not legal now raise `RulesError` and change nothing;
3. a seat not in `to_act` is refused with `NotYourTurn`;
4. `apply` is deterministic and does not mutate its input;
5. `codec.from_plain(codec.to_plain(s)) == s` (at powers of two, as OpenSpiel does);
6. no leak: `view(determinize(s, a, r), a) == view(s, a)`, legal actions agree, and the
   events delivered to `a` are a function of what `a` sees (two worlds that look the same to
   `a` after the same action must have delivered `a` the same redacted events); no view
   contains the RNG seed;
7. `to_act` is empty exactly when `result` is not None, and then nothing is legal;
8. `default_action` is legal for every seat that must act;
9. the game ends within `rules.max_steps`;
10. `rules.check_invariants(s)` holds after every step;
11. replaying the recorded actions from the seed gives the same final state.

Only the stdlib is used: the harness drives the game with `random.Random(seed)`, which is
fine for a test driver (the rules themselves never touch `random`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from flotilla.rules.codec import Codec
from flotilla.rules.describe import Text
from flotilla.rules.errors import NotYourTurn, RulesError
from flotilla.rules.replay import replay
from flotilla.rules.rng import Rng
from flotilla.rules.types import GameRules, Result, Seat, Transition

_POOL_LIMIT = 256
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


def game_seed(label: int) -> int:
    """The 128-bit seed a harness game with this small label is created with.

    Real seeds are 128 random bits; small test labels would make the "no view contains
    the seed" check meaningless (every view holds small numbers).
    """
    return int.from_bytes(hashlib.blake2b(label.to_bytes(8, "big", signed=True), digest_size=16).digest(), "big")


@dataclass(slots=True)
class CheckReport:
    """What a `check_rules` run covered."""

    games: int = 0
    steps: int = 0
    actions_applied: int = 0
    illegal_checked: int = 0
    leak_checks: int = 0
    longest_game: int = 0
    results: list[Result] = dataclasses.field(default_factory=list)


def random_walk(rules: GameRules[Any, Any, Any, Any, Any], state: Any, driver: random.Random) -> Iterator[Any]:
    """Each state of a random playout from `state` (`driver` picks the seat and a legal action), to the end."""
    while acting := rules.to_act(state):
        seat = driver.choice(sorted(acting))
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
        yield state


def text_words(text: Text) -> set[str]:
    """The words of a text's label and arguments (ids such as `SH05` or `HULL-27` are words),
    for checking that a label names nothing its viewer may not see."""
    return set(_WORD.findall(" ".join([text.label, *(v for _, v in text.args)])))


@cache
def codec_for(rules: GameRules[Any, Any, Any, Any, Any]) -> Codec:
    """The codec covering a game's state, actions, events and views."""
    return Codec(rules.state_type, *rules.action_types, *rules.event_types, rules.view_type, rules.config_type)


def _contains_int(plain: Any, needle: int) -> bool:
    """Whether the plain form holds `needle` as a number or a key (a substring search of its repr:
    the needle is a 128-bit seed, whose 39 digits appear inside no other number the games use)."""
    return str(needle) in repr(plain)


def _seed_of(state: Any) -> int | None:
    rng = getattr(state, "rng", None)
    return rng.seed if isinstance(rng, Rng) else None


def _redacted(rules: GameRules[Any, Any, Any, Any, Any], events: Iterable[Any], viewer: Seat | None) -> list[Any]:
    out = []
    for event in events:
        shown = rules.redact(event, viewer)
        if shown is not None:
            out.append(shown)
    return out


class _Game:
    """One seeded random game under inspection."""

    def __init__(
        self,
        rules: GameRules[Any, Any, Any, Any, Any],
        config: Any,
        seed: int,
        report: CheckReport,
        sample_every: int,
        leak_worlds: int,
    ) -> None:
        self.rules = rules
        self.config = config
        self.seed = seed
        self.report = report
        self.sample_every = sample_every
        self.leak_worlds = leak_worlds
        self.codec = codec_for(rules)
        self.driver = random.Random(seed)
        self.seats = [Seat(i) for i in range(rules.seats_of(config))]
        self.pool: list[Any] = []
        self.pool_keys: set[Any] = set()

    def fail(self, step: int, what: str) -> AssertionError:
        return AssertionError(f"{self.rules.name} seed={self.seed} step={step}: {what}")

    def remember(self, actions: Iterable[Any]) -> None:
        if len(self.pool) >= _POOL_LIMIT:
            return
        for action in actions:
            if len(self.pool) >= _POOL_LIMIT:
                return
            if action not in self.pool_keys:
                self.pool_keys.add(action)
                self.pool.append(action)

    def play(self) -> None:
        rules = self.rules
        state = rules.new_game(self.config, game_seed(self.seed))
        rules.check_invariants(state)
        log: list[tuple[Seat, Any]] = []
        step = 0
        while True:
            acting = rules.to_act(state)
            result = rules.result(state)
            if bool(acting) == (result is not None):
                raise self.fail(step, f"to_act={sorted(acting)} but result={result}")
            sampled = step < 4 or step % self.sample_every == 0
            legal = {seat: rules.legal_actions(state, seat) for seat in self.seats}
            if result is not None:
                self.check_finished(step, state, result, legal)
                break
            if step >= rules.max_steps:
                raise self.fail(step, f"no end after {rules.max_steps} steps")
            self.check_turns(step, state, acting, legal)
            seat = self.driver.choice(sorted(acting))
            action = self.driver.choice(legal[seat])
            self.remember(legal[seat])
            # at a sampled step every legal action is applied anyway: the chosen one's transition is reused
            transition = self.check_sampled(step, state, seat, legal[seat], action) if sampled else None
            if step & (step - 1) == 0:
                self.check_codec(step, state)
            next_state, events = transition or rules.apply(state, seat, action)
            self.report.actions_applied += 1
            if not events:
                raise self.fail(step, f"{action!r} produced no event")
            if sampled:
                self.check_no_leak(step, state, (seat, action), (next_state, events), acting, legal)
            rules.check_invariants(next_state)
            log.append((seat, action))
            state = next_state
            step += 1
        self.report.steps += step
        self.report.longest_game = max(self.report.longest_game, step)
        self.report.results.append(result)
        if self.seed % 8 == 0:
            self.check_replay(log, state)

    def check_finished(self, step: int, state: Any, result: Result, legal: dict[Seat, tuple[Any, ...]]) -> None:
        if any(legal.values()):
            raise self.fail(step, "legal actions remain after the game ended")
        if len(result.scores) != len(self.seats):
            raise self.fail(step, f"result has {len(result.scores)} scores for {len(self.seats)} seats")
        if not result.winners <= set(self.seats):
            raise self.fail(step, f"winners {result.winners} are not seats")
        self.check_codec(step, state)

    def check_turns(self, step: int, state: Any, acting: frozenset[Seat], legal: dict[Seat, tuple[Any, ...]]) -> None:
        rules = self.rules
        for seat in self.seats:
            if seat in acting:
                if not legal[seat]:
                    raise self.fail(step, f"seat {seat} must act but has no legal action")
                default = rules.default_action(state, seat)
                if default not in legal[seat]:
                    raise self.fail(step, f"default_action {default!r} of seat {seat} is not legal")
            elif legal[seat]:
                raise self.fail(step, f"seat {seat} is not to act but has legal actions")
        idle = [seat for seat in self.seats if seat not in acting]
        if idle:
            other = self.driver.choice(idle)
            some_action = legal[self.driver.choice(sorted(acting))][0]
            try:
                rules.apply(state, other, some_action)
            except NotYourTurn:
                pass
            else:
                raise self.fail(step, f"seat {other} acted out of turn with {some_action!r}")

    def check_sampled(
        self, step: int, state: Any, seat: Seat, legal: tuple[Any, ...], chosen: Any
    ) -> Transition[Any, Any]:
        """Apply every legal action (the first twice) and a few illegal ones; the chosen action's transition."""
        rules = self.rules
        before = self.codec.to_plain(state)
        transition: Transition[Any, Any] | None = None
        for action in legal:
            first = rules.apply(state, seat, action)
            self.report.actions_applied += 1
            if action is legal[0]:
                second = rules.apply(state, seat, action)
                if second != first:
                    raise self.fail(step, f"apply is not deterministic for {action!r}")
            if transition is None and action is chosen:
                transition = first
        legal_set = set(legal)
        candidates = [a for a in self.pool if a not in legal_set]
        for action in self.driver.sample(candidates, min(3, len(candidates))):
            try:
                rules.apply(state, seat, action)
            except RulesError:
                self.report.illegal_checked += 1
            else:
                raise self.fail(step, f"{action!r} is not in legal_actions but applied")
        if self.codec.to_plain(state) != before:
            raise self.fail(step, "apply mutated its input state")
        assert transition is not None, "the chosen action is one of the legal ones"
        return transition

    def check_codec(self, step: int, state: Any) -> None:
        if self.codec.from_plain(self.codec.to_plain(state)) != state:
            raise self.fail(step, "codec round trip changed the state")

    def check_no_leak(
        self,
        step: int,
        state: Any,
        move: tuple[Seat, Any],
        transition: tuple[Any, tuple[Any, ...]],
        to_act: frozenset[Seat],
        legal: dict[Seat, tuple[Any, ...]],
    ) -> None:
        """Check 6 at a sampled step; `to_act` and `legal` are those of `state` (computed once by `play`)."""
        rules = self.rules
        actor, action = move
        after, events = transition
        seed = _seed_of(state)
        views_after = {viewer: rules.view(after, viewer) for viewer in [None, *self.seats]}
        if seed is not None:
            for viewer, shown in views_after.items():
                if _contains_int(self.codec.to_plain(shown), seed):
                    raise self.fail(step, f"the view of {viewer} contains the RNG seed")
        spectator_before = rules.view(state, None)
        for viewer in self.seats:
            view_before = rules.view(state, viewer)
            legal_before = legal[viewer]
            view_after = views_after[viewer]
            mine = _redacted(rules, events, viewer)
            for world in range(self.leak_worlds):
                other = rules.determinize(state, viewer, Rng(self.seed * 7919 + step * 31 + world).fork(viewer))
                self.report.leak_checks += 1
                if rules.view(other, viewer) != view_before:
                    raise self.fail(step, f"determinize changed what seat {viewer} sees")
                if rules.view(other, None) != spectator_before:
                    raise self.fail(step, f"determinize for seat {viewer} changed what spectators see")
                legal_other = rules.legal_actions(other, viewer)
                if legal_other != legal_before:
                    raise self.fail(step, f"determinize changed the legal actions of seat {viewer}")
                if rules.to_act(other) != to_act:
                    continue
                if action not in (legal_other if viewer == actor else rules.legal_actions(other, actor)):
                    continue
                other_after, other_events = rules.apply(other, actor, action)
                if rules.view(other_after, viewer) == view_after and _redacted(rules, other_events, viewer) != mine:
                    raise self.fail(
                        step,
                        f"events delivered to seat {viewer} after {action!r} depend on hidden information",
                    )

    def check_replay(self, log: list[tuple[Seat, Any]], final: Any) -> None:
        if replay(self.rules, self.config, game_seed(self.seed), log) != final:
            raise self.fail(len(log), "replaying the action log from the seed gave another state")


def check_rules(
    rules: GameRules[Any, Any, Any, Any, Any],
    config: Any,
    seeds: Iterable[int],
    *,
    sample_every: int = 16,
    leak_worlds: int = 2,
) -> CheckReport:
    """Play one random game per seed and check the engine contract (module docstring).

    `sample_every` sets how often the expensive checks run (every legal action applied,
    illegal samples, leak checks); the cheap ones run on every step.
    """
    report = CheckReport()
    for seed in seeds:
        _Game(rules, config, seed, report, sample_every, leak_worlds).play()
        report.games += 1
    return report
