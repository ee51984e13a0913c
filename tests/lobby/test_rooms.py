"""Rooms over real gateways and a worker (in the test process, tests/inproc.py) and a matchmaker
(bot runner, a process): create to finished game."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest

from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as pb
from flotilla.bots.command import run as run_bot_command
from flotilla.cli import build_parser
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, Seat, play_random
from inproc import InProcess
from lobby.mm_support import Player, reason_of, start_matchmaker, stop
from support import stack_limits, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

# One host here makes 48 rooms in a row and watches 150 at once: more than a user's defaults allow.
ROOM_LOAD = (
    "create_room_per_user=off",
    "open_rooms_per_user=off",
    "stream_open_per_user=off",
    "streams_per_user=1000",
    "streams_per_connection=1000",
)


INPROC_SETTINGS = {"limits": stack_limits(*ROOM_LOAD)}  # the module's `inproc` (tests/inproc.py)


@pytest.fixture(scope="module")
def matchmaker(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # Grace 6 s: three of the gateways' 2 s heartbeats, so a loaded machine does not free a seat whose
    # player still watches (with 3 s, one heartbeat a second late would).
    proc = start_matchmaker(inproc, tmp_path_factory.mktemp("mm"), "rooms", FLOTILLA_ROOM_GRACE="6")
    yield
    stop(proc)


@pytest.fixture
async def players(inproc: InProcess) -> AsyncIterator[list[Player]]:
    made = [await Player.signed_in(inproc.gateways[i % 2], f"p{i}") for i in range(3)]
    yield made
    for player in made:
        await player.close()


async def _refused(coro: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await coro  # type: ignore[misc]
    return caught.value.code(), reason_of(caught.value)


def _create(kind: str = "counter", seats: int = 2, public: bool = True, **opts: str) -> pb.CreateRoomRequest:
    return pb.CreateRoomRequest(
        kind=kind,
        seat_count=seats,
        options=opts,
        visibility=pb.ROOM_VISIBILITY_PUBLIC if public else pb.ROOM_VISIBILITY_PRIVATE,
        request_id=uuid.uuid4().hex,
    )


async def _finish(game: str, client: FlotillaClient) -> None:
    async for _ in client.watch(game):
        pass


class TestRoomToGame:
    async def test_a_human_and_a_bot_play_a_room_game_to_the_end(self, matchmaker: None, players: list[Player]) -> None:
        """The host adds a bot, watches the room start, gets a seat token and plays; the bot plays its seat."""
        host = players[0]
        room = (await host.call(host.lobby, "CreateRoom", _create(moves="20"))).room
        assert room.state == pb.ROOM_STATE_OPEN
        assert abs(room.create_time.ToMilliseconds() - time.time() * 1000) < 60_000
        assert room.seats[0].user == f"{host.user}"
        watch = host.lobby.WatchRoom(pb.WatchRoomRequest(room=room.name), metadata=host.md)
        first = await asyncio.wait_for(watch.read(), 10)
        room = (await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))).room
        assert room.seats[1].bot_policy == "random"
        assert room.seats[1].ready
        started = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
        assert started.room.state == pb.ROOM_STATE_STARTED
        assert started.seat_token
        seen = [first]
        while (message := await watch.read()) != grpc.aio.EOF:
            seen.append(message)
        assert seen[0].room.version == 1
        versions = [m.room.version for m in seen if not m.is_checkpoint]
        assert versions == list(range(1, len(versions) + 1))
        assert seen[-1].room.state == pb.ROOM_STATE_STARTED
        assert seen[-1].seat_token
        await asyncio.wait_for(
            play_random(host.client, Seat(started.room.game, 0, started.seat_token), random.Random(1)), 60
        )
        final = await host.client.get_game(started.room.game)
        assert final.last_event_id == 22  # started + 20 moves + finished

    async def test_flotilla_bot_takes_a_room_seat_and_plays_its_game_to_the_end(
        self, players: list[Player], inproc: InProcess, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`flotilla bot --policy heuristic --room ID` (its code, in process) joins, gets ready, and
        once the host starts the room plays its seat until the game is over."""
        host = players[0]
        room = (await host.call(host.lobby, "CreateRoom", _create(moves="12"))).room
        where = ["--room", room.name.removeprefix("rooms/"), "--target", inproc.gateways[1], "--name", "roombot"]
        args = build_parser().parse_args(["bot", "--policy", "heuristic", *where])
        bot = asyncio.create_task(run_bot_command(args, None))

        async def bot_seated_and_ready() -> bool:
            assert not bot.done(), capsys.readouterr().out
            seen = (await host.call(host.lobby, "GetRoom", pb.GetRoomRequest(room=room.name))).room
            return seen.seats[1].display_name == "roombot" and seen.seats[1].ready

        try:
            await until(bot_seated_and_ready, 30, "the bot in the room, ready", every_s=0.05)
            started = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
            game = started.room.game
            await asyncio.wait_for(play_random(host.client, Seat(game, 0, started.seat_token), random.Random(7)), 60)
            code = await asyncio.wait_for(bot, 60)
        finally:
            bot.cancel()
        text = capsys.readouterr().out
        assert code == 0, text[-2000:]
        assert f"{game}: game over (finished), scores [" in text
        assert "], 6 decisions, 0 fallbacks" in text  # 12 moves, every other one the bot's
        final = await host.client.get_game(game)
        assert final.state == game_pb2.GAME_STATE_FINISHED
        assert final.seats[1].display_name == "roombot"
        assert not final.seats[1].absent  # the bot played it, not the server
        assert final.seats[1].timeouts == 0

    async def test_two_humans_and_bots_mixed_finish_a_sail_away_room(
        self, matchmaker: None, players: list[Player]
    ) -> None:
        host, guest = players[0], players[1]
        room = (await host.call(host.lobby, "CreateRoom", _create("sail_away", 3, public=False))).room
        assert room.join_code
        for wrong in ("WRONG1", "", "ÄÖÜ✓"):
            code, reason = await _refused(
                guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name, join_code=wrong))
            )
            assert code == grpc.StatusCode.PERMISSION_DENIED
            assert reason == "ERROR_REASON_WRONG_JOIN_CODE"
        code, reason = await _refused(guest.call(guest.lobby, "GetRoom", pb.GetRoomRequest(room=room.name)))
        assert reason == "ERROR_REASON_WRONG_JOIN_CODE"
        room = (
            await guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name, join_code=room.join_code))
        ).room
        await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))
        code, reason = await _refused(host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name)))
        assert code == grpc.StatusCode.FAILED_PRECONDITION
        assert reason == "ERROR_REASON_ROOM_NOT_READY"
        await guest.call(guest.lobby, "SetReady", pb.SetReadyRequest(room=room.name, ready=True))
        started = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
        again = await guest.call(guest.lobby, "GetRoom", pb.GetRoomRequest(room=room.name))
        assert again.room.game == started.room.game
        assert again.seat_token
        game = started.room.game
        # A private room's game: spectators need the room's code; it is not listed.
        stranger = players[2]
        view = game_service_pb2.GetViewRequest(game=game)
        code, reason = await _refused(stranger.call(stranger.client.games, "GetView", view))
        assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_WRONG_JOIN_CODE")
        view.join_code = room.join_code.lower()
        assert (await stranger.call(stranger.client.games, "GetView", view)).view.game == game
        listed = await stranger.client.list_games("sail_away", page_size=500)
        assert game not in [g.name for g in listed.games]
        await asyncio.wait_for(
            asyncio.gather(
                play_random(host.client, Seat(game, 0, started.seat_token), random.Random(2)),
                play_random(guest.client, Seat(game, 1, again.seat_token), random.Random(3)),
            ),
            120,
        )
        final = await host.client.get_game(game)
        assert final.state == 3 or final.result.ranks  # finished: a result with ranks


