"""The per-kind part of a move's server CPU, in one process, no I/O (issue 26, "every game kind").

For random games of every kind (3 seats, 2 for counter) it replays, per committed move, what the
gateway and the worker do that depends on the game, and prints µs per move by step:

- gateway `submit`: the mover's `Action` message to the rules action and its stored bytes
  (`Renderer.action_from_pb`, `GameHost.dumps`);
- worker `load`: those bytes to the rules action (`GameHost.loads`); `step`: `GameHost.step`
  (apply, events and prompts in plain form); `dump`: the new state's snapshot (`GameHost.dumps`);
- gateway `updates`: each seat's watch update (the commit's events, and its prompt decoded from
  plain if it must act) rendered and serialized, as a Play stream sends it (a warm renderer).

    python bench/kind_cost.py [--moves 400] [--rounds 3] [--kinds counter,navegador]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from flotilla.app.host import GameHost, host_for
from flotilla.app.watching import Batch
from flotilla.games import REGISTRY
from flotilla.gateway.render import Renderer
from flotilla.records import DEFAULTS
from flotilla.rules import Seat

STEPS = ("submit", "load", "step", "dump", "updates")


def record(host: GameHost, moves: int, seed: int) -> list[tuple[Any, Seat, Any, int]]:
    """(state, seat, action, version) of `moves` moves of random games (a new game at each end)."""
    rules = host.rules
    seats = 2 if rules.name == "counter" else 3
    driver = random.Random(seed)
    out: list[tuple[Any, Seat, Any, int]] = []
    game = 0
    while len(out) < moves:
        step = host.start(host.config(seats, {}), seed * 1000 + game, {}, 0)
        state, version = step.state, step.version
        game += 1
        while len(out) < moves and step.to_act:
            seat = Seat(driver.choice(step.to_act))
            action = driver.choice(rules.legal_actions(state, seat))
            out.append((state, seat, action, version))
            step = host.step(state, seat, action, version, 0)
            state, version = step.state, step.version
    return out


def _timed(fn: Callable[[], Any], into: dict[str, float], name: str) -> Any:
    t0 = time.process_time()
    out = fn()
    into[name] += time.process_time() - t0
    return out


def _move(host: GameHost, render: Renderer, move: tuple[Any, Seat, Any, int], sums: dict[str, float]) -> None:
    """One move's steps (see the module doc), their CPU added to `sums`."""
    state, seat, action, version = move
    envelope = render.action_to_pb(host, action)
    plain = _timed(lambda: host.dumps(render.action_from_pb(host, envelope)), sums, "submit")
    _timed(lambda: host.loads(plain), sums, "load")
    step = _timed(lambda: host.step(state, seat, action, version, 0), sums, "step")
    _timed(lambda: host.dumps(step.state), sums, "dump")
    rows = tuple(step.events)
    legal = {int(k): v for k, v in step.prompts.items() if k != DEFAULTS}

    def updates() -> None:
        for viewer in range(2 if host.rules.name == "counter" else 3):
            plains = legal.get(viewer)
            prompt = None if plains is None else tuple(host.codec.from_plain(a) for a in plains)
            batch = Batch(host, step.version, events=rows, prompt=prompt, lineage="x", lineages=("x",))
            render.watch_response(str(version), batch, Seat(viewer)).SerializeToString()

    _timed(updates, sums, "updates")


def measure(host: GameHost, moves: list[tuple[Any, Seat, Any, int]]) -> dict[str, float]:
    """µs per move of each step (see the module doc), over `moves`."""
    render = Renderer()
    sums = dict.fromkeys(STEPS, 0.0)
    for move in moves:
        _move(host, render, move, sums)
    return {k: v / len(moves) * 1e6 for k, v in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(sorted(REGISTRY)))
    args = parser.parse_args()
    print("| kind | " + " | ".join(STEPS) + " | total | × counter |")
    print("|---|" + "---:|" * (len(STEPS) + 2))
    base = None
    for kind in args.kinds.split(","):
        host = host_for(kind)
        moves = record(host, args.moves, args.seed)
        best = min((measure(host, moves) for _ in range(args.rounds)), key=lambda r: sum(r.values()))
        total = sum(best.values())
        base = total if kind == "counter" else base
        ratio = f"{total / base:.2f}" if base else "–"
        print(f"| {kind} | " + " | ".join(f"{best[s]:.0f}" for s in STEPS) + f" | {total:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
