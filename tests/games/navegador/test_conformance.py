"""The rules contract on 100 seeded random games per player count (2-5; more with
FLOTILLA_CONFORMANCE_SEEDS, see tests/conformance_seeds.py).

Random games are long (about 1500 decisions with 2 players, 3000 with 5), so each player
count's seeds are split into chunks, one test case each, that pytest-xdist can spread.
"""

from __future__ import annotations

import pytest

from conformance_seeds import conformance_seeds
from flotilla.games.navegador import RULES
from flotilla.games.navegador.config import Config
from flotilla.rules.testing import check_rules

SEEDS = conformance_seeds(100)
# seeds per test case, by player count, so that each case stays well under 40 s on the CI machine
CHUNK = {2: 75, 3: 50, 4: 30, 5: 30}
CASES = [(seats, start) for seats in (2, 3, 4, 5) for start in range(0, SEEDS, CHUNK[seats])]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "start"), CASES, ids=[f"{s}p-{a}" for s, a in CASES])
def test_navegador_meets_the_rules_contract(seats: int, start: int) -> None:
    """Random legal play keeps every engine invariant (conservation, determinism, views, defaults)."""
    seeds = range(start, min(start + CHUNK[seats], SEEDS))
    report = check_rules(RULES, Config(seats=seats), seeds=seeds, sample_every=64, leak_worlds=1)
    assert report.games == len(seeds)
    assert report.longest_game < RULES.max_steps
    assert all(len(r.scores) == seats for r in report.results)


def test_random_colours_option() -> None:
    """The random-colours variant deals a permutation of the five colours."""
    report = check_rules(RULES, Config(seats=4, random_colours=True), seeds=range(3), sample_every=32)
    assert report.games == 3
