"""How many playouts `ismcts` gets through in a fixed time per decision, game by game, so that
"1 s per decision on this machine" can be replayed as a fixed playout budget (which, unlike a
time budget, gives the same games on a loaded machine and on a fast one).

Each kind plays one `heuristic` self-play game from `--seed`; at every `--every`-th decision with
more than one legal action, `ismcts` searches that position for `--seconds` and the playouts it
finished are recorded. Run it on an otherwise idle machine:

    python bench/ismcts_rate.py --seconds 1 --samples 12
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from flotilla.bots.ismcts import IsmctsPolicy
from flotilla.bots.policy import decision_from_state, make
from flotilla.games import REGISTRY
from flotilla.rules.options import config_from_options

KINDS = (
    ("port_royal", {"mode": "base"}),
    ("port_royal", {"mode": "base_plus"}),
    ("port_royal", {"mode": "contract_comp"}),
    ("port_royal", {"mode": "contract_coop"}),
    ("sail_away", {}),
    ("pirates_of_nassau", {}),
    ("navegador", {}),
)


def rate(kind: str, options: dict[str, str], seconds: float, samples: int, every: int, seed: int) -> list[int]:
    """Playouts per searched position, `samples` positions along one heuristic game."""
    rules = REGISTRY[kind]
    config = config_from_options(rules.config_type, 2, options)
    state = rules.new_game(config, seed)
    mover = make("heuristic", rules, 1)
    search = IsmctsPolicy(rules, 1, seconds=seconds)
    rng = random.Random(seed)
    found: list[int] = []
    step = 0
    while rules.result(state) is None and len(found) < samples:
        seat = min(rules.to_act(state))
        decision = decision_from_state(rules, state, seat)
        if len(decision.legal) > 1:
            step += 1
            if step % every == 0:
                before = search.playouts_done
                search.choose(decision, random.Random(rng.getrandbits(64)))
                found.append(search.playouts_done - before)
        state = rules.apply(state, seat, mover.choose(decision, random.Random(rng.getrandbits(64)))).state
    return found


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--samples", type=int, default=12)
    p.add_argument("--every", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    for kind, options in KINDS:
        found = rate(kind, options, args.seconds, args.samples, args.every, args.seed)
        line = {
            "kind": kind,
            "options": options,
            "seconds": args.seconds,
            "positions": len(found),
            "median": statistics.median(found) if found else 0,
            "min": min(found, default=0),
            "max": max(found, default=0),
        }
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