class TestStuckStart:
    async def test_a_start_left_midway_is_finished_by_a_matchmaker(
        self, matchmaker: None, players: list[Player], inproc: InProcess
    ) -> None:
        """The gateway that began a start died after freezing the room: a matchmaker makes the game."""
        host = players[0]
        room = (await host.call(host.lobby, "CreateRoom", _create(moves="10"))).room
        room = (await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))).room
        store = RedisStore.from_url(inproc.redis_url)
        try:
            lobby = LobbyStore(store.redis)
            room_id = room.name.removeprefix("rooms/")
            version, stored = await lobby.room(room_id)  # type: ignore[misc]
            stored["status"] = "starting"
            assert await lobby.write_room(room_id, version, stored, None) == version + 1
            await lobby.mark_starting(room_id, int(time.time() * 1000) - 60_000)
        finally:
            await store.close()
        call = host.lobby.WatchRoom(pb.WatchRoomRequest(room=room.name), metadata=host.md)
        last = None
        while (message := await asyncio.wait_for(call.read(), 20)) != grpc.aio.EOF:
            last = message
        assert last is not None
        assert last.room.state == pb.ROOM_STATE_STARTED
        seat = Seat(last.room.game, 0, last.seat_token)
        await asyncio.wait_for(play_random(host.client, seat, random.Random(4)), 60)
        assert (await host.client.get_game(last.room.game)).last_event_id == 12


