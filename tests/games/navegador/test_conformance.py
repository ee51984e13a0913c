"""The rules contract on 60 seeded random games per player count (2-5; more with
FLOTILLA_CONFORMANCE_SEEDS, see tests/conformance_seeds.py) for rules version 2 (stepwise, new
games), and the first 20 of them for rules version 1 (one-shot placements and fleets): version
1 is frozen, served only for games in flight, and version 2 runs its code for each last step.

Random games are long (about 1500 decisions with 2 players, 3000 with 5), so each player
count's seeds are split into chunks, one test case each, that pytest-xdist can spread.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance_seeds import conformance_seeds
from flotilla.games.navegador import RULES, RULES_V1
from flotilla.games.navegador.config import Config
from flotilla.rules import GameRules
from flotilla.rules.testing import check_rules

VERSIONS: dict[str, GameRules[Any, Any, Any, Any, Any]] = {"1": RULES_V1, "2": RULES}
SEEDS = {"1": conformance_seeds(20), "2": conformance_seeds(60)}  # per rules version
# seeds per test case, by player count, so that each case stays well under 40 s on the CI machine
CHUNK = {2: 60, 3: 30, 4: 30, 5: 20}
CASES = [(v, seats, start) for v in VERSIONS for seats in (2, 3, 4, 5) for start in range(0, SEEDS[v], CHUNK[seats])]


@pytest.mark.slow
@pytest.mark.parametrize(("version", "seats", "start"), CASES, ids=[f"v{v}-{s}p-{a}" for v, s, a in CASES])
def test_navegador_meets_the_rules_contract(version: str, seats: int, start: int) -> None:
    """Random legal play keeps every engine invariant (conservation, determinism, views, defaults)."""
    rules = VERSIONS[version]
    seeds = range(start, min(start + CHUNK[seats], SEEDS[version]))
    report = check_rules(rules, Config(seats=seats), seeds=seeds, sample_every=64, leak_worlds=1)
    assert report.games == len(seeds)
    assert report.longest_game < rules.max_steps
    assert all(len(r.scores) == seats for r in report.results)


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_random_colours_option(version: str) -> None:
    """The random-colours variant deals a permutation of the five colours."""
    report = check_rules(VERSIONS[version], Config(seats=4, random_colours=True), seeds=range(3), sample_every=32)
    assert report.games == 3
