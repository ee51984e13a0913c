"""Private means private: a private room's game is shown only to its seats or with the room's code,
and code guesses lock their subject (issue 23, point 5). Real in-process gateways and a worker on
loopback, real Redis, the production limits; each caller has a fresh address (x-forwarded-for,
trusted from 127.0.0.1) so the per-address buckets are this test's own.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import grpc
import pytest
import redis.asyncio as aioredis

from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.app import join_codes
from flotilla.store import keys
from flotilla.store.lobby_store import ROOM_TTL_S, LobbyStore
from gateway.test_limits import Player, Refusal, add, fresh_address, gateways, refused
from inproc import own_worker

pytestmark = [pytest.mark.redis, pytest.mark.timeout(90)]

WRONG = "WRONG-2345"  # the shape of a code (so it is looked up), never issued: 0/1/O/I are not in the alphabet
PERMISSION = (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_WRONG_JOIN_CODE")


def assert_locked(refusal: Refusal, limit: str) -> None:
    assert (refusal.code, refusal.reason, refusal.limit) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_RATE_LIMITED",
        limit,
    )
    assert refusal.retry_after_s is not None
    assert 60 < refusal.retry_after_s <= 3600  # one wrong code frees every 6 minutes


async def private_room(host: Player, moves: int = 1) -> lb.Room:
    request = lb.CreateRoomRequest(
        kind="counter",
        seat_count=2,
        options={"moves": str(moves)},
        visibility=lb.ROOM_VISIBILITY_PRIVATE,
        request_id=uuid.uuid4().hex,
    )
    return (await host.lobby().CreateRoom(request, metadata=host.md())).room


async def started(host: Player, friend: Player) -> tuple[lb.Room, str]:
    """A private counter room the friend joined by its code alone (typed loosely), started.
    Returns the room and the host's seat token."""
    room = await private_room(host)
    typed = f" {room.join_code[:4].lower()}-{room.join_code[4:]} "
    joined = await friend.lobby().JoinRoom(lb.JoinRoomRequest(join_code=typed), metadata=friend.md())
    assert joined.room.name == room.name
    await friend.lobby().SetReady(lb.SetReadyRequest(room=room.name, ready=True), metadata=friend.md())
    start = await host.lobby().StartRoom(lb.StartRoomRequest(room=room.name), metadata=host.md())
    return start.room, start.seat_token


def game_calls(caller: Player, game: str, token: str | None) -> dict[str, Callable[[str], Awaitable[Any]]]:
    """Every call that shows a game, given a join code; `token` None: anonymous."""
    md = [("x-forwarded-for", caller.address)] + ([("authorization", f"Bearer {token}")] if token else [])

    async def watch(code: str) -> Any:
        call = caller.games().WatchGame(game_service_pb2.WatchGameRequest(game=game, join_code=code), metadata=md)
        try:
            return await call.read()
        finally:
            call.cancel()

    async def play(code: str) -> Any:
        opening = game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=game, join_code=code))
        call = caller.games().Play(iter([opening]), metadata=md)
        try:
            return await call.read()
        finally:
            call.cancel()

    g = game_service_pb2
    return {
        "GetGame": lambda code: caller.games().GetGame(g.GetGameRequest(game=game, join_code=code), metadata=md),
        "GetView": lambda code: caller.games().GetView(g.GetViewRequest(game=game, join_code=code), metadata=md),
        "WatchGame": watch,
        "Play": play,
        "GetGameRecord": lambda code: caller.games().GetGameRecord(
            g.GetGameRecordRequest(game=game, join_code=code), metadata=md
        ),
        "GetViewAt": lambda code: caller.games().GetViewAt(
            g.GetViewAtRequest(game=game, event_id=1, join_code=code), metadata=md
        ),
    }


