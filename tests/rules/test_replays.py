"""The replayed states GetViewAt shows (app/replays.py): the same as a replay from the seed, from
whichever checkpoint is kept, in a bounded cache; a caller that goes away leaves nothing broken."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from flotilla.app.host import host_for
from flotilla.app.replays import Replays
from flotilla.records import ActionRecord
from flotilla.rules import Seat
from flotilla.rules.replay import replay

HOST = host_for("pirates_of_nassau")
SEED = 11


def _played(seats: int = 2) -> tuple[Any, list[ActionRecord], list[tuple[Seat, Any]]]:
    """A random game to its end: its config, its action log as stored, and its moves."""
    rules = HOST.rules
    config = HOST.config(seats, {})
    state = rules.new_game(config, SEED)
    rng = random.Random(5)
    log: list[ActionRecord] = []
    moves: list[tuple[Seat, Any]] = []
    version = 1
    while rules.result(state) is None:
        seat = min(rules.to_act(state))
        action = rng.choice(rules.legal_actions(state, seat))
        after, events = rules.apply(state, seat, action)
        version += len(events) + (rules.result(after) is not None)
        log.append(ActionRecord(int(seat), HOST.codec.to_plain(action), version))
        moves.append((seat, action))
        state = after
    return config, log, moves


async def test_states_are_the_replay_from_the_seed_whatever_is_kept_and_the_cache_stays_bounded() -> None:
    config, log, moves = _played()
    replays = Replays(max_states=5, every=8)
    counts = [len(log), 0, 9, 10, 11, 3, 17, len(log) - 1, 10]
    for count in counts:
        got = await replays.state_after("g", "l", HOST, config, SEED, log, count)
        assert got == replay(HOST.rules, config, SEED, moves[:count]), f"after {count} actions"
        assert len(replays._states) <= 5
    other = await replays.state_after("g", "rewound", HOST, config, SEED + 1, log[:0], 0)
    assert other == HOST.rules.new_game(config, SEED + 1)  # another lineage: never a state of the first


async def test_a_caller_that_goes_away_mid_replay_leaves_the_next_call_right() -> None:
    config, log, moves = _played()
    replays = Replays(every=4)
    first = asyncio.create_task(replays.state_after("g", "l", HOST, config, SEED, log, len(log)))
    await asyncio.sleep(0)  # the replay has started in its thread
    first.cancel()
    got = await replays.state_after("g", "l", HOST, config, SEED, log, len(log) // 2)
    assert got == replay(HOST.rules, config, SEED, moves[: len(log) // 2])
