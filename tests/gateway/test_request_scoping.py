"""Request ids are scoped: to (game, seat) for actions, to the user for CreateGame.

Each test reproduces, through the public gRPC API of real gateways and a worker in the test process
(tests/inproc.py), a collision that used to hand one client another's answer (issue 10, item 1).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
import redis.asyncio as aioredis

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby_pb
from flotilla.api.lobby.v1 import lobby_service_pb2_grpc
from flotilla.worker.loop import work_streams
from flotilla_client import FlotillaClient, Seat
from inproc import InProcess

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


async def counter_game(
    target: str, clock: game_pb2.Clock | None = None, moves: int = 200
) -> tuple[FlotillaClient, str, list[Seat]]:
    """A two-seat counter game on `target` with both seats taken (seat 0 acts first)."""
    host = FlotillaClient(target)
    await host.sign_in("host")
    request = game_service_pb2.CreateGameRequest(
        kind="counter", seat_count=2, options={"moves": str(moves)}, request_id=uuid.uuid4().hex
    )
    if clock is not None:
        request.clock.CopyFrom(clock)
    reply = await host.games.CreateGame(request, metadata=host._auth(host.session_token))
    other = FlotillaClient(target)
    await other.sign_in("other")
    seats = [await host.join(reply.game.name), await other.join(reply.game.name)]
    await other.close()
    return host, reply.game.name, seats


async def queued(redis_url: str, request_id: str, count: int, timeout_s: float = 10) -> None:
    """Wait until `count` work entries with this request id are in the counter work streams."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            found = 0
            for stream in work_streams(4, ["counter"]):
                for _id, fields in await client.xrevrange(stream, count=200):
                    found += fields.get(b"r") == request_id.encode()
            if found >= count:
                return
            assert time.monotonic() < deadline, f"only {found} of {count} submissions reached the work streams"
            await asyncio.sleep(0.02)
    finally:
        await client.aclose()


async def test_two_seats_of_one_game_may_use_the_same_request_id(inproc: InProcess) -> None:
    host, game, (first, second) = await counter_game(inproc.gateways[0])
    request_id = uuid.uuid4().hex
    mine = await host.submit(game, first, add(1), request_id=request_id)
    theirs = await host.submit(game, second, add(2), request_id=request_id)
    assert mine.through_event_id == 2
    assert theirs.through_event_id == 3, "seat 1 got seat 0's outcome"
    assert [e.counter.added.seat for e in theirs.events] == [1]
    view = await host.view(game)
    assert (view.view.counter.total, view.view.counter.count) == (3, 2)
    # A resend by either seat is still answered from its own record.
    again = await host.submit(game, second, add(2), request_id=request_id)
    assert again.etag == theirs.etag
    assert (await host.view(game)).view.counter.count == 2
    await host.close()


async def test_two_games_in_flight_on_one_gateway_with_the_same_request_id_get_their_own_answers(
    inproc: InProcess,
) -> None:
    target = inproc.gateways[0]
    x_host, x_game, (x_seat, _) = await counter_game(target)
    y_host, y_game, (y_seat, _) = await counter_game(target)
    request_id = uuid.uuid4().hex
    async with inproc.workers_paused():
        x_call = asyncio.create_task(x_host.submit(x_game, x_seat, add(7), request_id=request_id))
        y_call = asyncio.create_task(y_host.submit(y_game, y_seat, add(9), request_id=request_id))
        await queued(inproc.redis_url, request_id, 2)  # both wait on the gateway before any answer
    x_reply, y_reply = await asyncio.gather(x_call, y_call)
    # Each seat then watches its game from before its move on the same gateway (whose render
    # cache saw both answers): each must be streamed its own game's event.
    x_seen = await first_events(x_host, x_game, x_seat)
    y_seen = await first_events(y_host, y_game, y_seat)
    assert [e.counter.added.n for e in x_reply.events] == [7], "game X's client got game Y's answer"
    assert [e.counter.added.n for e in y_reply.events] == [9], "game Y's client got game X's answer"
    assert x_seen == [(2, 7)], "game X's watcher was streamed game Y's event"
    assert y_seen == [(2, 9)], "game Y's watcher was streamed game X's event"
    assert (await x_host.view(x_game)).view.counter.total == 7
    assert (await y_host.view(y_game)).view.counter.total == 9
    await x_host.close()
    await y_host.close()