async def test_every_call_that_shows_a_private_game_needs_a_seat_or_the_code(redis_url: str) -> None:
    async with gateways(redis_url, "") as running, own_worker(redis_url):
        targets = [f"127.0.0.1:{g.port}" for g in running]
        host, friend = [await Player(targets, fresh_address()).sign_in(n) for n in ("host", "friend")]
        stranger = await Player(targets, fresh_address()).sign_in("stranger")
        anonymous = Player(targets, fresh_address())
        room, seat_token = await started(host, friend)
        assert len(room.join_code) == join_codes.LENGTH
        assert set(room.join_code) <= set(join_codes.ALPHABET)
        # Seat 0 (the host) plays the one move: the game is over, so records and views-at exist.
        submit = game_service_pb2.SubmitActionRequest(game=room.game, action=add(1), request_id="only")
        await host.games().SubmitAction(submit, metadata=host.md(seat_token), timeout=20)
        before = (await host.games().GetGame(game_service_pb2.GetGameRequest(game=room.game), metadata=host.md())).game
        assert before.state == game_pb2.GAME_STATE_FINISHED
        for name, call in game_calls(friend, room.game, friend.token).items():
            assert await call(""), name  # a seat in it: no code needed
        for caller, token in ((stranger, stranger.token), (anonymous, None)):
            for name, call in game_calls(caller, room.game, token).items():
                refusal = await refused(call(""))
                assert (refusal.code, refusal.reason) == PERMISSION, name
                assert await call(room.join_code.lower()), name  # the code, in any case
        # The refusals changed nothing: the same seats, version and result.
        after = (await host.games().GetGame(game_service_pb2.GetGameRequest(game=room.game), metadata=host.md())).game
        assert after == before


async def test_guessing_codes_locks_the_guesser_even_for_the_right_code(redis_url: str) -> None:
    async with gateways(redis_url, "") as running:
        targets = [f"127.0.0.1:{g.port}" for g in running]
        host = await Player(targets, fresh_address()).sign_in("host")
        room = await private_room(host)
        guesser_address = fresh_address()
        member = await Player(targets, guesser_address).sign_in("member")  # behind the same NAT as the guesser
        await member.lobby().JoinRoom(
            lb.JoinRoomRequest(room=room.name, join_code=room.join_code), metadata=member.md()
        )
        get_room = host.lobby().GetRoom(lb.GetRoomRequest(room=room.name), metadata=host.md())
        version = (await get_room).room.version
        first, second, third = [await Player(targets, guesser_address).sign_in("g") for _ in range(3)]

        async def guess(player: Player, code: str, how: int) -> Any:
            if how % 3 == 0:
                return await player.lobby().GetRoom(
                    lb.GetRoomRequest(room=room.name, join_code=code), metadata=player.md()
                )
            if how % 3 == 1:
                return await player.lobby().JoinRoom(lb.JoinRoomRequest(join_code=code), metadata=player.md())
            return await player.lobby().JoinRoom(
                lb.JoinRoomRequest(room=room.name, join_code=code), metadata=player.md()
            )

        # A user: 10 wrong codes, then locked (per user), whatever the code.
        for i in range(10):
            refusal = await refused(guess(first, WRONG, i))
            assert (refusal.code, refusal.reason) == PERMISSION
        for i in range(3):
            assert_locked(await refused(guess(first, WRONG, i)), "code_guess_per_user")
            assert_locked(await refused(guess(first, room.join_code, i)), "code_guess_per_user")
        # Other users of the same address: 20 wrong codes in all lock the address.
        for i in range(10):
            refusal = await refused(guess(second, WRONG, i))
            assert (refusal.code, refusal.reason) == PERMISSION
        for i in range(3):
            assert_locked(await refused(guess(third, room.join_code, i)), "code_guess_per_address")
        # Nothing changed: the room is as it was, no one else joined it.
        after = (await host.lobby().GetRoom(lb.GetRoomRequest(room=room.name), metadata=host.md())).room
        assert after.version == version
        assert [s.user for s in after.seats if s.taken] == [f"users/{host.user}", f"users/{member.user}"]
        # A member needs no code, so the locked address does not lock it out of its own room (clients
        # send the code they keep anyway).
        mine = lb.GetRoomRequest(room=room.name, join_code=room.join_code)
        assert (await member.lobby().GetRoom(mine, metadata=member.md())).room.version == version
        again = lb.JoinRoomRequest(room=room.name, join_code=room.join_code)
        assert (await member.lobby().JoinRoom(again, metadata=member.md())).room.version == version
        # Another address and user with the right code is not concerned.
        friend = await Player(targets, fresh_address()).sign_in("friend")
        found = await friend.lobby().GetRoom(lb.GetRoomRequest(join_code=room.join_code), metadata=friend.md())
        assert found.room.name == room.name


