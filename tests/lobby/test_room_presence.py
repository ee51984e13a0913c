"""Absent players lose their room seats after the grace period: in process, on a real Redis and a
manual clock (flotilla/clock.py), so the grace passes at once. tests/lobby/test_rooms.py runs the
matchmaker's sweep against real gateways."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from flotilla.clock import ManualClock
from flotilla.lobby.rooms import Rooms
from flotilla.redis_server import RedisServer
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore

pytestmark = [pytest.mark.redis]

GRACE_S = 6.0


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[RedisStore]:
    """A Redis of its own: the presence set is global, and the manual clock judges every entry in it
    (another test's presence written a moment ago would count as absent once the clock moves on)."""
    server = RedisServer(tmp_path, aof=False).start()
    opened = RedisStore.from_url(server.url)
    try:
        yield opened
    finally:
        await opened.close()
        server.stop()


async def test_a_player_whose_room_watch_ended_loses_the_seat_after_the_grace_period(store: RedisStore) -> None:
    clock = ManualClock()
    rooms = Rooms(LobbyStore(store.redis), None, heartbeat_s=3600, clock=clock)  # type: ignore[arg-type]  # no game is started
    host, guest, stayer = (uuid.uuid4().hex for _ in range(3))
    _, room = await rooms.create(host, "host", "sail_away", 3, {}, public=True, request_id="r")
    for user in (guest, stayer):
        _, room = await rooms.join(room["id"], user, user[:6], "", None)
    assert await rooms.presence.update(room, guest, False)  # the guest watches ...
    rooms.presence.leave(room["id"], guest)  # ... and its stream ends (what WatchRoom does)
    clock.advance(GRACE_S - 0.5)
    assert await rooms.presence.update(room, stayer, False)  # the stayer's presence is this recent
    assert await rooms.free_absent(GRACE_S) == 0  # within the grace: nobody freed
    clock.advance(1)
    assert await rooms.free_absent(GRACE_S) == 1
    seats = {seat["user"]: i for i, seat in enumerate((await rooms.get(room["id"])).room["seats"]) if seat}
    assert guest not in seats
    assert seats[stayer] == 2  # the one still watching keeps its seat (its presence is newer)
    assert seats[host] == 0  # never watched: not judged absent
    rooms.presence.leave(room["id"], stayer)
