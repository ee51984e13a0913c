"""Finished games rebuilt at an earlier point (GetViewAt): the state after a game's first n
recorded actions, replayed from its seed (`flotilla.rules.replay`).

A replay costs rules work in proportion to the game's length (a whole Navegador game of ~1,500
actions: ~0.2 s, more on a loaded machine), so each gateway process keeps a bounded LRU of
replayed states (one every CHECKPOINT_EVERY actions, and the last one asked for), keyed by game
and the lineage of its last commit (a history that was rewound and played again is another game).
A step forward then costs one action's rules work, a step back or a jump into a stretch already
replayed at most CHECKPOINT_EVERY actions', and only a cold jump a whole replay. Replays run one
at a time per process, in a thread, so the event loop keeps serving.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from flotilla.app.host import GameHost
from flotilla.records import ActionRecord
from flotilla.rules import Seat
from flotilla.rules.replay import play_on

CHECKPOINT_EVERY = 32
MAX_STATES = 256  # replayed states a process keeps (a Navegador state is a few tens of KB)

Key = tuple[str, str, int]  # game id, lineage of its last commit, actions applied


class Replays:
    """The replayed states of one gateway process (bounded), and the one replay running at a time."""

    def __init__(self, max_states: int = MAX_STATES, every: int = CHECKPOINT_EVERY) -> None:
        self.max_states = max_states
        self.every = every
        self._states: OrderedDict[Key, Any] = OrderedDict()
        self._lock = asyncio.Lock()

    async def state_after(
        self,
        game_id: str,
        lineage: str,
        host: GameHost,
        config: Any,
        seed: int,
        log: Sequence[ActionRecord],
        count: int,
    ) -> Any:
        """The game's state after the first `count` actions of its `log` (replayed from `seed`)."""
        async with self._lock:
            start, state = self._nearest(game_id, lineage, count)
            if start == count and state is not None:
                return state
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(None, self._replay, host, config, seed, log, start, state, count)
            try:
                kept = await asyncio.shield(work)
            finally:
                if not work.done():  # the caller went away: hold the lock until the thread is done
                    await asyncio.wait({work})
            for at, replayed in kept:
                self._keep((game_id, lineage, at), replayed)
            return kept[-1][1]

    def _nearest(self, game_id: str, lineage: str, count: int) -> tuple[int, Any]:
        """The kept state closest before `count` actions: (actions applied, state); (0, None): none."""
        for at in (count, count - 1, *range(count // self.every * self.every, 0, -self.every)):
            state = self._states.get((game_id, lineage, at))
            if state is not None:
                self._states.move_to_end((game_id, lineage, at))
                return at, state
        return 0, None

    def _replay(
        self,
        host: GameHost,
        config: Any,
        seed: int,
        log: Sequence[ActionRecord],
        start: int,
        state: Any,
        count: int,
    ) -> list[tuple[int, Any]]:
        """(In a thread.) The states at each checkpoint after `start`, the last one after `count` actions."""
        if state is None:
            state = host.rules.new_game(config, seed)
        kept: list[tuple[int, Any]] = []
        at = start
        while at < count or not kept:
            stop = min(count, (at // self.every + 1) * self.every)
            moves = ((Seat(r.seat), host.codec.from_plain(r.action)) for r in log[at:stop])
            state = play_on(host.rules, state, moves)
            at = stop
            kept.append((at, state))
        return kept

    def _keep(self, key: Key, state: Any) -> None:
        self._states[key] = state
        self._states.move_to_end(key)
        while len(self._states) > self.max_states:
            self._states.popitem(last=False)
