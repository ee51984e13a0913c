"""The seeded mid-game states behind tests/data/snapshots/ (the golden snapshot files).

Each golden is `host.dumps(state)` of the state reached by playing `steps` random legal
actions (driver `random.Random(seed)`) from `new_game(config, game_seed(seed))`, in every
snapshot schema version the game has had: `*-v0.json` were written by the generic codec
before snapshots carried a version, `*-v1.json` by the first versioned codec. Never rewrite
a committed file (they are what a deploy must still load); after bumping a game's
SCHEMA_VERSION, add that version's files:

    python tests/rules/codec_goldens.py VERSION
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flotilla.app.host import host_for
from flotilla.rules.testing import game_seed, random_walk

DIR = Path(__file__).resolve().parent.parent / "data" / "snapshots"


@dataclass(frozen=True)
class Golden:
    """One golden snapshot: which game, how it was reached, and its file."""

    kind: str
    seats: int
    options: dict[str, str]
    seed: int
    steps: int

    def path(self, version: int = 0) -> Path:
        """The golden file written at this snapshot schema version."""
        mode = "-".join(self.options.values()) or "base"
        return DIR / f"{self.kind}-{self.seats}p-{mode}-v{version}.json"

    def versions(self) -> list[int]:
        """The schema versions this golden has files for."""
        return sorted(int(p.stem.rsplit("-v", 1)[1]) for p in DIR.glob(self.path(0).name.replace("-v0.", "-v*.")))


def play(kind: str, seats: int, options: dict[str, str], seed: int, steps: int | None) -> tuple[Any, int]:
    """The state after `steps` random legal actions (or at the end), and how many were played."""
    host = host_for(kind)
    rules = host.rules
    driver = random.Random(seed)
    state = start = rules.new_game(host.config(seats, options), game_seed(seed))
    played = 0
    for played, state in enumerate(itertools.islice(random_walk(rules, start, driver), steps), 1):  # noqa: B007
        pass
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


def write(version: int) -> None:
    """Write each golden's snapshot as this process's codec stores it, as `version`'s files."""
    for golden in goldens():
        host = host_for(golden.kind)
        if host.snapshots.version != version:
            continue
        path = golden.path(version)
        if path.exists():
            msg = f"{path.name} exists: golden files are never rewritten"
            raise SystemExit(msg)
        state, _ = play(golden.kind, golden.seats, golden.options, golden.seed, golden.steps)
        path.write_bytes(host.dumps(state))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
    write(int(sys.argv[1]))
