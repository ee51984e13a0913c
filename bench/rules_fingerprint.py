"""A fingerprint of seeded random playouts of every rules engine, to prove an engine change keeps
exactly the same games (same legal actions in the same order, same RNG use, same results).

For `--games` seeded games per engine and mode (player counts cycled), it hashes every state's
codec form, every seat's legal actions, each step's events, default actions, every viewer's view
and redacted events (every 8th step), and each seat's determinized state and its view (every 16th). Run it on
two trees and compare the hashes (it uses the `flotilla` first on PYTHONPATH):

    PYTHONPATH=/work/main/server python bench/rules_fingerprint.py            # main
    PYTHONPATH=$PWD/server python bench/rules_fingerprint.py                  # this tree
    python bench/rules_fingerprint.py --engine port_royal --games 50          # one engine, quicker
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from flotilla.games import navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.rules import GameRules
from flotilla.rules.rng import Rng
from flotilla.rules.testing import codec_for, game_seed

Setup = tuple[GameRules[Any, Any, Any, Any, Any], Callable[[int], Any]]


def _setups() -> Iterator[tuple[str, Setup]]:
    nav_cfg = navegador.config.Config
    for name, rules in (("navegador-v1", navegador.RULES_V1), ("navegador-v2", navegador.RULES)):
        yield name, (rules, lambda i: nav_cfg(seats=2 + i % 4, random_colours=i % 5 == 0))
    for mode in port_royal.Mode:
        low = 1 if mode is port_royal.Mode.CONTRACT_COOP else 2
        yield (
            f"port_royal-{mode.value}",
            (
                port_royal.RULES,
                lambda i, mode=mode, low=low: port_royal.Config(seats=low + i % (6 - low), mode=mode),
            ),
        )
    yield "sail_away", (sail_away.RULES, lambda i: sail_away.Config(seats=2 + i % 3))
    yield "pirates_of_nassau", (pirates_of_nassau.RULES, lambda i: pirates_of_nassau.Config(seats=2 + i % 4))


def fingerprint(rules: GameRules[Any, Any, Any, Any, Any], config_of: Callable[[int], Any], games: int) -> str:
    """The hash of `games` seeded random playouts (seeds 0..games-1)."""
    codec = codec_for(rules)
    h = hashlib.blake2b(digest_size=16)

    def put(value: Any) -> None:
        h.update(repr(codec.to_plain(value)).encode())

    for i in range(games):
        config = config_of(i)
        seats = [*range(rules.seats_of(config))]
        viewers = [None, *seats]
        driver = random.Random(i)
        state = rules.new_game(config, game_seed(i))
        step = 0
        while True:
            put(state)
            sampled = (step + i) % 8 == 0
            if sampled:
                for viewer in viewers:
                    put(rules.view(state, viewer))
            acting = rules.to_act(state)
            h.update(repr((sorted(acting), rules.result(state))).encode())
            legal = {seat: rules.legal_actions(state, seat) for seat in seats}
            for seat in seats:
                put(legal[seat])
            if sampled and step % 16 == 0:
                for seat in seats:
                    other = rules.determinize(state, seat, Rng(i * 7919 + step).fork(seat))
                    put(other)
                    put(rules.view(other, seat))
            if not acting:
                break
            for seat in sorted(acting):
                put(rules.default_action(state, seat))
            seat = driver.choice(sorted(acting))
            state, events = rules.apply(state, seat, driver.choice(legal[seat]))
            put(events)
            for viewer in viewers if sampled else ():
                shown = [rules.redact(event, viewer) for event in events]
                h.update(repr([codec.to_plain(e) for e in shown if e is not None]).encode())
            step += 1
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine and mode")
    parser.add_argument("--engine", default="", help="only the setups whose name starts with this")
    args = parser.parse_args()
    for name, (rules, config_of) in _setups():
        if name.startswith(args.engine):
            print(f"{name}\t{args.games}\t{fingerprint(rules, config_of, args.games)}", flush=True)


if __name__ == "__main__":
    main()
