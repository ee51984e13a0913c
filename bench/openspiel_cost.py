"""flotilla.openspiel's cost and a first strength figure, in one process.

1. Overhead: random playouts of each game through the engine directly and through the OpenSpiel
   wrapper (`state.legal_actions()` + `state.apply_action()`), the same seeds in the same run;
   also with every seat's information-state string and tensor asked at each step (what
   `random_sim_test` and a learning loop pay).
2. OpenSpiel's ISMCTS (random rollouts) against uniform random, seats rotated, on one-round Sail
   Away games; wins of the ISMCTS seat.

    python bench/openspiel_cost.py [--games 6] [--simulations 20] [--seconds 100]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from flotilla.openspiel.game import load
from flotilla.openspiel.seat import ismcts
from flotilla.rules import Seat

CASES: list[tuple[str, dict[str, Any]]] = [
    ("sail_away", {"players": 2}),
    ("port_royal", {"players": 2}),
    ("pirates_of_nassau", {"players": 2}),
    ("navegador", {"players": 2}),
]


def engine_playout(game: Any, seed: int) -> int:
    rules, state, driver, steps = game.rules, game.new_initial_state().engine_state, random.Random(seed), 0
    while acting := rules.to_act(state):
        seat = Seat(min(acting))
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
        steps += 1
    return steps


def wrapper_playout(game: Any, seed: int, observe: bool) -> int:
    state, driver, steps = game.new_initial_state(), random.Random(seed), 0
    while not state.is_terminal():
        if observe:
            for p in range(game.num_players()):
                state.information_state_string(p)
                state.information_state_tensor(p)
        state.apply_action(driver.choice(state.legal_actions()))
        steps += 1
    return steps


def overhead(seeds: int) -> None:
    print("| game | steps/game | engine µs/step | wrapper µs/step | ratio | + observations µs/step | ratio |")
    print("|---|---|---|---|---|---|---|")
    for kind, params in CASES:
        game = load(kind, **params)
        timings = []
        for observe in (None, False):
            start = time.perf_counter()
            played = (
                engine_playout(game, s) if observe is None else wrapper_playout(game, s, observe) for s in range(seeds)
            )
            steps = sum(played)
            timings.append((time.perf_counter() - start) / steps * 1e6)
        start, steps = time.perf_counter(), wrapper_playout(game, 0, True)
        observed = (time.perf_counter() - start) / steps * 1e6
        e, w = timings
        print(
            f"| {kind} | {steps} | {e:.0f} | {w:.0f} | {w / e:.1f} | {observed:.0f} | {observed / e:.0f} |", flush=True
        )


def strength(games: int, simulations: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    wins = played = decisions = 0
    spent = 0.0
    for g in range(games):
        if time.monotonic() > deadline:
            break
        game = load("sail_away", players=2, max_rounds=1, seed=g)
        bot = ismcts(simulations, seed=g)(game)
        me, driver, state = g % 2, random.Random(g), game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == me:
                start = time.perf_counter()
                action = bot.step(state)
                spent += time.perf_counter() - start
                decisions += 1
            else:
                action = driver.choice(state.legal_actions())
            state.apply_action(action)
        played += 1
        wins += state.returns()[me] > 0
    print(
        f"ISMCTS ({simulations} simulations) vs random, one-round Sail Away: {wins}/{played} won, "
        f"{spent / max(decisions, 1) * 1000:.0f} ms per decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=100)
    args = parser.parse_args()
    overhead(args.seeds)
    strength(args.games, args.simulations, args.seconds)


if __name__ == "__main__":
    main()
