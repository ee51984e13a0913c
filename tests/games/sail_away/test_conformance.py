"""The engine contract (flotilla.rules.testing.check_rules) on 300 seeded games per seat count."""

from __future__ import annotations

import pytest

from flotilla.games.sail_away import RULES, Config
from flotilla.rules.testing import check_rules

GAMES = 300
BLOCK = {2: 75, 3: 60, 4: 50}  # seeds per parametrized case (~10-15 s CPU each), so xdist can spread them
CASES = [(seats, first) for seats, block in BLOCK.items() for first in range(0, GAMES, block)]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "first"), CASES)
def test_sail_away_meets_the_rules_contract(seats: int, first: int) -> None:
    """Random legal play keeps every engine invariant, hides every secret and ends."""
    block = BLOCK[seats]
    report = check_rules(RULES, Config(seats=seats), seeds=range(first, first + block), sample_every=32)
    assert report.games == block
    assert report.leak_checks > 0
    assert all(len(r.scores) == seats for r in report.results)
