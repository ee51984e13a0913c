"""The rules contract (flotilla.rules.testing.check_rules) on 100 seeded games per player count
(more with FLOTILLA_CONFORMANCE_SEEDS), in chunks of 50 that pytest-xdist can spread."""

from __future__ import annotations

import pytest

from conformance_seeds import conformance_seeds
from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.rules.testing import check_rules

SAMPLE_EVERY = {2: 16, 3: 32, 4: 48, 5: 80}
SEEDS = conformance_seeds(100)
CHUNK = 50
CASES = [(seats, start) for seats in (2, 3, 4, 5) for start in range(0, SEEDS, CHUNK)]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "start"), CASES, ids=[f"{s}p-{a}" for s, a in CASES])
def test_pirates_of_nassau_meets_the_rules_contract(seats: int, start: int) -> None:
    """Random legal play from each seed keeps every engine invariant (conservation included)."""
    seeds = range(start, min(start + CHUNK, SEEDS))
    report = check_rules(RULES, Config(seats=seats), seeds=seeds, sample_every=SAMPLE_EVERY[seats])
    assert report.games == len(seeds)
    assert report.leak_checks > 0
    assert report.longest_game < RULES.max_steps
    assert all(len(r.scores) == seats for r in report.results)
