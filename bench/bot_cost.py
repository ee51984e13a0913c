"""What a bot decision costs: µs per `heuristic` decision by difficulty, and ms per `ismcts`
playout, per game and Port Royal mode, on the same positions (reached by seeded random play).

    python bench/bot_cost.py [--positions 30] [--playouts 20]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from flotilla.bots import decision_from_state, make
from policy_positions import GAMES, IDS, acting, positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=20)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| game | heuristic@0 µs | heuristic@1 µs | heuristic@2 µs | ismcts ms/playout |")
    print("|---|---:|---:|---:|---:|")
    for (kind, seats, options), label in zip(GAMES, IDS, strict=True):
        rng = random.Random(1)
        decisions = []
        for rules, state in positions(kind, seats, options, args.positions, seed=1000):
            decisions.append((rules, decision_from_state(rules, state, acting(rules, state, rng))))
        row = []
        for difficulty in (0, 1, 2):
            started = time.perf_counter()
            for rules, d in decisions:
                make("heuristic", rules, difficulty).choose(d, random.Random(0))
            row.append(f"{(time.perf_counter() - started) / len(decisions) * 1e6:,.0f}")
        search_at = decisions[: max(1, len(decisions) // 5)]
        started = time.perf_counter()
        done = 0
        for rules, d in search_at:
            policy = make("ismcts", rules, 0)
            policy.playouts = args.playouts  # type: ignore[attr-defined]
            if len(d.legal) > 1:
                policy.choose(d, random.Random(0))
                done += args.playouts
        per = (time.perf_counter() - started) / max(1, done) * 1e3
        print(f"| {label} | {' | '.join(row)} | {per:.2f} |")


if __name__ == "__main__":
    main()
