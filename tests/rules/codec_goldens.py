"""The seeded mid-game states behind tests/data/snapshots/ (the golden snapshot files).

Each golden is `host.dumps(state)` of the state reached by playing `steps` random legal
actions (driver `random.Random(seed)`) from `new_game(config, game_seed(seed))`, in every
snapshot schema version the game has had: `*-v0.json` were written by the generic codec
before snapshots carried a version, `*-v1.json` by the first versioned codec. Never rewrite
a committed file (they are what a deploy must still load); after bumping a game's
SCHEMA_VERSION, add that version's files (`play` replays the prompts as they were when the
goldens were recorded, so every version's file holds the same state):

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
from flotilla.games.sail_away.actions import KeepShips
from flotilla.games.sail_away.state import Phase as SailAwayPhase
from flotilla.rules.testing import game_seed

DIR = Path(__file__).resolve().parent.parent / "data" / "snapshots"
RECORDED_RULES = "1"  # the rules version every golden was played with (Navegador's version 2 plays otherwise)


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
    host = host_for(kind, RECORDED_RULES)
    rules = host.rules
    driver = random.Random(seed)
    state = rules.new_game(host.config(seats, options), game_seed(seed))
    played = 0
    while (acting := rules.to_act(state)) and (steps is None or played < steps):
        seat = driver.choice(sorted(acting))
        state = rules.apply(state, seat, driver.choice(recorded_legal_actions(rules, state, seat))).state
        played += 1
    return state, played


def recorded_legal_actions(rules: Any, state: Any, seat: Any) -> tuple[Any, ...]:
    """The legal actions the goldens were recorded with: Sail Away's SD1 prompt listed the 120
    ordered triples (`KeepShips`) before SA-R11 listed picks; `KeepShips` still applies."""
    if rules.name == "sail_away" and state.phase is SailAwayPhase.CHOOSE_SHIPS and not state.players[seat].kept:
        return tuple(KeepShips(c) for c in itertools.permutations(state.players[seat].dealt, 3))
    return tuple(rules.legal_actions(state, seat))


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
