"""The gateway's rendering cost per event (per viewer) and per prompt, by game (issue 13's texts).

`python bench/render_cost.py` prints µs per rendered event and per rendered prompt of random games
of every game, rendering each event row for every viewer with a fresh event cache (the text
caches warm, as in a running gateway). `--compare DIR` records one workload with DIR's `server/`
(e.g. an export of the commit before) and measures it alternately under DIR's and this tree's,
`--rounds` times each, in one run (and each tree on its own games), and prints the fastest
of each (CPU time) and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flotilla.app.host import GameHost
from flotilla.games import navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.games.navegador.config import Config as NavegadorConfig
from flotilla.gateway.render import Renderer
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for, game_seed

try:
    from flotilla.app.host_events import RULES_EVENT
except ImportError:  # a tree before issue 25 (this script measures two trees)
    from flotilla.app.host import RULES_EVENT  # type: ignore[attr-defined,no-redef]

ROOT = Path(__file__).resolve().parent.parent


CASES: list[tuple[Any, Any]] = [
    (sail_away.RULES, sail_away.Config(seats=3)),
    (port_royal.RULES, port_royal.Config(seats=3, mode=port_royal.Mode.CONTRACT_COMP)),
    (pirates_of_nassau.RULES, pirates_of_nassau.Config(seats=3)),
    (navegador.RULES, NavegadorConfig(seats=3)),
]


def record(games: int, seed: int) -> dict[str, Any]:
    """Event rows and prompts (plain forms) of `games` random games of each kind, by this tree's rules."""
    out: dict[str, Any] = {}
    for rules, config in CASES:
        codec = codec_for(rules)
        rows: list[list[Any]] = []
        prompts: list[list[Any]] = []
        for g in range(games):
            driver = random.Random(seed + g)
            state = rules.new_game(config, game_seed(seed + g))
            for _ in range(3000):
                acting = sorted(rules.to_act(state))
                if not acting:
                    break
                seat = driver.choice(acting)
                legal = rules.legal_actions(state, seat)
                prompts.append([seat, [codec.to_plain(a) for a in legal]])
                state, events = rules.apply(state, seat, driver.choice(legal))
                rows.extend([len(rows) + 1, 0, RULES_EVENT, codec.to_plain(e)] for e in events)
        out[rules.name] = {"rows": rows, "prompts": prompts, "seats": rules.seats_of(config)}
    return out


def _rows(plain: list[Any]) -> Any:
    """Rows as the measured tree's renderer takes them (records.EventRow since issue 25; lists before)."""
    try:
        from flotilla.records import load_rows  # noqa: PLC0415 - absent from trees before issue 25
    except ImportError:
        return plain
    return load_rows(plain)


def measure(workload: dict[str, Any]) -> dict[str, dict[str, float]]:
    """{game: {"event_us", "prompt_us"}}: each event row rendered for every viewer (a fresh event
    cache; the text caches warm, as in a running gateway), each prompt rendered once."""
    out: dict[str, dict[str, float]] = {}
    for rules, _ in CASES:
        host = GameHost(rules)
        codec = codec_for(rules)
        data = workload[rules.name]
        rows = _rows(data["rows"])
        prompts = [(Seat(seat), tuple(codec.from_plain(a) for a in plain)) for seat, plain in data["prompts"]]
        viewers = [None, *(Seat(i) for i in range(data["seats"]))]
        renderer = Renderer()
        renderer.event("warm", host, rows[0], None, "w")
        t0 = time.process_time()
        for row in rows:
            for viewer in viewers:
                renderer.event("g", host, row, viewer, "x")
        event_us = (time.process_time() - t0) / (len(rows) * len(viewers)) * 1e6
        t0 = time.process_time()
        for seat, legal in prompts:
            renderer.prompt(host, seat, legal, 1, "x")
        prompt_us = (time.process_time() - t0) / len(prompts) * 1e6
        out[rules.name] = {"event_us": event_us, "prompt_us": prompt_us}
    return out


def _run(tree: Path, *args: str) -> Any:
    env = dict(os.environ, PYTHONPATH=str(tree / "server"))
    cmd = [sys.executable, str(Path(__file__).resolve()), *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/tmp")
    return json.loads(done.stdout) if done.stdout.strip() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", type=Path, help="write a workload (this tree's rules) to this file")
    parser.add_argument("--workload", type=Path, help="measure this workload, print JSON")
    parser.add_argument("--compare", type=Path, help="a tree to measure alternately with this one")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.record is not None:
        args.record.write_text(json.dumps(record(args.games, args.seed)))
        return
    if args.workload is not None:
        print(json.dumps(measure(json.loads(args.workload.read_text()))))
        return
    if args.compare is None:
        for game, row in measure(record(args.games, args.seed)).items():
            print(f"{game:18} event {row['event_us']:7.1f} µs  prompt {row['prompt_us']:8.1f} µs")
        return
    with tempfile.TemporaryDirectory() as tmp:
        theirs, mine = Path(tmp) / "before.json", Path(tmp) / "after.json"
        _run(args.compare, "--record", str(theirs), "--games", str(args.games), "--seed", str(args.seed))
        _run(ROOT, "--record", str(mine), "--games", str(args.games), "--seed", str(args.seed))
        runs: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": [], "after_own": []}
        for _ in range(args.rounds):
            runs["before"].append(_run(args.compare, "--workload", str(theirs)))
            runs["after"].append(_run(ROOT, "--workload", str(theirs)))
            runs["after_own"].append(_run(ROOT, "--workload", str(mine)))
    _table("The same messages (the earlier tree's games), CPU µs, fastest of the rounds", runs, "after")
    _table("Each tree's own games (after: SD1 prompts of at most 7 actions), CPU µs", runs, "after_own")


def _table(title: str, runs: dict[str, list[dict[str, dict[str, float]]]], after_key: str) -> None:
    print(f"\n{title}\n")
    print("| game | event µs before | after | ratio | prompt µs before | after | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in runs[after_key][0]:
        cells = []
        for what in ("event_us", "prompt_us"):
            before = min(r[game][what] for r in runs["before"])
            after = min(r[game][what] for r in runs[after_key])
            cells.append(f"{before:.1f} | {after:.1f} | {after / before:.2f}")
        print(f"| {game} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
