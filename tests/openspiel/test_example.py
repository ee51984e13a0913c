"""examples/openspiel_ismcts.py: OpenSpiel's ISMCTS bot plays a seat of a real game over gRPC."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support import Stack

pytest.importorskip("pyspiel")
pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def test_an_ismcts_seat_plays_a_counter_game_to_the_end(stack: Stack) -> None:
    """Every decision of the OpenSpiel seat was one of its prompt's legal actions (the example
    raises otherwise) and the game finished: 12 moves, 6 of them the ISMCTS seat's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), stack.gateways[0], "counter", "8", "moves=12"],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    found = re.search(r"openspiel seat made (\d+) decisions; (\w+)", done.stdout)
    assert found, done.stdout[-2000:]
    assert found.groups() == ("6", "GAME_STATE_FINISHED")