class TestRoomRules:
    async def test_only_the_host_kicks_and_hands_over(self, players: list[Player]) -> None:
        host, guest, other = players
        room = (await host.call(host.lobby, "CreateRoom", _create("sail_away", 3))).room
        await guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name))
        code, reason = await _refused(guest.call(guest.lobby, "KickSeat", pb.KickSeatRequest(room=room.name, seat=0)))
        assert code == grpc.StatusCode.PERMISSION_DENIED
        assert reason == "ERROR_REASON_NOT_ROOM_HOST"
        room = (
            await host.call(host.lobby, "TransferHost", pb.TransferHostRequest(room=room.name, user=guest.user))
        ).room
        assert room.host == guest.user
        room = (await guest.call(guest.lobby, "KickSeat", pb.KickSeatRequest(room=room.name, seat=0))).room
        assert not room.seats[0].taken
        await other.call(other.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name))
        room = (await guest.call(guest.lobby, "LeaveRoom", pb.LeaveRoomRequest(room=room.name))).room
        assert room.host == other.user  # a leaving host hands over to the next player
        room = (await other.call(other.lobby, "LeaveRoom", pb.LeaveRoomRequest(room=room.name))).room
        assert room.state == pb.ROOM_STATE_CLOSED

    async def test_a_full_room_refuses_and_bad_input_changes_nothing(self, players: list[Player]) -> None:
        host, guest, other = players
        room = (await host.call(host.lobby, "CreateRoom", _create(moves="5"))).room
        await guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name))
        code, reason = await _refused(other.call(other.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name)))
        assert code == grpc.StatusCode.FAILED_PRECONDITION
        assert reason == "ERROR_REASON_ROOM_FULL"
        for bad, want in (
            (_create("chess"), "ERROR_REASON_UNKNOWN_GAME_KIND"),
            (_create(seats=3), "ERROR_REASON_INVALID_CONFIG"),
            (_create(moves="x"), "ERROR_REASON_INVALID_CONFIG"),
        ):
            code, reason = await _refused(host.call(host.lobby, "CreateRoom", bad))
            assert code == grpc.StatusCode.INVALID_ARGUMENT
            assert reason == want
        code, reason = await _refused(host.call(host.lobby, "GetRoom", pb.GetRoomRequest(room="rooms/nope")))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        code, reason = await _refused(host.call(host.lobby, "GetRoom", pb.GetRoomRequest(room="rooms/" + "0" * 32)))
        assert code == grpc.StatusCode.NOT_FOUND
        assert reason == "ERROR_REASON_ROOM_NOT_FOUND"
        code, reason = await _refused(host.lobby.GetRoom(pb.GetRoomRequest(room=room.name), timeout=10))
        assert code == grpc.StatusCode.UNAUTHENTICATED
        code, reason = await _refused(host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name, policy="mcts")))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        after = (await host.call(host.lobby, "GetRoom", pb.GetRoomRequest(room=room.name))).room
        assert after.version == 2  # created, joined: nothing else changed it

    async def test_the_same_request_id_creates_one_room(self, players: list[Player]) -> None:
        host = players[0]
        request = _create(moves="7")
        first, second = await asyncio.gather(
            host.call(host.lobby, "CreateRoom", request), host.call(host.lobby, "CreateRoom", request)
        )
        assert first.room.name == second.room.name

    async def test_watch_sends_heartbeats_while_nothing_changes(self, players: list[Player]) -> None:
        host = players[0]
        room = (await host.call(host.lobby, "CreateRoom", _create(moves="9"))).room
        call = host.lobby.WatchRoom(pb.WatchRoomRequest(room=room.name), metadata=host.md)
        first = await asyncio.wait_for(call.read(), 10)
        beat = await asyncio.wait_for(call.read(), 10)  # the gateways' heartbeat is 2 s
        assert first.room.version == 1
        assert beat.is_checkpoint
        call.cancel()


