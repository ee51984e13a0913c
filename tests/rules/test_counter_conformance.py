"""The conformance harness on the benchmark `counter` game (also a smoke test of the harness)."""

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from flotilla.games import REGISTRY
from flotilla.rules import GameRules, Seat
from flotilla.rules.testing import check_rules


def test_counter_meets_the_rules_contract() -> None:
    rules = REGISTRY["counter"]
    report = check_rules(rules, rules.config_type(), seeds=range(20))
    assert report.games == 20
    assert report.steps == 20 * 200
    assert report.leak_checks > 0
    assert all(r.scores[0] == r.scores[1] for r in report.results)


def _with_view(total_of: Callable[[Any], int]) -> GameRules[Any, Any, Any, Any, Any]:
    """The counter game with a view whose `total` is `total_of(state)`: a leak the harness must catch."""
    rules = REGISTRY["counter"]

    def view(state: Any, viewer: Seat | None) -> Any:
        return dataclasses.replace(rules.view(state, viewer), total=total_of(state))

    return dataclasses.replace(rules, view=view)


def test_the_harness_catches_a_view_that_shows_the_seed() -> None:
    leaky = _with_view(lambda state: state.rng.seed)
    with pytest.raises(AssertionError, match="contains the RNG seed"):
        check_rules(leaky, leaky.config_type(), seeds=range(1))


def test_the_harness_catches_a_view_that_shows_hidden_state() -> None:
    leaky = _with_view(lambda state: state.rng.seed % 1000)  # what determinize resamples
    with pytest.raises(AssertionError, match="determinize changed what seat"):
        check_rules(leaky, leaky.config_type(), seeds=range(1))
