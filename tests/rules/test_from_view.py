"""`GameRules.from_view`: full states rebuilt from one seat's view, for every game, over random playouts.

For sampled states `s` of seeded random games and each seat `a`, with `t = from_view(view(s, a), a, r)`:
`t` looks the same to `a` (view, legal actions, who acts), passes the invariants, every legal action of
`a` applies to it, the same `r` gives the same `t`, and two generators give different hidden parts as
often as `determinize` does. Through the wire as well: the view decoded from its proto gives the same
view back and the same worlds.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from flotilla.api.port_royal.v1 import port_royal_pb2
from flotilla.convert import GameConverter
from flotilla.games import REGISTRY
from flotilla.games.navegador import RULES_V1 as NAVEGADOR_V1
from flotilla.games.navegador.config import Config as NavegadorConfig
from flotilla.games.pirates_of_nassau import Config as NassauConfig
from flotilla.games.port_royal import Config as PortRoyalConfig
from flotilla.games.port_royal import Mode
from flotilla.games.sail_away import Config as SailAwayConfig
from flotilla.rules import GameRules, InvalidAction, Rng, Seat
from flotilla.rules.testing import game_seed

Rules = GameRules[Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class Case:
    """Games of one configuration: `games` seeds, a state checked every `every` steps, `per_game` at most."""

    rules: Rules
    config: Any
    games: int = 3
    every: int = 7
    per_game: int = 40

    def __str__(self) -> str:
        return f"{self.rules.name}-v{self.rules.version}-{self.config}"


CASES = [
    Case(REGISTRY["counter"], REGISTRY["counter"].config_type(moves=30), games=2, every=3, per_game=10),
    *(
        Case(REGISTRY["port_royal"], PortRoyalConfig(seats=n, mode=m), per_game=25)
        for m, n in [
            (Mode.BASE, 2),
            (Mode.BASE_PLUS, 3),
            (Mode.CONTRACT_COMP, 4),
            (Mode.CONTRACT_COOP, 1),
            (Mode.CONTRACT_COOP, 3),
        ]
    ),
    *(Case(REGISTRY["sail_away"], SailAwayConfig(seats=n), per_game=25) for n in (2, 4)),
    *(Case(REGISTRY["pirates_of_nassau"], NassauConfig(seats=n), every=11, games=4, per_game=20) for n in (2, 4)),
    *(Case(REGISTRY["navegador"], NavegadorConfig(seats=n), every=23, games=2) for n in (2, 4)),
    Case(NAVEGADOR_V1, NavegadorConfig(seats=3), every=23, games=2),
]


WITH_FROM_VIEW = {"counter", "navegador", "pirates_of_nassau", "port_royal", "sail_away"}


def test_these_games_rebuild_states_from_views() -> None:
    assert {name for name, rules in REGISTRY.items() if rules.from_view is not None} == WITH_FROM_VIEW


def _kind(state: Any) -> str:
    """The kind of decision a state waits for (its phase, and a task's type where there are tasks)."""
    phase = getattr(state, "phase", None)
    tasks = getattr(state, "tasks", ())
    return (
        f"{phase if isinstance(phase, enum.Enum) else type(phase).__name__}/{type(tasks[0]).__name__ if tasks else ''}"
    )


def _states(case: Case, seed: int) -> list[Any]:
    """Every `case.every`-th state of one seeded random game (at most `case.per_game`, the first and
    the last among them), and the first two of every kind of decision met (rare phases)."""
    rules = case.rules
    state = rules.new_game(case.config, game_seed(seed))
    driver = random.Random(seed)
    regular, rare = [state], []
    kinds = Counter([_kind(state)])
    step = 0
    while acting := rules.to_act(state):
        seat = driver.choice(sorted(acting))
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
        step += 1
        kind = _kind(state)
        if kinds[kind] < 2:
            kinds[kind] += 1
            rare.append(state)
        elif step % case.every == 0:
            regular.append(state)
    regular.append(state)
    if len(regular) > case.per_game:
        last = len(regular) - 1
        regular = [regular[round(i * last / (case.per_game - 1))] for i in range(case.per_game)]
    return regular + rare


def _hidden(state: Any) -> Any:
    """The state without its generator (which from_view always redraws)."""
    return dataclasses.replace(state, rng=Rng(0))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_from_view_rebuilds_worlds_the_seat_cannot_tell_apart(case: Case) -> None:
    rules = case.rules
    from_view = rules.from_view
    if from_view is None:
        pytest.skip(f"{rules.name} v{rules.version} has no from_view yet")
    conv = GameConverter(rules)
    seats = [Seat(i) for i in range(rules.seats_of(case.config))]
    checked = hidden_draws = differ = 0
    for seed in range(case.games):
        for k, s in enumerate(_states(case, seed)):
            acting = rules.to_act(s)
            for a in seats:
                seen = rules.view(s, a)
                r1, r2 = Rng(seed * 1_000 + k).fork(a), Rng(seed * 1_000 + k).fork(a + 100)
                t = from_view(seen, a, r1)
                where = f"seed {seed} state {k} seat {a}"
                assert rules.view(t, a) == seen, where
                assert rules.to_act(t) == acting, where
                legal = rules.legal_actions(s, a)
                assert rules.legal_actions(t, a) == legal, where
                rules.check_invariants(t)
                for action in legal:
                    rules.apply(t, a, action)
                assert from_view(seen, a, r1) == t, f"{where}: not a function of (view, seat, rng)"
                if _hidden(rules.determinize(s, a, r1)) != _hidden(rules.determinize(s, a, r2)):
                    hidden_draws += 1
                    differ += _hidden(from_view(seen, a, r2)) != _hidden(t)
                if k % 3 == 0:  # the wire (a third of the states: decoding is the slow part)
                    wire = conv.view_from_pb(conv.view_to_pb(seen))
                    assert wire == seen, f"{where}: the view changed through its proto"
                    assert rules.view(from_view(wire, a, r1), a) == seen, where
                checked += 1
            if k % 3 == 0:
                spectator = rules.view(s, None)
                assert conv.view_from_pb(conv.view_to_pb(spectator)) == spectator
    assert checked > 0
    assert differ >= 0.9 * hidden_draws, f"from_view redrew hidden parts in {differ} of {hidden_draws} states"


def test_a_malformed_view_message_is_refused_with_the_field_named() -> None:
    rules = REGISTRY["port_royal"]
    conv = GameConverter(rules)
    msg = conv.view_to_pb(rules.view(rules.new_game(PortRoyalConfig(seats=2), game_seed(1)), Seat(0)))
    assert isinstance(msg, port_royal_pb2.View)
    msg.phase.kind = 99  # type: ignore[assignment]  # no such PhaseKind
    with pytest.raises(InvalidAction, match=r"view\.phase\.kind"):
        conv.view_from_pb(msg)
