"""The rules contract (flotilla.rules.testing.check_rules) on 300 seeded games per player count."""

from __future__ import annotations

import pytest

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.rules.testing import check_rules

SAMPLE_EVERY = {2: 16, 3: 32, 4: 48, 5: 80}


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_pirates_of_nassau_meets_the_rules_contract(seats: int) -> None:
    """Random legal play from 300 seeds keeps every engine invariant (conservation included)."""
    report = check_rules(RULES, Config(seats=seats), seeds=range(300), sample_every=SAMPLE_EVERY[seats])
    assert report.games == 300
    assert report.leak_checks > 0
    assert report.longest_game < RULES.max_steps
    assert all(len(r.scores) == seats for r in report.results)