class TestListRooms:
    async def test_pages_cover_every_matching_room_once_and_filters_apply(self, players: list[Player]) -> None:
        host, guest, _ = players
        tag = str(random.randint(1000, 90000))  # counter's `moves` option, unique to this test
        names_by_open: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
        for i in range(24):
            room = (await host.call(host.lobby, "CreateRoom", _create(moves=tag))).room  # host holds seat 0
            if i % 3 == 0:
                await guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name))
                names_by_open[0].add(room.name)
            else:
                names_by_open[1].add(room.name)
            await host.call(host.lobby, "CreateRoom", _create("sail_away", 4, public=i % 2 == 0))
        pages, token = [], ""
        while True:
            reply = await host.call(
                host.lobby,
                "ListRooms",
                pb.ListRoomsRequest(kind="counter", options={"moves": tag}, page_size=5, page_token=token),
            )
            pages.append(reply.rooms)
            token = reply.next_page_token
            if not token:
                break
        listed = [r.name for page in pages for r in page]
        assert len(listed) == len(set(listed)) == 24
        assert set(listed) == names_by_open[0] | names_by_open[1]
        assert all(len(p) <= 5 for p in pages)
        assert listed[:8] == sorted(listed[:8], key=lambda n: n not in names_by_open[0])  # fewest open seats first
        reply = await host.call(
            host.lobby, "ListRooms", pb.ListRoomsRequest(kind="counter", options={"moves": tag}, min_open_seats=1)
        )
        assert {r.name for r in reply.rooms} == names_by_open[1]
        reply = await host.call(host.lobby, "ListRooms", pb.ListRoomsRequest(kind="sail_away", min_open_seats=3))
        assert reply.rooms
        assert all(r.kind == "sail_away" and r.open_seats >= 3 for r in reply.rooms)
        assert all(r.visibility == pb.ROOM_VISIBILITY_PUBLIC for r in reply.rooms)
        for token in ("garbage", "nan", "inf", "-5"):
            code, _reason = await _refused(host.call(host.lobby, "ListRooms", pb.ListRoomsRequest(page_token=token)))
            assert code == grpc.StatusCode.INVALID_ARGUMENT


