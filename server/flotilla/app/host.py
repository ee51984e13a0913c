"""Runs one game's rules for the server: creation, one step, and the stored forms of both.

This is where rules values become stored bytes. A stream entry holds the events of one
commit as `records.EventRow`s (stored `[event_id, time_ms, tag, payload]`), where tag is "r" (a rules event in codec
plain form), "s" (the game started: seed commitment) or "f" (the game finished: result and
the revealed seed), plus the prompts (legal actions by seat) of the seats that must act.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import orjson

from flotilla.games import REGISTRY, rules_at, served
from flotilla.records import EventRow, prompts_plain
from flotilla.rules import GameRules, Result, Rng, Seat
from flotilla.rules.codec import Codec
from flotilla.rules.options import config_from_options
from flotilla.rules.snapshot import SnapshotCodec

from .errors import RulesVersionUnavailable, UnknownGameKind
from .host_events import ABORTED, FINISHED, RULES_EVENT, STARTED, Aborted, Finished, HostPayload, Started
from .inputs import echo

AnyRules = GameRules[Any, Any, Any, Any, Any]


def seed_hex(seed: int) -> str:
    """The 32-hex-digit form of a 128-bit seed."""
    return f"{seed:032x}"


def seed_commitment(seed: int) -> str:
    """SHA-256 of the 16-byte big-endian seed, published before any card is dealt."""
    return hashlib.sha256(seed.to_bytes(16, "big")).hexdigest()


def result_plain(result: Result) -> dict[str, Any]:
    return {
        "scores": list(result.scores),
        "winners": sorted(int(s) for s in result.winners),
        "ranks": list(result.ranks),
        "detail": dict(result.detail),
    }


@dataclass(frozen=True, slots=True)
class Step:
    """The stored form of one applied action."""

    state: Any
    version: int
    events: list[EventRow]
    prompts: dict[str, Any]  # records.prompts_plain
    to_act: list[int]
    result: Result | None
    status: str = ""  # "finished" or "abandoned" when this step ends the game


class GameHost:
    """One game kind at one rules version, as the server runs it."""

    def __init__(self, rules: AnyRules) -> None:
        self.rules = rules
        self.codec = Codec(rules.state_type, *rules.action_types, *rules.event_types, rules.config_type)
        self.snapshots = SnapshotCodec(rules.state_type)
        self._state_tag = rules.state_type.__qualname__

    # --- bytes -------------------------------------------------------------------------
    def dumps(self, value: Any) -> bytes:
        """A state as a versioned snapshot (`flotilla.rules.snapshot`); anything else in codec plain form."""
        if type(value) is self.rules.state_type:
            try:
                return orjson.dumps(self.snapshots.to_plain(value))
            except orjson.JSONEncodeError:  # an int beyond 64 bits in a tuple
                return orjson.dumps(self.snapshots.to_plain(value, generic=True))
        return orjson.dumps(self.codec.to_plain(value))

    def loads(self, data: bytes | str) -> Any:
        """What `dumps` wrote, or a version-0 snapshot (the untagged codec form of a state).

        Raises ValueError or TypeError on malformed data.
        """
        plain = orjson.loads(data)
        if SnapshotCodec.is_snapshot(plain) or (type(plain) is dict and self._state_tag in plain):
            return self.snapshots.from_plain(plain)
        return self.codec.from_plain(plain)

    # --- creation and steps ------------------------------------------------------------
    def config(self, seats: int, options: Mapping[str, str]) -> Any:
        return config_from_options(self.rules.config_type, seats, options)

    def default_index(self, state: Any, seat: Seat, legal: Sequence[Any]) -> int | None:
        """Where the game's default action for `seat` (what its timeout plays) is in `legal`."""
        try:
            return legal.index(self.rules.default_action(state, seat))
        except ValueError:  # not legal: the rules break their contract (rules/testing.py checks it)
            return None

    def prompts(self, state: Any) -> tuple[dict[str, Any], list[int]]:
        """Field p of the entry (`records.prompts_plain`) and the seats that must act."""
        acting = sorted(self.rules.to_act(state))
        legal: dict[str, list[Any]] = {}
        defaults: dict[str, int] = {}
        for seat in acting:
            actions = self.rules.legal_actions(state, seat)
            legal[str(seat)] = [self.codec.to_plain(a) for a in actions]
            default = self.default_index(state, seat, actions)
            if default is not None:
                defaults[str(seat)] = default
        return prompts_plain(legal, defaults), [int(s) for s in acting]

    def start(self, config: Any, seed: int, options: Mapping[str, str], now_ms: int) -> Step:
        state = self.rules.new_game(config, seed)
        started = Started(
            rules_version=self.rules.version,
            seed_sha256=seed_commitment(seed),
            seat_count=self.rules.seats_of(config),
            options=dict(options),
        )
        prompts, to_act = self.prompts(state)
        return Step(state, 1, [EventRow(1, now_ms, STARTED, started)], prompts, to_act, None)

    def step(
        self,
        state: Any,
        seat: Seat,
        action: Any,
        version: int,
        now_ms: int,
        *,
        before: Sequence[tuple[str, HostPayload]] = (),
        adjust: Callable[[Result], Result] | None = None,
    ) -> Step:
        """Apply `action` (raises RulesError) and number its events after `version`.

        `before` are server events (a timeout, an absent seat) placed ahead of the rules'
        events; `adjust` amends the final result (forfeits).
        """
        after, events = self.rules.apply(state, seat, action)
        rows: list[EventRow] = []
        event_id = version
        for tag, payload in before:
            event_id += 1
            rows.append(EventRow(event_id, now_ms, tag, payload))
        for event in events:
            event_id += 1
            rows.append(EventRow(event_id, now_ms, RULES_EVENT, self.codec.to_plain(event)))
        result = self.rules.result(after)
        if result is not None and adjust is not None:
            result = adjust(result)
        if result is not None:
            event_id += 1
            seed = after.rng.seed if isinstance(getattr(after, "rng", None), Rng) else 0
            rows.append(
                EventRow(event_id, now_ms, FINISHED, Finished(result=result_plain(result), seed=seed_hex(seed)))
            )
        prompts, to_act = self.prompts(after)
        return Step(after, event_id, rows, prompts, to_act, result, "finished" if result is not None else "")

    def note(self, state: Any, version: int, now_ms: int, rows: Sequence[tuple[str, HostPayload]]) -> Step:
        """Server events that change no rules state (a seat became absent)."""
        numbered = [EventRow(version + i + 1, now_ms, tag, payload) for i, (tag, payload) in enumerate(rows)]
        prompts, to_act = self.prompts(state)
        return Step(state, version + len(numbered), numbered, prompts, to_act, None)

    def abort(
        self, state: Any, version: int, now_ms: int, before: Sequence[tuple[str, HostPayload]], reason: str
    ) -> Step:
        """Stop the game without a result: the server events, then GameAborted."""
        rows = [EventRow(version + i + 1, now_ms, tag, payload) for i, (tag, payload) in enumerate(before)]
        rows.append(EventRow(version + len(rows) + 1, now_ms, ABORTED, Aborted(reason=reason)))
        return Step(state, version + len(rows), rows, {}, [], None, "abandoned")


@cache  # only hosts are cached (a refusal raises): one per served kind and version, and per kind for None
def host_for(kind: str, rules_version: str | None = None) -> GameHost:
    """The host for a game kind at `rules_version` (None: the current version, for new games);
    UnknownGameKind for a kind, RulesVersionUnavailable for a version this process does not serve."""
    current = REGISTRY.get(kind)
    if current is None:
        raise UnknownGameKind(f"no game kind {echo(kind)}; known: {sorted(REGISTRY)}", kind=kind)
    rules = current if rules_version is None else rules_at(kind, rules_version)
    if rules is None:
        runs = ", ".join(r.version for r in served(kind))
        raise RulesVersionUnavailable(
            f"this process runs {kind} rules {runs}, the game needs {echo(str(rules_version))}",
            kind=kind,
            rules_version=str(rules_version),
        )
    return host_for(kind, rules.version) if rules_version is None else GameHost(rules)