async def test_anonymous_guesses_at_a_private_game_lock_the_address(redis_url: str) -> None:
    async with gateways(redis_url, "") as running:
        targets = [f"127.0.0.1:{g.port}" for g in running]
        host, friend = [await Player(targets, fresh_address()).sign_in(n) for n in ("host", "friend")]
        room, _ = await started(host, friend)
        anonymous = Player(targets, fresh_address())
        calls = game_calls(anonymous, room.game, None)
        watchers = [calls["GetView"], calls["WatchGame"], calls["Play"]]
        for i in range(20):
            refusal = await refused(watchers[i % 3](WRONG))
            assert (refusal.code, refusal.reason) == PERMISSION
        for call in watchers:
            assert_locked(await refused(call(WRONG)), "code_guess_per_address")
            assert_locked(await refused(call(room.join_code)), "code_guess_per_address")
        # A caller without a code guesses nothing and is told so (not counted, not locked out of public games).
        refusal = await refused(calls["GetView"](""))
        assert (refusal.code, refusal.reason) == PERMISSION


async def test_codes_are_short_found_alone_and_old_codes_still_work(redis_url: str) -> None:
    redis = aioredis.Redis.from_url(redis_url)
    store = LobbyStore(redis)
    try:
        async with gateways(redis_url, "") as running:
            targets = [f"127.0.0.1:{g.port}" for g in running]
            host, friend = [await Player(targets, fresh_address()).sign_in(n) for n in ("host", "friend")]
            room = await private_room(host)
            room_id = room.name.removeprefix("rooms/")
            assert await redis.get(keys.room_code(room.join_code)) == room_id.encode()
            # A room stored before codes were 8 long keeps its 6-character code, with the room's name.
            row = await store.room(room_id)
            assert row is not None
            version, data = row
            data["code"] = "ABC234"
            assert await store.write_room(room_id, version, data, None) is not None
            joined = await friend.lobby().JoinRoom(
                lb.JoinRoomRequest(room=room.name, join_code="abc234"), metadata=friend.md()
            )
            assert joined.room.join_code == "ABC234"
            # A code that names no room is a wrong code, like any other.
            stranger = await Player(targets, fresh_address()).sign_in("stranger")
            refusal = await refused(
                stranger.lobby().GetRoom(lb.GetRoomRequest(join_code=WRONG), metadata=stranger.md())
            )
            assert (refusal.code, refusal.reason) == PERMISSION
    finally:
        await store.close()
        await redis.aclose()


async def test_a_rooms_code_lives_as_long_as_the_room(redis_url: str) -> None:
    """Every change renews the room's life and its code's: a room kept busy past the code's first
    lifetime is still found by its code alone (and the code is not free for another room)."""
    redis = aioredis.Redis.from_url(redis_url)
    try:
        async with gateways(redis_url, "") as running:
            targets = [f"127.0.0.1:{g.port}" for g in running]
            host, friend = [await Player(targets, fresh_address()).sign_in(n) for n in ("host", "friend")]
            room = await private_room(host)
            code_key = keys.room_code(room.join_code)
            await redis.expire(code_key, 60)  # as if the room were created a day ago, less a minute
            await friend.lobby().JoinRoom(lb.JoinRoomRequest(join_code=room.join_code), metadata=friend.md())
            assert await redis.ttl(code_key) > ROOM_TTL_S - 60  # renewed with the room
            found = await friend.lobby().GetRoom(lb.GetRoomRequest(join_code=room.join_code), metadata=friend.md())
            assert found.room.name == room.name
    finally:
        await redis.aclose()