async def first_events(client: FlotillaClient, game: str, seat: Seat) -> list[tuple[int, int]]:
    """(event id, n) of the first events `seat` is streamed after event 1."""
    async for update in client.watch(game, seat, after_event_id=1):
        if update.events:
            return [(e.event_id, e.counter.added.n) for e in update.events]
    return []


async def test_two_users_creating_games_with_the_same_request_id_get_two_games(inproc: InProcess) -> None:
    request_id = uuid.uuid4().hex
    names = []
    for i, target in enumerate(inproc.gateways):
        client = FlotillaClient(target)
        await client.sign_in(f"creator{i}")
        request = game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, request_id=request_id)
        first = await client.games.CreateGame(request, metadata=client._auth(client.session_token))
        again = await client.games.CreateGame(request, metadata=client._auth(client.session_token))
        assert again.game.name == first.game.name  # the same user's retry: the same game
        names.append(first.game.name)
        await client.close()
    assert names[0] != names[1], "the second user got the first user's game"


async def test_a_seat_cannot_spoil_its_own_clock_with_a_server_request_id(inproc: InProcess) -> None:
    """The worker's own request ids (turn clocks) are out of reach of a client's request ids."""
    host, game, (first, _second) = await counter_game(inproc.gateways[0], game_pb2.Clock(turn_seconds=1))
    version = (await host.get_game(game)).last_event_id
    for request_id in (f"clock:{version}:0", f"clock:{version}", "clock"):
        with pytest.raises(Exception, match="within"):  # n out of range: a cached rules rejection
            await host.submit(game, first, add(10**9), request_id=request_id)
    timed_out = []
    async with asyncio.timeout(15):
        async for update in host.watch(game, after_event_id=version):
            timed_out += [e.seat_timed_out.seat for e in update.events if e.WhichOneof("event") == "seat_timed_out"]
            if timed_out:
                break
    assert timed_out == [0]
    await host.close()


async def test_a_user_cannot_take_a_rooms_game_by_naming_its_request_id(inproc: InProcess) -> None:
    """A room's game is created under a server key (`room:<id>`) that no user's request id can name."""
    host = FlotillaClient(inproc.gateways[0])
    await host.sign_in("host")
    lobby = lobby_service_pb2_grpc.LobbyServiceStub(host.channel)  # type: ignore[no-untyped-call]
    auth = host._auth(host.session_token)
    room = (
        await lobby.CreateRoom(
            lobby_pb.CreateRoomRequest(kind="sail_away", seat_count=2, request_id=uuid.uuid4().hex), metadata=auth
        )
    ).room
    room_id = room.name.removeprefix("rooms/")
    thief = FlotillaClient(inproc.gateways[1])
    await thief.sign_in("thief")
    taken = await thief.games.CreateGame(
        game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, request_id=f"room:{room_id}"),
        metadata=thief._auth(thief.session_token),
    )
    await lobby.AddBot(lobby_pb.AddBotRequest(room=room.name), metadata=auth)
    started = (await lobby.StartRoom(lobby_pb.StartRoomRequest(room=room.name), metadata=auth)).room
    assert started.game != taken.game.name
    assert (await host.get_game(started.game)).kind == "sail_away"
    await host.close()
    await thief.close()


async def test_a_resent_leave_is_applied_once_and_the_other_seat_may_reuse_its_id(inproc: InProcess) -> None:
    host, game, seats = await counter_game(inproc.gateways[0], game_pb2.Clock(), moves=4)  # bots play the absent
    auth = [host._auth(seat.token) for seat in seats]
    leave = game_service_pb2.LeaveGameRequest(game=game, request_id="leaving")
    first = await host.games.LeaveGame(leave, metadata=auth[1])
    again = await host.games.LeaveGame(leave, metadata=auth[1])  # a retry: answered from its record
    assert again.etag == first.etag
    await host.games.LeaveGame(leave, metadata=auth[0])  # seat 0's own request, same id
    info = await host.get_game(game)
    assert [s.absent for s in info.seats] == [True, True]
    absent = []
    async with asyncio.timeout(20):
        async for update in host.watch(game, after_event_id=1):
            absent += [e.seat_absent.seat for e in update.events if e.WhichOneof("event") == "seat_absent"]
            if len(absent) == 2:
                break
    assert sorted(absent) == [0, 1]
    await host.close()
