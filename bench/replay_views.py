"""What GetViewAt's replays cost (app/replays.py), per game kind, on one random 3-seat game each.

In the same run: a plain replay of the whole game (rules/replay.py), a cold jump to its end through
`Replays` (an empty cache), then 40 steps of one move forward and back around the middle, then 20
jumps to random points (checkpoints kept; the median). Only the rules work of rebuilding the state:
the view, its rendering and the Redis reads of a GetViewAt come on top.
Usage: python bench/replay_views.py
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from flotilla.app.host import GameHost, host_for
from flotilla.app.replays import Replays
from flotilla.records import ActionRecord
from flotilla.rules import Seat
from flotilla.rules.replay import replay

KINDS = ("sail_away", "port_royal", "pirates_of_nassau", "navegador")
SEED = 7


def played(kind: str, seats: int) -> tuple[GameHost, Any, list[ActionRecord]]:
    """A random game to its end and its action log as the server stores it."""
    host = host_for(kind)
    rules = host.rules
    config = host.config(seats, {})
    state = rules.new_game(config, SEED)
    rng = random.Random(SEED)
    log: list[ActionRecord] = []
    version = 1
    while rules.result(state) is None:
        seat = min(rules.to_act(state))
        action = rng.choice(rules.legal_actions(state, seat))
        after, events = rules.apply(state, seat, action)
        version += len(events) + (rules.result(after) is not None)
        log.append(ActionRecord(int(seat), host.codec.to_plain(action), version))
        state = after
    return host, config, log


async def timed(replays: Replays, host: GameHost, config: Any, log: list[ActionRecord], count: int) -> float:
    start = time.perf_counter()
    await replays.state_after("g", "l", host, config, SEED, log, count)
    return (time.perf_counter() - start) * 1000


async def main() -> None:
    print("| kind | actions | plain replay (ms) | cold jump to the end (ms) | step ±1 (ms, median) | warm jump (ms) |")
    print("|---|---|---|---|---|---|")
    for kind in KINDS:
        host, config, log = played(kind, 3)
        n = len(log)
        start = time.perf_counter()
        replay(host.rules, config, SEED, [(Seat(r.seat), host.codec.from_plain(r.action)) for r in log])
        plain = (time.perf_counter() - start) * 1000
        replays = Replays()
        cold = await timed(replays, host, config, log, n)
        path = [*range(n // 2, n // 2 + 20), *range(n // 2 + 20, n // 2, -1)]
        steps = [await timed(replays, host, config, log, c) for c in path]
        rng = random.Random(1)
        jumps = [await timed(replays, host, config, log, rng.randrange(n + 1)) for _ in range(20)]
        step, jump = statistics.median(steps), statistics.median(jumps)
        print(f"| {kind} | {n} | {plain:.0f} | {cold:.0f} | {step:.1f} | {jump:.1f} |")


if __name__ == "__main__":
    asyncio.run(main())
