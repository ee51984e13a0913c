"""What seat takeover costs per move: the takeover policy's choice (decision_from_state + choose)
against the game's default action, on the states of random playouts of every game.

python bench/takeover_cost.py [POLICY ...]   (default: random, and heuristic where registered)
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from flotilla.app.host import host_for
from flotilla.bots import POLICIES
from flotilla.bots.takeover import Takeover
from flotilla.rules import Seat

GAMES = [
    ("counter", 2, {}),
    ("sail_away", 3, {}),
    ("port_royal", 3, {"mode": "contract_comp"}),
    ("pirates_of_nassau", 3, {}),
    ("navegador", 3, {}),
]


def states(kind: str, seats: int, options: dict[str, str], count: int = 200) -> list[tuple[Any, Seat]]:
    host = host_for(kind)
    rules, rng = host.rules, random.Random(1)
    out: list[tuple[Any, Seat]] = []
    state = rules.new_game(host.config(seats, options), 1)
    while len(out) < count:
        if rules.result(state) is not None:
            state = rules.new_game(host.config(seats, options), len(out))
        seat = Seat(min(rules.to_act(state)))
        out.append((state, seat))
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat))).state
    return out


def per_move_us(fn: Callable[[Any, Seat, int], Any], sample: list[tuple[Any, Seat]], budget_s: float = 3.0) -> float:
    started, done = time.perf_counter(), 0
    while done < len(sample) and time.perf_counter() - started < budget_s:
        state, seat = sample[done]
        fn(state, seat, done)
        done += 1
    return (time.perf_counter() - started) / done * 1e6


def _default(rules: Any, state: Any, seat: Seat, version: int) -> Any:
    return rules.default_action(state, seat)


def main(names: list[str]) -> None:
    names = names or [n for n in ("random", "heuristic") if n in POLICIES]
    print("| game | default action µs | " + " | ".join(f"{n} µs (ratio)" for n in names) + " |")
    print("|---|---|" + "---|" * len(names))
    for kind, seats, options in GAMES:
        rules = host_for(kind).rules
        sample = states(kind, seats, options)
        base = per_move_us(partial(_default, rules), sample)
        cells = []
        for name in names:
            takeover = Takeover(name, 0)
            cost = per_move_us(partial(takeover.action, rules), sample)
            cells.append(f"{cost:.0f} ({cost / base:.0f}x)")
        print(f"| {kind} ({seats} seats) | {base:.1f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
