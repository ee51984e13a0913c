"""The gateway's rendering cost per event (per viewer) and per prompt, by game (issue 13's texts).

`python bench/render_cost.py` prints µs per rendered event and per rendered prompt of random games
of every game, rendering each event row for every viewer with a fresh event cache (the describer's
caches stay warm, as in a running gateway). `--compare DIR` runs the same measurement alternately
under DIR's `server/` (e.g. an export of the commit before) and this tree's, `--rounds` times each,
in one run, and prints both and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from flotilla.app.host import RULES_EVENT, GameHost
from flotilla.games import navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.games.navegador.config import Config as NavegadorConfig
from flotilla.gateway.render import Renderer
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for, game_seed

ROOT = Path(__file__).resolve().parent.parent


def measure(games: int, seed: int) -> dict[str, dict[str, float]]:
    """{game: {"event_us": ..., "prompt_us": ...}} over `games` random games of each kind."""
    out: dict[str, dict[str, float]] = {}
    cases: list[tuple[Any, Any]] = [
        (sail_away.RULES, sail_away.Config(seats=3)),
        (port_royal.RULES, port_royal.Config(seats=3, mode=port_royal.Mode.CONTRACT_COMP)),
        (pirates_of_nassau.RULES, pirates_of_nassau.Config(seats=3)),
        (navegador.RULES, NavegadorConfig(seats=3)),
    ]
    for rules, config in cases:
        host = GameHost(rules)
        codec = codec_for(rules)
        rows: list[list[Any]] = []
        prompts: list[tuple[Any, tuple[Any, ...]]] = []
        for g in range(games):
            driver = random.Random(seed + g)
            state = rules.new_game(config, game_seed(seed + g))
            for _ in range(3000):
                acting = sorted(rules.to_act(state))
                if not acting:
                    break
                seat = driver.choice(acting)
                legal = rules.legal_actions(state, seat)
                prompts.append((seat, legal))
                state, events = rules.apply(state, seat, driver.choice(legal))
                rows.extend([len(rows) + 1, 0, RULES_EVENT, codec.to_plain(e)] for e in events)
        viewers = [None, *(Seat(i) for i in range(rules.seats_of(config)))]
        renderer = Renderer()
        renderer.event("warm", host, rows[0], None, "w")
        t0 = time.perf_counter()
        for row in rows:
            for viewer in viewers:
                renderer.event("g", host, row, viewer, "x")
        event_us = (time.perf_counter() - t0) / (len(rows) * len(viewers)) * 1e6
        t0 = time.perf_counter()
        for seat, legal in prompts:
            renderer.prompt(host, seat, legal, 1, "x")
        prompt_us = (time.perf_counter() - t0) / len(prompts) * 1e6
        out[rules.name] = {"event_us": event_us, "prompt_us": prompt_us, "events": len(rows), "prompts": len(prompts)}
    return out


def _run(tree: Path, games: int, seed: int) -> dict[str, dict[str, float]]:
    env = dict(os.environ, PYTHONPATH=str(tree / "server"))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/tmp")
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one measurement as JSON")
    parser.add_argument("--compare", type=Path, help="a tree to measure alternately with this one")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.games, args.seed)))
        return
    if args.compare is None:
        for game, row in measure(args.games, args.seed).items():
            print(f"{game:18} event {row['event_us']:7.1f} µs  prompt {row['prompt_us']:8.1f} µs")
        return
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        runs["before"].append(_run(args.compare, args.games, args.seed))
        runs["after"].append(_run(ROOT, args.games, args.seed))
    print("| game | event µs before | after | ratio | prompt µs before | after | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for game in runs["after"][0]:
        cells = []
        for what in ("event_us", "prompt_us"):
            before = statistics.median(r[game][what] for r in runs["before"])
            after = statistics.median(r[game][what] for r in runs["after"])
            cells.append(f"{before:.1f} | {after:.1f} | {after / before:.2f}")
        print(f"| {game} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
