"""The shared conformance harness on 300 seeded games per mode and player count.

Each (mode, seats) runs as three parametrized chunks of 100 seeds so that every case stays
well under 40 s on the shared CI machine (sample_every=64: the expensive checks run on every
64th step plus the first four; the cheap ones on every step).
"""

from __future__ import annotations

import pytest

from flotilla.games.port_royal import RULES, Config, Mode
from flotilla.rules.testing import check_rules

SEEDS = 300
CHUNK = 100
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
    report = check_rules(RULES, Config(seats=seats, mode=mode), seeds=range(start, start + CHUNK), sample_every=64)
    assert report.games == CHUNK
    assert report.leak_checks > 0
    assert len(report.results) == CHUNK
