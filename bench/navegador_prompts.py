"""Navegador's largest prompts per rules version, over the conformance harness's random games.

Usage: python bench/navegador_prompts.py [--seeds N] (default 100, the conformance seeds). Plays
the harness's random game (`random.Random(seed)`, `game_seed(seed)`) for each seed and seat
count 2-5 under rules version 1 (one-shot placements and fleets) and version 2 (stepwise), and
prints per version the largest prompt, the largest count of each action type in one prompt, the
decisions played and the longest game.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import Any

from flotilla.games import navegador
from flotilla.games.navegador.config import Config
from flotilla.rules.testing import game_seed


def measure(rules: Any, seeds: int) -> tuple[int, Counter[str], int, int]:
    """(largest prompt, largest count per action type, decisions, longest game) over the seeds."""
    largest, by_type, decisions, longest = 0, Counter[str](), 0, 0
    for seats in (2, 3, 4, 5):
        for seed in range(seeds):
            driver = random.Random(seed)
            state = rules.new_game(Config(seats=seats), game_seed(seed))
            steps = 0
            while acting := rules.to_act(state):
                seat = driver.choice(sorted(acting))
                legal = rules.legal_actions(state, seat)
                largest = max(largest, len(legal))
                for name, n in Counter(type(a).__name__ for a in legal).items():
                    by_type[name] = max(by_type[name], n)
                state = rules.apply(state, seat, driver.choice(legal)).state
                steps += 1
            decisions, longest = decisions + steps, max(longest, steps)
    return largest, by_type, decisions, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=100)
    args = parser.parse_args()
    for rules in (navegador.RULES_V1, navegador.RULES):
        largest, by_type, decisions, longest = measure(rules, args.seeds)
        print(f"rules {rules.version}: largest prompt {largest}, decisions {decisions}, longest game {longest}")
        print("  " + ", ".join(f"{name} {n}" for name, n in sorted(by_type.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
