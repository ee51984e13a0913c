"""Rooms own their games, one user holds one seat (issue 23, point 4 and the re-join token of 11).

Through real gateways and a worker (in the test process, tests/inproc.py) at default settings:
outsiders race for a public room's game as it starts, a user asks for a second seat, a start fails
and reopens the room, a player who left asks for a new seat token. Each refusal is checked to change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator

import grpc
import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.app.games import created_game_id
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, FlotillaError
from inproc import InProcess
from support import until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

ROUNDS = 6  # the finding's attack: outsiders got seats in 6 of 6 rounds
OUTSIDERS = 3


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


@contextlib.asynccontextmanager
async def signed_in(target: str, *names: str) -> AsyncIterator[list[FlotillaClient]]:
    clients = [FlotillaClient(target) for _ in names]
    try:
        for client, name in zip(clients, names, strict=True):
            await client.sign_in(name)
        yield clients
    finally:
        for client in clients:
            await client.close()


async def refused(call: object) -> FlotillaError:
    with pytest.raises(FlotillaError) as caught:
        await call  # type: ignore[misc]
    return caught.value


async def ready_room(host: FlotillaClient, guest: FlotillaClient) -> lb.Room:
    """A public counter room with `host` and `guest` seated and ready."""
    room = await host.create_room("counter", 2, {"moves": "50"}, request_id=uuid.uuid4().hex)
    await guest.join_room(room.name)
    await guest.set_ready(room.name)
    return room


async def outsider(client: FlotillaClient, room: str, before: set[str], opened: asyncio.Event) -> list[tuple[str, str]]:
    """What an attacker of the finding does: watch the public room, and once it turns STARTING or
    STARTED, join the game its id would derive from the room's, any new waiting game, and the
    room's game (any seat, then each seat by number). Returns (what, ErrorInfo reason or "seated")."""
    tried: list[tuple[str, str]] = []

    async def join(what: str, game: str, seat: int | None = None) -> None:
        try:
            await client.join(game, seat)
            tried.append((what, "seated"))
        except FlotillaError as error:
            tried.append((what, error.reason))

    legacy = "games/" + created_game_id(f"room:{room.removeprefix('rooms/')}", None)
    async for update in client.watch_room(room):
        opened.set()
        if not update.HasField("room") or update.room.state == lb.ROOM_STATE_OPEN:
            continue
        await join("derived id", legacy)
        waiting = await client.list_games("counter", game_pb2.GAME_STATE_WAITING, page_size=500)
        for game in (g.name for g in waiting.games if g.name not in before):
            await join("new waiting game", game)
        if update.room.state == lb.ROOM_STATE_STARTED:
            await join("room's game", update.room.game)
            for seat in range(update.room.seat_count):
                await join(f"room's game, seat {seat}", update.room.game, seat)
            break
    return tried


async def test_outsiders_racing_for_a_public_rooms_seats_are_refused_and_the_start_succeeds(inproc: InProcess) -> None:
    names = ("host", "guest", *(f"outsider-{i}" for i in range(OUTSIDERS)))
    async with (
        signed_in(inproc.gateways[0], *names[:2]) as (host, guest),
        signed_in(inproc.gateways[1], *names[2:]) as outsiders,
    ):
        for round_ in range(ROUNDS):
            # the two members take turns hosting: a started room counts in its host's
            # open_rooms_per_user (5) until its game is over, and these games are left unfinished
            first, second = (host, guest) if round_ % 2 == 0 else (guest, host)
            room = await ready_room(first, second)
            listed = await first.list_games("counter", game_pb2.GAME_STATE_WAITING, page_size=500)
            before = {g.name for g in listed.games}
            opened = [asyncio.Event() for _ in outsiders]
            attacks = [
                asyncio.create_task(outsider(o, room.name, before, e)) for o, e in zip(outsiders, opened, strict=True)
            ]
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 20)  # all watch the room
            started = await first.start_room(room.name)
            assert started.room.state == lb.ROOM_STATE_STARTED
            assert not started.room.start_error
            tried = [t for attack in await asyncio.wait_for(asyncio.gather(*attacks), 30) for t in attack]
            # Every outsider saw the room start and was refused every seat: the derived id names no
            # game, and the room's game is reserved for the room's players.
            assert {what for what, _ in tried} >= {"derived id", "room's game", "room's game, seat 0"}
            assert all(reason != "seated" for _, reason in tried), tried
            assert {r for w, r in tried if w == "derived id"} == {"ERROR_REASON_GAME_NOT_FOUND"}
            assert {r for w, r in tried if w.startswith("room's game")} == {"ERROR_REASON_NOT_SEATED"}
            assert not [w for w, _ in tried if w == "new waiting game"]  # the game never waited for players
            # ... and the refusals changed nothing: the room's players hold the seats, the game is unmoved.
            game = await first.get_game(started.room.game)
            assert [s.user for s in game.seats] == [first.user, second.user]
            assert game.state == game_pb2.GAME_STATE_ACTIVE
            assert game.last_event_id == 1
            assert started.room.game.removeprefix("games/") != created_game_id(f"room:{room.name[6:]}", None)
            seat = await first.join(started.room.game)
            assert seat.seat == 0
            assert (await first.submit(started.room.game, seat, add(1))).through_event_id == 2


