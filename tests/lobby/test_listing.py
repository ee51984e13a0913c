"""The room listing index on a real Redis: paging, filters, and repair of entries that disagree with their rooms."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from flotilla.lobby import room_options
from flotilla.lobby.room_document import RoomFilter, listing
from flotilla.lobby.rooms import Rooms
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore

pytestmark = [pytest.mark.redis]


@pytest.fixture
async def rooms(redis_url: str) -> AsyncIterator[Rooms]:
    store = RedisStore.from_url(redis_url)
    yield Rooms(LobbyStore(store.redis), None)  # type: ignore[arg-type]  # nothing is started here
    await store.close()


async def _room(rooms: Rooms, tag: str, guests: int = 0) -> str:
    _, room = await rooms.create(
        uuid.uuid4().hex, "host", "sail_away", 4, {"max_rounds": tag}, public=True, request_id="r"
    )
    for _ in range(guests):
        await rooms.join(room["id"], uuid.uuid4().hex, "guest", "", None)
    return str(room["id"])


async def _all(rooms: Rooms, where: RoomFilter, size: int) -> list[str]:
    seen: list[str] = []
    cursor = None
    for _ in range(100):
        page, cursor = await rooms.list(where, cursor, size)
        seen += [r["id"] for _, r in page]
        if cursor is None:
            return seen
    raise AssertionError("paging did not end")


class TestListing:
    async def test_pages_follow_open_seats_then_age_and_filter(self, rooms: Rooms) -> None:
        tag = str(uuid.uuid4().int % 900 + 100)
        made = [await _room(rooms, tag, guests=i % 3) for i in range(12)]
        where = RoomFilter("sail_away", 0, {"max_rounds": tag})
        listed = await _all(rooms, where, 5)
        expected = sorted(made, key=lambda r: (-(made.index(r) % 3), made.index(r)))  # fuller rooms first, then age
        assert listed == expected
        two_open = await _all(rooms, RoomFilter("sail_away", 2, {"max_rounds": tag}), 50)
        assert set(two_open) == {r for i, r in enumerate(made) if i % 3 in (0, 1)}

    async def test_entries_of_vanished_or_changed_rooms_are_repaired_not_shown(self, rooms: Rooms) -> None:
        tag = str(uuid.uuid4().int % 900 + 100)
        gone, moved, kept = [await _room(rooms, tag) for _ in range(3)]
        redis = rooms.store.redis
        await redis.delete(keys.room(gone))  # expired, index left behind
        _, room = await rooms.get(moved)
        await redis.zadd(keys.rooms_listed("sail_away"), {moved: 1.0})  # a crash left an old score
        where = RoomFilter("sail_away", 0, {"max_rounds": tag})
        assert await _all(rooms, where, 50) == [kept]
        assert await redis.zscore(keys.rooms_listed("sail_away"), gone) is None
        assert await redis.zscore(keys.ROOMS_LISTED, gone) is None
        assert await redis.zscore(keys.rooms_listed("sail_away"), moved) == listing(room)
        assert await _all(rooms, where, 50) == [moved, kept]  # same open seats: the older first

    async def test_a_room_stored_before_canonical_options_is_listed_and_shown_canonically(self, rooms: Rooms) -> None:
        _, room = await rooms.create(uuid.uuid4().hex, "host", "navegador", 3, {}, public=True, request_id="r")
        version, room = await rooms.get(room["id"])
        room["options"] = {"random_colours": "YES"}  # as rooms were stored before: the client's spelling
        assert await rooms.store.write_room(room["id"], version, room, listing(room)) is not None
        for word in ("true", "on", "1"):
            assert room["id"] in await _all(rooms, RoomFilter("navegador", 0, {"random_colours": word}), 50)
        assert room["id"] not in await _all(rooms, RoomFilter("navegador", 0, {"random_colours": "no"}), 50)
        assert room_options.shown("navegador", 3, room["options"]) == {"random_colours": "true"}
        unreadable = {"random_colours": "maybe"}  # a value these rules no longer take: shown as stored
        assert room_options.shown("navegador", 3, unreadable) == unreadable
