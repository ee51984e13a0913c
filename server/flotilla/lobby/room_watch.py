"""WatchRoom's stream of room versions (`Rooms.watch`): the room as it is, then each change, with
heartbeats in between that cost no Redis command (lobby/follow.py), until it starts or closes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from functools import partial

from flotilla.app.errors import InvalidRequest, RoomNotFound
from flotilla.lobby.follow import Heartbeat, follow
from flotilla.lobby.presence import Presence
from flotilla.lobby.room_document import CLOSED, OPEN, STARTED, Room, check_join_code
from flotilla.records import RoomRow
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.stream_hub import StreamEntries


async def watch_room(
    store: LobbyStore,
    presence: Presence,
    heartbeat_s: float,
    room_id: str,
    after_version: int,
    user: str = "",
    admit: Callable[[Room], None] | None = None,
    join_code: str | None = None,
) -> AsyncIterator[tuple[int, Room] | None]:
    """Room versions after `after_version` (0: the current one first); None is a heartbeat.

    `admit` sees the room first and raises to refuse the watcher; with a `join_code`, a private
    room `user` does not sit in is refused unless it is the room's code (`check_join_code`). Ends once
    the room has started (its game is set) or closed. While `user` watches an open room it sits in, its
    presence is kept (see `Presence`, `Rooms.free_absent`).
    """
    if after_version < 0:
        raise InvalidRequest("after_version must be >= 0", field="after_version")
    found = await store.room_with_expiry(room_id)
    if found is None:
        raise RoomNotFound(f"no room rooms/{room_id}", room=f"rooms/{room_id}")
    version, room, left = found
    if join_code is not None:
        check_join_code(room, user, join_code)
    if admit is not None:
        admit(room)
    cursor = after_version
    present = False
    try:
        present = await presence.update(room, user, present)
        if after_version == 0 or after_version > version:
            yield version, room
            cursor = version
            if room["status"] in (STARTED, CLOSED):
                return
        expires_in = partial(store.room_expires_in, room_id)
        async with (
            store.room_feed(room_id, cursor) as feed,
            aclosing(follow(feed, heartbeat_s, expires_in, left, store.hub.fresh)) as batches,
        ):
            async for batch in batches:
                if isinstance(batch, Heartbeat):
                    yield None
                    continue
                changes, cursor = await _changes(store, room_id, cursor, batch)
                for version, room in changes:
                    if version <= cursor:
                        continue
                    cursor = version
                    present = await presence.update(room, user, present)
                    yield version, room
                    if room["status"] in (STARTED, CLOSED):
                        return
        raise RoomNotFound(f"room rooms/{room_id} expired", room=f"rooms/{room_id}")
    finally:
        if present:
            presence.leave(room_id, user)
        if user and room["status"] != OPEN:
            await store.drop_presence(room_id, user)


async def _changes(
    store: LobbyStore, room_id: str, cursor: int, batch: StreamEntries | None
) -> tuple[list[RoomRow], int]:
    """The room's versions in a batch of its change stream, and the cursor to skip those at or before.
    For None (the feed was cut: Redis failed over or restarted), the versions after `cursor` read
    again; or, when Redis came back behind `cursor`, the room as it is (its version is the news)."""
    if batch is not None:
        return store.parse_room_changes(batch), cursor
    changes = await store.room_changes(room_id, cursor)
    stored = None if changes else await store.room(room_id)
    if stored is not None and stored[0] < cursor:
        return [stored], stored[0] - 1
    return changes, cursor