class TestManyWatchers:
    async def test_one_gateway_serves_many_room_watchers_at_once(self, players: list[Player]) -> None:
        """Watchers share the gateway's stream reader: far more of them than Redis connections in a pool."""
        host = players[0]
        rooms = [(await host.call(host.lobby, "CreateRoom", _create("sail_away", 4))).room.name for _ in range(150)]
        calls = [host.lobby.WatchRoom(pb.WatchRoomRequest(room=name), metadata=host.md) for name in rooms]
        firsts = await asyncio.wait_for(asyncio.gather(*(c.read() for c in calls)), 30)
        assert all(f.room.version == 1 for f in firsts)
        await asyncio.gather(*(host.call(host.lobby, "AddBot", pb.AddBotRequest(room=name)) for name in rooms))

        async def next_change(call: object) -> int:
            while True:
                message = await call.read()  # type: ignore[attr-defined]
                if not message.is_checkpoint:
                    return int(message.room.version)

        versions = await asyncio.wait_for(asyncio.gather(*(next_change(c) for c in calls)), 30)
        assert versions == [2] * len(rooms)
        for call in calls:
            call.cancel()


class TestRoomClock:
    async def test_a_room_with_a_clock_starts_a_game_with_that_clock_and_deadlines(self, players: list[Player]) -> None:
        host, guest, _ = players
        tag = str(random.randint(1000, 90000))
        request = _create(moves=tag)
        request.clock.CopyFrom(game_pb2.Clock(turn_seconds=30, absence_policy=game_pb2.ABSENCE_POLICY_ABORT))
        room = (await host.call(host.lobby, "CreateRoom", request)).room
        assert (room.clock.turn_seconds, room.clock.max_timeouts) == (30, 3)  # unset: the default, as CreateGame's
        assert room.clock.absence_policy == game_pb2.ABSENCE_POLICY_ABORT
        listed = await guest.call(guest.lobby, "ListRooms", pb.ListRoomsRequest(kind="counter", options={"moves": tag}))
        assert [r.clock.turn_seconds for r in listed.rooms] == [30]
        await guest.call(guest.lobby, "JoinRoom", pb.JoinRoomRequest(room=room.name))
        await guest.call(guest.lobby, "SetReady", pb.SetReadyRequest(room=room.name, ready=True))
        watch = guest.lobby.WatchRoom(pb.WatchRoomRequest(room=room.name), metadata=guest.md)
        assert (await asyncio.wait_for(watch.read(), 10)).room.clock.turn_seconds == 30
        watch.cancel()
        reply = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
        started = reply.room
        assert started.clock.turn_seconds == 30
        game = await host.client.get_game(started.game)
        assert (game.clock.turn_seconds, game.clock.absence_policy) == (30, game_pb2.ABSENCE_POLICY_ABORT)

        async def seat_0_has_a_deadline() -> bool:
            return (await host.client.get_game(started.game)).seats[0].HasField("deadline")

        await until(seat_0_has_a_deadline, 20, "the worker to start seat 0's clock")
        seats = (await host.client.get_game(started.game)).seats
        left_ms = seats[0].deadline.ToMilliseconds() - time.time() * 1000
        assert 0 < left_ms <= 30_000
        assert not seats[1].HasField("deadline")  # counter: seat 0 moves first
        await host.client.leave(Seat(started.game, 0, reply.seat_token))  # the ABORT policy ends the game now

        async def aborted() -> bool:
            return (await host.client.get_game(started.game)).state == game_pb2.GAME_STATE_ABANDONED

        await until(aborted, 20, "the game to be aborted")

    async def test_a_bad_clock_is_refused_and_creates_no_room(self, players: list[Player]) -> None:
        host = players[0]
        tag = str(random.randint(1000, 90000))
        request = _create(moves=tag)
        for clock, field in (
            (game_pb2.Clock(turn_seconds=-1), "clock.turn_seconds"),
            (game_pb2.Clock(turn_seconds=10, bank_seconds=60), "clock"),
            (game_pb2.Clock(max_timeouts=1000), "clock.max_timeouts"),
            (game_pb2.Clock(absence_policy=99), "clock.absence_policy"),  # type: ignore[arg-type]
        ):
            request.clock.CopyFrom(clock)
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await host.call(host.lobby, "CreateRoom", request)
            assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert reason_of(caught.value) == "ERROR_REASON_INVALID_REQUEST"
            assert field in (caught.value.details() or "")
        listed = await host.call(host.lobby, "ListRooms", pb.ListRoomsRequest(kind="counter", options={"moves": tag}))
        assert list(listed.rooms) == []
        request.ClearField("clock")  # the same request id, now valid: a new room, without a clock
        room = (await host.call(host.lobby, "CreateRoom", request)).room
        assert (room.version, room.HasField("clock")) == (1, False)


