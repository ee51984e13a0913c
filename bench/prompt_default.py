"""The cost per commit of naming each acting seat's default action in the stream entry's prompts.

On states of random playouts of every game, times `GameHost.prompts` (legal actions in plain
form plus the index of `default_action` among them, field p's "d") against the same without the
defaults (the previous release's prompts), interleaved in one run, and the encoded size of both
(`orjson.dumps`, what the commit writes).

    python bench/prompt_default.py [--states 300] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

import orjson

from flotilla.app.host import GameHost, host_for
from flotilla.rules.testing import game_seed, random_walk

GAMES = [
    ("counter", 2, {"moves": "200"}),
    ("sail_away", 3, {}),
    ("port_royal", 4, {"mode": "contract_comp"}),
    ("pirates_of_nassau", 3, {}),
    ("navegador", 3, {}),
]


def without_defaults(host: GameHost, state: Any) -> dict[str, list[Any]]:
    """The prompts as the previous release built them."""
    rules = host.rules
    return {
        str(s): [host.codec.to_plain(a) for a in rules.legal_actions(state, s)] for s in sorted(rules.to_act(state))
    }


def states(host: GameHost, seats: int, options: dict[str, str], count: int) -> list[Any]:
    out: list[Any] = []
    label = 0
    while len(out) < count:
        label += 1
        start = host.rules.new_game(host.config(seats, options), game_seed(label))
        out.extend(s for s in random_walk(host.rules, start, random.Random(label)) if host.rules.to_act(s))
    return out[:count]


def timed(fn: Any, sample: list[Any], repeat: int) -> float:
    """Best of `repeat` passes over `sample`, CPU microseconds per state (process time: on a
    shared machine, less noisy than the wall clock)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for state in sample:
            fn(state)
        best = min(best, time.process_time() - started)
    return 1e6 * best / len(sample)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=300, help="states per game")
    parser.add_argument("--repeat", type=int, default=5, help="passes (the best counts)")
    args = parser.parse_args()
    print(
        f"{'game':<18} {'before us':>9} {'after us':>9} {'extra us':>8} {'ratio':>6} {'bytes before':>12} {'after':>6}"
    )
    for kind, seats, options in GAMES:
        host = host_for(kind)
        sample = states(host, seats, options, args.states)
        before = after = 0.0
        for _ in range(2):  # interleaved: the machine's noise hits both alike
            before += timed(lambda s, h=host: without_defaults(h, s), sample, args.repeat)
            after += timed(lambda s, h=host: h.prompts(s), sample, args.repeat)
        size_before = sum(len(orjson.dumps(without_defaults(host, s))) for s in sample) / len(sample)
        size_after = sum(len(orjson.dumps(host.prompts(s)[0])) for s in sample) / len(sample)
        print(
            f"{kind:<18} {before / 2:>9.1f} {after / 2:>9.1f} {(after - before) / 2:>8.1f} {after / before:>6.2f} "
            f"{size_before:>12.0f} {size_after:>6.0f}"
        )


if __name__ == "__main__":
    main()
