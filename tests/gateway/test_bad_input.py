"""Every bad input gets a typed status with an ErrorInfo reason and a short echo (issue 10, item 7).

Against a real gateway and worker in the test process (tests/inproc.py); requests are sent as raw
bytes where the SDK would refuse to build them.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import grpc
import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as game
from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla_client import FlotillaClient, FlotillaError, Seat
from inproc import InProcess
from raw_rpc import METHODS, Answer, answer_of, auth, call, call_message, serving
from support import stored_tokens

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

INVALID = grpc.StatusCode.INVALID_ARGUMENT
BY_NAME = {f"{m.containing_service.name}/{m.name}": m for m in METHODS}


@pytest.fixture
async def player(inproc: InProcess) -> AsyncIterator[FlotillaClient]:
    client = FlotillaClient(inproc.gateways[0])
    await client.sign_in("tester")
    yield client
    await client.close()


async def refused(client: FlotillaClient, name: str, request: object, token: str | None = None) -> Answer:
    """The typed refusal of one call (`token`: the session's unless given)."""
    answer = await call_message(
        client.channel,
        BY_NAME[name],
        request,  # type: ignore[arg-type]
        client.session_token if token is None else token,
    )
    answer.check_typed()
    assert answer.code != grpc.StatusCode.OK, f"{name} accepted {request}"
    return answer


async def counter_game(client: FlotillaClient) -> tuple[str, Seat]:
    """A started counter game with the client in seat 0: (game name, seat 0)."""
    created = await client.create_game("counter", 2)
    seat = await client.join(created.name)
    other = FlotillaClient(*client.targets)
    await other.sign_in("other")
    await other.join(created.name)
    await other.close()
    return created.name, seat


BAD_TOKENS = ["²", "1" * 5000, "-1", " 1", "1e3", "١٢", "0x10", "1\n", "nan", "inf", "1_0"]


@pytest.mark.parametrize("token", BAD_TOKENS)
async def test_every_listing_refuses_a_page_token_it_did_not_issue(player: FlotillaClient, token: str) -> None:
    for name, request in [
        ("GameService/ListGames", game.ListGamesRequest(page_token=token)),
        ("LobbyService/ListRooms", lobby.ListRoomsRequest(page_token=token)),
        ("RatingService/ListLeaderboard", mm.ListLeaderboardRequest(kind="counter", page_token=token)),
        ("RatingService/ListRatingHistory", mm.ListRatingHistoryRequest(kind="counter", page_token=token)),
    ]:
        answer = await refused(player, name, request)
        assert (answer.code, answer.reason, answer.metadata) == (
            INVALID,
            "ERROR_REASON_INVALID_REQUEST",
            {"field": "page_token"},
        ), name


def bad_utf8(method_name: str) -> bytes | None:
    """A request of this method whose first string field holds invalid UTF-8 (None: no string field)."""
    method = BY_NAME[method_name]
    fields = method.input_type.fields
    if method.name == "Play":  # PlayRequest.open (1) .game (1)
        return b"\x0a\x04\x0a\x02\xc3\x28"
    for fd in fields:
        if fd.type == fd.TYPE_STRING:
            return bytes([fd.number << 3 | 2, 2]) + b"\xc3\x28"
    return None


@pytest.mark.parametrize("name", sorted(BY_NAME))
async def test_a_body_that_is_not_the_message_is_refused_by_every_rpc(player: FlotillaClient, name: str) -> None:
    bodies = [b"\xff\xff\xff\xff", b"\x0a\x05ab"]  # a corrupt tag; a length running past the end
    if (utf8 := bad_utf8(name)) is not None:
        bodies.append(utf8)
    for body in bodies:
        answer = await call(player.channel, BY_NAME[name], [body], player.session_token)
        answer.check_typed()
        assert (answer.code, answer.reason) == (INVALID, "ERROR_REASON_MALFORMED_MESSAGE"), (name, body)
    assert await serving(player.channel)


async def test_a_malformed_message_later_in_a_play_stream_ends_it_with_invalid_argument(
    player: FlotillaClient,
) -> None:
    name, seat = await counter_game(player)
    opened = game.PlayRequest(open=game.WatchGameRequest(game=name)).SerializeToString()
    garbage = asyncio.Event()

    async def requests() -> AsyncIterator[bytes]:
        yield opened
        await garbage.wait()
        yield b"\xff\xff\xff"
        await asyncio.sleep(30)

    play = player.channel.stream_stream("/flotilla.api.game.v1.GameService/Play")
    live = play(requests(), metadata=auth(seat.token), timeout=20)
    first = await live.read()
    assert first != grpc.aio.EOF  # the stream is open: the view arrived
    garbage.set()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await drain(live)
    answer = answer_of(caught.value)
    answer.check_typed()
    assert (answer.code, answer.reason) == (INVALID, "ERROR_REASON_MALFORMED_MESSAGE")
    assert (await player.submit(name, seat, add(1))).through_event_id == 2  # the seat can still act


async def drain(live: grpc.aio.StreamStreamCall) -> None:  # type: ignore[type-arg]
    while await live.read() != grpc.aio.EOF:
        pass


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


async def test_a_well_signed_token_with_a_malformed_payload_is_unauthenticated(inproc: InProcess) -> None:
    tokens = await stored_tokens(inproc.redis_url)
    channel = grpc.aio.insecure_channel(inproc.gateways[0])
    for payload in [
        {"typ": "session", "name": "n"},  # no subject
        {"typ": "session", "sub": 1, "name": "n"},
        {"typ": "seat", "sub": "u", "name": "n", "game": "g", "seat": "x"},
        {"typ": "seat", "sub": "u", "name": "n", "game": ["g"], "seat": 0},
        {"typ": "other", "sub": "u", "name": "n"},
    ]:
        token = tokens._sign(payload, 60)
        for name, request in [
            ("GameService/CreateGame", game.CreateGameRequest(kind="counter", seat_count=2)),
            ("GameService/SubmitAction", game.SubmitActionRequest(game="games/g", action=add(1))),
            ("LobbyService/ListRooms", lobby.ListRoomsRequest()),
        ]:
            answer = await call_message(channel, BY_NAME[name], request, token)
            answer.check_typed()
            assert (answer.code, answer.reason) == (
                grpc.StatusCode.UNAUTHENTICATED,
                "ERROR_REASON_UNAUTHENTICATED",
            ), (name, payload)
    await channel.close()


@pytest.mark.parametrize("size", [20_000, 1_000_000])
async def test_long_input_comes_back_as_a_short_echo(player: FlotillaClient, size: int) -> None:
    name, seat = await counter_game(player)
    long = "x" * size
    cases: list[tuple[str, object, str | None]] = [
        ("GameService/GetGame", game.GetGameRequest(game=long), None),
        ("GameService/JoinGame", game.JoinGameRequest(game="games/" + long), None),
        ("GameService/CreateGame", game.CreateGameRequest(kind=long, seat_count=2), None),
        ("GameService/CreateGame", game.CreateGameRequest(kind="counter", seat_count=2, options={long: "1"}), None),
        ("GameService/CreateGame", game.CreateGameRequest(kind="counter", seat_count=2, options={"moves": long}), None),
        ("GameService/CreateGame", game.CreateGameRequest(kind="counter", seat_count=2, request_id=long), None),
        ("GameService/SubmitAction", game.SubmitActionRequest(game=name, action=add(1), etag=long), seat.token),
        ("GameService/ListGames", game.ListGamesRequest(kind=long), None),
        ("AuthService/SignInAsGuest", game.SignInAsGuestRequest(display_name=long), ""),
        ("LobbyService/GetRoom", lobby.GetRoomRequest(room=long), None),
        ("LobbyService/CreateRoom", lobby.CreateRoomRequest(kind=long, seat_count=2), None),
        ("MatchmakingService/GetTicket", mm.GetTicketRequest(ticket=long), None),
        ("MatchmakingService/CreateTicket", mm.CreateTicketRequest(kind="counter", party=[long]), None),
        ("RatingService/ListLeaderboard", mm.ListLeaderboardRequest(kind=long), None),
        ("RatingService/GetRating", mm.GetRatingRequest(kind="counter", user=long), None),
    ]
    for method, request, token in cases:
        answer = await refused(player, method, request, token)
        assert answer.code == INVALID, (method, answer)
        assert "x" * 33 not in answer.details, method  # a short echo of at most 32 characters
        assert "x" * 64 not in str(answer.metadata), method


@pytest.mark.parametrize(
    "name",
    [
        "\u202eevil",  # right-to-left override
        "a\u200bb",  # zero-width space
        "a\u200db",  # zero-width joiner
        "a\u2028b",  # line separator
        "a\u2029b",  # paragraph separator
        "\ue000",  # private use
        "bell\x07",
        "tab\tname",
        "\U000e0041",  # a tag character (format)
        "a\U0010fffeb",  # a noncharacter (unassigned)
        "",
        "   ",
        "x" * 41,
    ],
)
async def test_a_display_name_with_invisible_or_control_characters_is_refused(inproc: InProcess, name: str) -> None:
    channel = grpc.aio.insecure_channel(inproc.gateways[0])
    answer = await call_message(
        channel, BY_NAME["AuthService/SignInAsGuest"], game.SignInAsGuestRequest(display_name=name)
    )
    answer.check_typed()
    assert (answer.code, answer.reason, answer.metadata) == (
        INVALID,
        "ERROR_REASON_INVALID_REQUEST",
        {"field": "display_name"},
    )
    await channel.close()


@pytest.mark.parametrize(
    ("given", "shown"),
    [("  Ada  ", "Ada"), ("Zoe\u0308", "Zo\u00eb"), ("\U0001f642 Ana", "\U0001f642 Ana"), ("李" * 40, "李" * 40)],
)
async def test_display_names_are_trimmed_and_normalised(inproc: InProcess, given: str, shown: str) -> None:
    client = FlotillaClient(inproc.gateways[0])
    await client.sign_in(given)
    created = await client.create_game("counter", 2)
    await client.join(created.name)
    assert (await client.get_game(created.name)).seats[0].display_name == shown
    await client.close()


async def test_oversized_actions_options_and_parties_are_refused(player: FlotillaClient) -> None:
    name, seat = await counter_game(player)
    padded = add(1)
    padded.counter.add.MergeFromString(b"\xc2\x3e\xf0\xa2\x04" + b"z" * 70_000)  # unknown field 1000, 70,000 bytes
    answer = await refused(
        player, "GameService/SubmitAction", game.SubmitActionRequest(game=name, action=padded), seat.token
    )
    assert (answer.code, answer.metadata) == (INVALID, {"field": "action"})
    many = {f"k{i}": "v" for i in range(33)}
    wide = {"k" * 65: "v"}
    for options in (many, wide):
        for method, request in [
            ("GameService/CreateGame", game.CreateGameRequest(kind="counter", seat_count=2, options=options)),
            ("LobbyService/CreateRoom", lobby.CreateRoomRequest(kind="counter", seat_count=2, options=options)),
            ("LobbyService/ListRooms", lobby.ListRoomsRequest(options=options)),
            (
                "MatchmakingService/CreateTicket",
                mm.CreateTicketRequest(kind="counter", seat_counts=[2], options=options),
            ),
        ]:
            answer = await refused(player, method, request)
            assert (answer.code, answer.metadata) == (INVALID, {"field": "options"}), method
    party = [f"users/{uuid.uuid4().hex}" for _ in range(9)]
    answer = await refused(
        player, "MatchmakingService/CreateTicket", mm.CreateTicketRequest(kind="counter", seat_counts=[2], party=party)
    )
    assert (answer.code, answer.metadata) == (INVALID, {"field": "party"})
    for etag in ("²", "1 2", "1/2", "9" * 65):
        with pytest.raises(FlotillaError) as caught:
            await player.submit(name, seat, add(1), etag=etag)
        assert caught.value.metadata == {"field": "etag"}
    assert (await player.view(name)).view.counter.count == 0  # nothing was applied
