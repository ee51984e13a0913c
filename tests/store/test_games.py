"""Games: created once, described, listed, and seated (the `Store` protocol's game methods)."""

from __future__ import annotations

import pytest

from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, KIND, fill, new_game

pytestmark = pytest.mark.redis


async def test_a_game_is_created_once_and_a_second_create_is_refused(store: RedisStore, uid: str) -> None:
    assert await new_game(store, uid) is True
    assert await new_game(store, uid) is False
    meta = await store.game_meta(uid)
    assert meta is not None
    assert (meta.kind, meta.seat_count, meta.version, meta.status) == (KIND, 2, FIRST, "waiting")
    assert meta.options == {"moves": "9"}
    loaded = await store.load(uid)
    assert loaded is not None
    assert loaded[0] == meta
    assert loaded[1] == b"state-1"


async def test_a_missing_game_is_none_everywhere(store: RedisStore, uid: str) -> None:
    assert await store.game_meta(uid) is None
    assert await store.load(uid) is None
    assert await store.seats(uid) == {}
    assert await store.actions_log(uid) == []
    assert await store.entry_fields_from(uid, 0, 10) == []
    assert (await store.join(uid, "u0", "n", None))[0] == -1


async def test_metas_answer_in_order_across_slots(store: RedisStore, uid: str) -> None:
    ids = [f"{uid}-{i}" for i in range(6)]  # six games: on a cluster, on more than one primary
    for game_id in ids[::2]:
        await new_game(store, game_id)
    metas = await store.metas(ids)
    assert [m.game_id if m else None for m in metas] == [g if i % 2 == 0 else None for i, g in enumerate(ids)]


async def test_a_game_with_its_players_seated_is_reserved_for_them(store: RedisStore, uid: str) -> None:
    seated = [("u0", "ann"), ("u1", "bob")]
    assert await new_game(store, uid, seated=seated) is True
    assert await new_game(store, uid, seated=seated) is False  # the same holders: a retry
    assert await new_game(store, uid, seated=[("u0", "ann"), ("u9", "eve")]) is None  # other holders
    assert {seat: holder["user"] for seat, holder in (await store.seats(uid)).items()} == {0: "u0", 1: "u1"}
    assert (await store.join(uid, "u9", "eve", None))[0] == -5
    meta = await store.game_meta(uid)
    assert meta is not None
    assert meta.status == "active"


async def test_joins_take_open_seats_once_and_the_last_one_starts_the_game(store: RedisStore, uid: str) -> None:
    await new_game(store, uid, seats=2)
    assert await store.join(uid, "u0", "ann", None) == (0, False)
    assert await store.join(uid, "u0", "ann", None) == (0, False)  # the same user: the same seat back
    assert (await store.join(uid, "u0", "ann", 1))[0] == -4  # one user, one seat
    assert (await store.join(uid, "u1", "bob", 0))[0] == -2  # taken
    assert (await store.join(uid, "u1", "bob", 7))[0] == -3  # no such seat
    assert await store.join(uid, "u1", "bob", None) == (1, True)
    assert (await store.join(uid, "u2", "cy", None))[0] == -2  # full
    meta = await store.game_meta(uid)
    assert meta is not None
    assert meta.status == "active"


async def test_listed_games_page_newest_first_by_kind(store: RedisStore, uid: str) -> None:
    ids = [f"{uid}-{i}" for i in range(3)]
    for game_id in ids:
        await new_game(store, game_id)
    listed = [row for row in await store.list_games(KIND, None, 10_000) if row[0].startswith(uid)]
    assert sorted(game_id for game_id, _score in listed) == ids
    assert [score for _g, score in listed] == sorted((score for _g, score in listed), reverse=True)
    newest, score = listed[0]
    below = [g for g, _s in await store.list_games(KIND, score, 10_000)]
    assert newest not in below
    assert {g for g, _s in listed[1:]} <= set(below)
    assert (await store.list_games("", None, 10_000)) != []  # every kind


async def test_an_unstarted_game_expires_and_a_started_one_is_kept(store: RedisStore, uid: str) -> None:
    await new_game(store, uid)
    lifetime_ms = store.lifetimes.unstarted_game_s * 1000
    assert lifetime_ms - 60_000 < await store.expires_in_ms(uid, 0) <= lifetime_ms
    assert await store.expires_in_ms(uid, 5) > 5  # the margin is added
    await fill(store, uid)
    assert await store.expires_in_ms(uid, 5) == 0  # kept for good (until it ends)
