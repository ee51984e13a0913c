"""Rooms and presence (`LobbyStore`): a contract of its own, on a single Redis and on a cluster.
A room is written by compare-and-set, its versions are kept as a change stream, everything it
writes expires, and a player's presence is taken (judged absent) once."""

from __future__ import annotations

from typing import Any

import pytest

from flotilla.store import keys
from flotilla.store.lobby_store import ROOM_TTL_S, LobbyStore
from flotilla.store.redis_store import RedisStore
from store.contract import slots

pytestmark = pytest.mark.redis


def room(uid: str, n: int) -> dict[str, Any]:
    return {"id": uid, "kind": "counter", "n": n, "code": ""}


async def test_a_room_is_written_by_compare_and_set_and_its_versions_are_kept_in_order(
    store: RedisStore, probe: Any, uid: str
) -> None:
    lobby = LobbyStore.of(store)
    assert await lobby.write_room(uid, 0, room(uid, 1), None) == 1  # 0: it must not exist yet
    assert await lobby.write_room(uid, 0, room(uid, 9), None) is None  # exists: refused
    assert await lobby.write_room(uid, 1, room(uid, 2), None) == 2
    assert await lobby.write_room(uid, 1, room(uid, 9), None) is None  # stale: refused, nothing written
    found = await lobby.room(uid)
    assert found is not None
    assert (found.version, found.room["n"]) == (2, 2)
    assert [(r.version, r.room["n"]) for r in await lobby.room_changes(uid, 0)] == [(1, 1), (2, 2)]
    assert [r.version for r in await lobby.room_changes(uid, 1)] == [2]
    written = [keys.room(uid), keys.room_changes(uid)]
    for key in written:
        assert 0 < await probe.pttl(key) <= ROOM_TTL_S * 1000
    assert len(slots(written)) == 1
    left = await lobby.room_expires_in(uid)
    assert left is not None
    assert ROOM_TTL_S - 60 < left <= ROOM_TTL_S
    assert await lobby.room(uid + "x") is None


async def test_an_absent_player_is_taken_once_and_not_after_coming_back(store: RedisStore, uid: str) -> None:
    lobby = LobbyStore.of(store)
    users = [f"{uid}-{i}" for i in range(3)]
    for i, user in enumerate(users):
        await lobby.touch_presence(uid, user, 1_000 + i)  # far in the past: no real presence is older
    stale = [row for row in await lobby.stale_presence(1_001, 10_000) if row[0] == uid]
    assert [user for _room, user, _handle in stale] == users[:2]
    handles = {user: handle for _room, user, handle in stale}
    assert await lobby.take_presence(handles[users[0]]) is True
    assert await lobby.take_presence(handles[users[0]]) is False  # taken once
    await lobby.touch_presence(uid, users[1], 5_000)  # came back before the sweep took it
    assert await lobby.take_presence(handles[users[1]]) is False
    await lobby.drop_presence(uid, users[1])
    await lobby.drop_presence(uid, users[2])
