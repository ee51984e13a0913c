"""The seeded mid-game states behind tests/data/snapshots/ (the golden snapshot files).

Each golden is `host.dumps(state)` of the state reached by playing `steps` random legal
actions (driver `random.Random(seed)`) from `new_game(config, game_seed(seed))`. The files
were written by the codec of the day before snapshots carried a schema version (version 0):
run this module to write them again only if that is what you mean.

    python tests/rules/codec_goldens.py
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flotilla.app.host import host_for
from flotilla.rules.testing import game_seed

DIR = Path(__file__).resolve().parent.parent / "data" / "snapshots"


@dataclass(frozen=True)
class Golden:
    """One golden snapshot: which game, how it was reached, and its file."""

    kind: str
    seats: int
    options: dict[str, str]
    seed: int
    steps: int

    @property
    def path(self) -> Path:
        mode = "-".join(self.options.values()) or "base"
        return DIR / f"{self.kind}-{self.seats}p-{mode}-v0.json"


def play(kind: str, seats: int, options: dict[str, str], seed: int, steps: int | None) -> tuple[Any, int]:
    """The state after `steps` random legal actions (or at the end), and how many were played."""
    host = host_for(kind)
    rules = host.rules
    driver = random.Random(seed)
    state = rules.new_game(host.config(seats, options), game_seed(seed))
    played = 0
    while steps is None or played < steps:
        acting = rules.to_act(state)
        if not acting:
            break
        seat = driver.choice(sorted(acting))
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
        played += 1
    return state, played


MODES: list[tuple[str, int, dict[str, str]]] = [
    ("counter", 2, {}),
    ("sail_away", 2, {}),
    ("sail_away", 3, {}),
    ("sail_away", 4, {}),
    ("port_royal", 4, {"mode": "base"}),
    ("port_royal", 4, {"mode": "contract_comp"}),
    ("port_royal", 1, {"mode": "contract_coop"}),
    ("port_royal", 4, {"mode": "contract_coop"}),
    ("pirates_of_nassau", 4, {}),
    ("pirates_of_nassau", 2, {}),
    ("navegador", 2, {}),
    ("navegador", 4, {}),
]


def goldens() -> list[Golden]:
    """The goldens as recorded in tests/data/snapshots/index.json."""
    raw = json.loads((DIR / "index.json").read_text())
    return [Golden(g["kind"], g["seats"], g["options"], g["seed"], g["steps"]) for g in raw]


def write() -> None:
    """Play each mode to the middle of its game and write its snapshot and the index."""
    index = []
    for n, (kind, seats, options) in enumerate(MODES):
        seed = 1200 + n
        _, length = play(kind, seats, options, seed, None)
        golden = Golden(kind, seats, options, seed, length // 2)
        state, _ = play(kind, seats, options, seed, golden.steps)
        golden.path.write_bytes(host_for(kind).dumps(state))
        index.append({"kind": kind, "seats": seats, "options": options, "seed": seed, "steps": golden.steps})
    (DIR / "index.json").write_text(json.dumps(index, indent=1) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
    write()