class TestRoomOptions:
    """Options are stored and compared as settings, not spellings (docs/games.md, "Options")."""

    async def _listed(self, player: Player, kind: str, **opts: str) -> dict[str, dict[str, str]]:
        request = pb.ListRoomsRequest(kind=kind, options=opts, page_size=500)
        return {r.name: dict(r.options) for r in (await player.call(player.lobby, "ListRooms", request)).rooms}

    async def test_any_spelling_lists_rooms_of_every_spelling_shown_canonically(self, players: list[Player]) -> None:
        host = players[0]
        on = [
            (await host.call(host.lobby, "CreateRoom", _create("navegador", 3, random_colours=word))).room
            for word in ("yes", "TRUE", "1", "On")
        ]
        assert {tuple(r.options.items()) for r in on} == {(("random_colours", "true"),)}
        off = (await host.call(host.lobby, "CreateRoom", _create("navegador", 3, random_colours="NO"))).room
        assert dict(off.options) == {"random_colours": "false"}  # a named default is kept, spelled canonically
        plain = (await host.call(host.lobby, "CreateRoom", _create("navegador", 3))).room
        assert dict(plain.options) == {}
        for word in ("true", "Yes", "1", "ON"):
            listed = await self._listed(host, "navegador", random_colours=word)
            assert {r.name for r in on} <= set(listed)
            assert not {off.name, plain.name} & set(listed)
            assert all(o == {"random_colours": "true"} for o in listed.values())
        listed = await self._listed(host, "navegador", random_colours="off")
        assert {off.name, plain.name} <= set(listed)  # the default matches a room that did not name it
        assert not {r.name for r in on} & set(listed)
        port = (await host.call(host.lobby, "CreateRoom", _create("port_royal", 2, mode="Base_Plus"))).room
        assert dict(port.options) == {"mode": "base_plus"}
        assert port.name in await self._listed(host, "port_royal", mode="BASE_PLUS")

    async def test_a_malformed_option_is_refused_and_stores_nothing(self, players: list[Player]) -> None:
        host = players[0]
        tag = str(random.randint(1000, 90000))
        for bad in ("+" + tag, " " + tag, "0" + tag, tag[:2] + "_" + tag[2:], "\u0662" + tag[1:]):
            code, reason = await _refused(host.call(host.lobby, "CreateRoom", _create(moves=bad)))
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_CONFIG")
        code, reason = await _refused(
            host.call(host.lobby, "CreateRoom", _create("navegador", 3, random_colours="maybe"))
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_CONFIG")
        assert await self._listed(host, "counter", moves=tag) == {}
        code, reason = await _refused(
            host.call(host.lobby, "ListRooms", pb.ListRoomsRequest(kind="counter", options={"moves": "+" + tag}))
        )
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_CONFIG")

    async def test_create_game_stores_the_canonical_spelling(self, players: list[Player]) -> None:
        host = players[0]
        game = await host.client.create_game("navegador", 3, {"random_colours": "YES"})
        assert dict(game.options) == {"random_colours": "true"}
        assert dict((await host.client.get_game(game.name)).options) == {"random_colours": "true"}
