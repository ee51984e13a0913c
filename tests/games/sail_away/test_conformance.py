"""The engine contract (flotilla.rules.testing.check_rules) on 90 seeded games per seat count
(more with FLOTILLA_CONFORMANCE_SEEDS; see tests/conformance_seeds.py)."""

from __future__ import annotations

import pytest

from conformance_seeds import conformance_seeds
from flotilla.games.sail_away import RULES, Config
from flotilla.rules.testing import check_rules

GAMES = conformance_seeds(90)
BLOCK = {2: 45, 3: 30, 4: 30}  # seeds per parametrized case (~10-25 s CPU each), so xdist can spread them
CASES = [(seats, first) for seats, block in BLOCK.items() for first in range(0, GAMES, block)]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "first"), CASES)
def test_sail_away_meets_the_rules_contract(seats: int, first: int) -> None:
    """Random legal play keeps every engine invariant, hides every secret and ends."""
    seeds = range(first, min(first + BLOCK[seats], GAMES))
    report = check_rules(RULES, Config(seats=seats), seeds=seeds, sample_every=32)
    assert report.games == len(seeds)
    assert report.leak_checks > 0
    assert all(len(r.scores) == seats for r in report.results)
