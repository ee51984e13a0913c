"""Positions of every game and Port Royal mode, reached by seeded random play (for the policy tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from flotilla.bots.policy import Rules
from flotilla.games import REGISTRY
from flotilla.rules import Seat
from flotilla.rules.options import config_from_options

GAMES: tuple[tuple[str, int, dict[str, str]], ...] = (
    ("port_royal", 2, {"mode": "base"}),
    ("port_royal", 2, {"mode": "base_plus"}),
    ("port_royal", 2, {"mode": "contract_comp"}),
    ("port_royal", 2, {"mode": "contract_coop"}),
    ("sail_away", 2, {}),
    ("pirates_of_nassau", 3, {}),
    ("navegador", 2, {}),
)
IDS = [f"{kind}-{seats}-{opts.get('mode', '')}".rstrip("-") for kind, seats, opts in GAMES]


def positions(kind: str, seats: int, options: dict[str, str], count: int, seed: int) -> Iterator[tuple[Rules, Any]]:
    """`count` unfinished states, each after a random number of random moves (0..150) of game `seed + i`."""
    rules = REGISTRY[kind]
    config = config_from_options(rules.config_type, seats, options)
    rng = random.Random(seed)
    for i in range(count):
        state = rules.new_game(config, seed + i)
        for _ in range(rng.randrange(150)):
            seat = rng.choice(sorted(rules.to_act(state)))
            after = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat))).state
            if rules.result(after) is not None:
                break
            state = after
        yield rules, state


def acting(rules: Rules, state: Any, rng: random.Random) -> Seat:
    """One of the seats that must act."""
    return rng.choice(sorted(rules.to_act(state)))
