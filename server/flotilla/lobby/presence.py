"""Who watches an open room they sit in, kept in Redis for `Rooms.free_absent` (lobby/rooms.py)."""

from __future__ import annotations

import asyncio
from collections import Counter

import structlog

from flotilla.clock import SYSTEM, Clock, now_ms
from flotilla.lobby.room_document import OPEN, Room, seat_of
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.transient import log_survived

log = structlog.get_logger("flotilla.lobby")


class Presence:
    """The players of this process that watch an open room they sit in.

    A player's presence is written when its watch starts (or it takes a seat), then refreshed
    for all of them together every `every_s`, in a few pipelined commands: a watcher's
    heartbeat costs no Redis command. See `Rooms.free_absent`.
    """

    def __init__(self, store: LobbyStore, every_s: float, clock: Clock = SYSTEM) -> None:
        self.store = store
        self.every_s = every_s
        self.clock = clock
        self.watching: Counter[tuple[str, str]] = Counter()
        self._task: asyncio.Task[None] | None = None

    async def update(self, room: Room, user: str, present: bool) -> bool:
        """Whether `user`, who counted as present or not (`present`), counts now; written when it starts."""
        now = bool(user) and room["status"] == OPEN and seat_of(room, user) is not None
        if now and not present:
            self.watching[room["id"], user] += 1
            await self.store.touch_presence(room["id"], user, now_ms(self.clock))
            if self._task is None or self._task.done():
                self._task = asyncio.get_running_loop().create_task(self._refresh(), name="room-presence")
        elif present and not now:
            self.leave(room["id"], user)
        return now

    def leave(self, room_id: str, user: str) -> None:
        self.watching[room_id, user] -= 1
        if self.watching[room_id, user] <= 0:
            del self.watching[room_id, user]

    async def _refresh(self) -> None:
        while self.watching:
            await asyncio.sleep(self.every_s)
            try:
                await self.store.touch_presences(list(self.watching), now_ms(self.clock))
            except Exception as exc:  # Redis unreachable or failing over, or a bug: the next round goes on
                log_survived(log, "presence", exc)