async def test_one_user_never_holds_two_seats(inproc: InProcess) -> None:
    async with signed_in(inproc.gateways[0], "one", "two") as (one, two):
        game = await one.create_game("counter", 2, {"moves": "50"})
        assert (await one.join(game.name, 0)).seat == 0
        error = await refused(one.join(game.name, 1))
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_GAME_FULL")
        assert error.metadata["seat"] == "0"
        assert "one user holds one seat" in error.message
        after = await one.get_game(game.name)
        assert [s.taken for s in after.seats] == [True, False]  # nothing changed: seat 1 is still open
        assert after.state == game_pb2.GAME_STATE_WAITING
        assert (await one.join(game.name)).seat == 0  # asking again answers the seat it holds
        assert (await one.join(game.name, 0)).seat == 0
        assert (await two.join(game.name, 1)).seat == 1  # another user takes the open seat
        # In a room's game too: a member asking for another member's seat is refused.
        room = await ready_room(one, two)
        started = await one.start_room(room.name)
        error = await refused(two.join(started.room.game, 0))
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_GAME_FULL")
        assert (await two.join(started.room.game)).seat == 1
        assert [s.user for s in (await one.get_game(started.room.game)).seats] == [one.user, two.user]


async def test_a_start_that_fails_seats_no_one_and_reopens_the_room_with_its_reason(inproc: InProcess) -> None:
    """A start whose game cannot be made seats nobody, and the room is open again, showing why.

    The state the finding left rooms in: a start frozen (`starting`) whose game already exists with
    other holders (there, outsiders who took seats). Set up in Redis, as a start that began before
    this change would have left it; the host's retried StartRoom finishes it."""
    async with signed_in(inproc.gateways[0], "host", "guest", "outsider") as (host, guest, stranger):
        taken = await stranger.create_game("counter", 2, {"moves": "50"})
        await stranger.join(taken.name, 0)
        room = await ready_room(host, guest)
        room_id = room.name.removeprefix("rooms/")
        store = RedisStore.from_url(inproc.redis_url)
        try:
            lobby = LobbyStore(store.redis)
            version, stored = await lobby.room(room_id)  # type: ignore[misc]
            stored["status"], stored["game_key"] = "starting", uuid.uuid4().hex
            assert await lobby.write_room(room_id, version, stored, None) == version + 1
            await lobby.mark_starting(room_id, int(time.time() * 1000))
            clash = created_game_id(f"room:{stored['game_key']}", None)
            source = taken.name.removeprefix("games/")
            for key in (keys.game, keys.game_seats):
                assert await store.redis.copy(key(source), key(clash))
            error = await refused(host.start_room(room.name))
            assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_GAME_FULL")
            # No one of the room was seated anywhere; the clashing game is as it was.
            outsider = {"user": stranger.user.removeprefix("users/"), "name": "outsider", "kind": "guest"}
            assert await store.seats(clash) == {0: outsider}
            reopened = (await guest.get_room(room.name)).room
            assert reopened.state == lb.ROOM_STATE_OPEN
            assert reopened.start_error.startswith("ERROR_REASON_GAME_FULL: ")
            assert not reopened.game
            assert [s.user for s in reopened.seats] == [host.user, guest.user]
            assert not await store.redis.zscore(keys.ROOMS_STARTING, room_id)  # nothing left for the healer
        finally:
            await store.close()
        # The host starts again: a new game, everyone seated, the reason gone.
        started = await host.start_room(room.name)
        assert started.room.state == lb.ROOM_STATE_STARTED
        assert not started.room.start_error
        assert [s.user for s in (await host.get_game(started.room.game)).seats] == [host.user, guest.user]


async def test_a_seat_that_left_gets_no_new_token(inproc: InProcess) -> None:
    """Leave, then ask again (JoinGame, GetRoom): no token, so none outlives the revocation record."""
    async with signed_in(inproc.gateways[0], "host", "guest") as (host, guest):
        room = await ready_room(host, guest)
        started = await host.start_room(room.name)
        game = started.room.game
        seat = await host.join(game)
        await host.leave(seat)
        error = await refused(host.join(game))
        assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_SEAT_ABSENT")
        error = await refused(host.join(game, 0))
        assert error.reason == "ERROR_REASON_SEAT_ABSENT"
        again = await host.get_room(room.name)
        assert again.room.state == lb.ROOM_STATE_STARTED
        assert not again.seat_token  # the room gives no token for a seat that left either
        assert (await guest.get_room(room.name)).seat_token  # the player still seated gets its token
        updates = [u async for u in host.watch_room(room.name)]
        assert not updates[-1].seat_token
        # The refusals changed nothing: the seat is still the host's, absent, and the game goes on.
        after = await host.get_game(game)
        assert [s.user for s in after.seats] == [host.user, guest.user]
        other = await guest.join(game)

        async def guests_turn() -> bool:  # the absent seat's turn is played for it
            return list((await guest.get_game(game)).to_act) == [1]

        await until(guests_turn, 20, "the absent seat's turn to be played for it")
        assert (await guest.submit(game, other, add(1))).through_event_id >= 3
