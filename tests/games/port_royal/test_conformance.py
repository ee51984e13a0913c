"""The shared conformance harness on 60 seeded games per mode and player count (1,020 games in
all; more with FLOTILLA_CONFORMANCE_SEEDS, see tests/conformance_seeds.py).

Each (mode, seats) runs as two parametrized chunks of 30 seeds so that every case stays
well under 40 s on the shared CI machine (sample_every=64: the expensive checks run on every
64th step plus the first four; the cheap ones on every step).
"""

from __future__ import annotations

import pytest

from conformance_seeds import conformance_seeds
from flotilla.games.port_royal import RULES, Config, Mode
from flotilla.rules.testing import check_rules

SEEDS = conformance_seeds(60)
CHUNK = 30
_CASES = [
    (mode, seats, start)
    for mode in Mode
    for seats in ((1, 2, 3, 4, 5) if mode is Mode.CONTRACT_COOP else (2, 3, 4, 5))
    for start in range(0, SEEDS, CHUNK)
]


def _param(mode: Mode, seats: int, start: int) -> object:
    marks = [pytest.mark.slow] if seats >= 3 else []
    return pytest.param(mode, seats, start, marks=marks, id=f"{mode.value}-{seats}p-seeds{start}")


@pytest.mark.parametrize(("mode", "seats", "start"), [_param(*c) for c in _CASES])
def test_port_royal_meets_the_rules_contract(mode: Mode, seats: int, start: int) -> None:
    seeds = range(start, min(start + CHUNK, SEEDS))
    report = check_rules(RULES, Config(seats=seats, mode=mode), seeds=seeds, sample_every=64)
    assert report.games == len(seeds)
    assert report.leak_checks > 0
    assert len(report.results) == CHUNK
