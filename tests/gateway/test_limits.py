"""Rate limits and quotas over real gRPC against real Redis, shared by two in-process gateways.

Each test uses small limits set through Settings, fresh users and a fresh client address (sent
as x-forwarded-for, which these gateways trust from 127.0.0.1), so no test shares a bucket with
another. Rates are one per hour: a bucket never refills during a test, so no timing is involved.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import grpc
import pytest
import redis.asyncio as aioredis
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status
from prometheus_client import REGISTRY

from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2, matchmaking_service_pb2_grpc
from flotilla.app.games import created_game_id
from flotilla.gateway.peers import subject
from flotilla.gateway.server import Gateway, start_gateway
from flotilla.lobby.tickets import queue_of
from flotilla.settings import Settings
from flotilla.store import keys
from inproc import own_worker
from support import until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]

HOUR = "1/h"
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # grpc shares connections between channels otherwise
GENEROUS = "sign_in_per_address=1000/s:1000"


def fresh_address() -> str:
    """A client address no other test uses (an IPv6 /64 of the documentation prefix)."""
    return f"2001:db8:{secrets.randbelow(1 << 16):x}:{secrets.randbelow(1 << 16):x}::7"


@contextlib.asynccontextmanager
async def gateways(redis_url: str, limits: str, count: int = 2, **changes: Any) -> AsyncIterator[list[Gateway]]:
    settings = Settings(
        redis_url=redis_url,
        secret="limits-test-secret-" + "l" * 32,
        bind="127.0.0.1:0",
        heartbeat_s=1,
        limits=limits,
        trusted_proxies="127.0.0.1/32",
    )
    settings = replace(settings, **changes)
    started = [await start_gateway(settings) for _ in range(count)]
    try:
        yield started
    finally:
        for gateway in started:
            await gateway.stop(0)


@dataclass
class Player:
    """One user calling from one address, over raw stubs on every gateway (call i on gateway i % n)."""

    targets: list[str]
    address: str
    token: str = ""
    user: str = ""
    calls: int = 0
    channels: list[grpc.aio.Channel] = field(default_factory=list)

    def channel(self) -> grpc.aio.Channel:
        if not self.channels:
            self.channels = [grpc.aio.insecure_channel(t, options=OWN_CONNECTION) for t in self.targets]
        self.calls += 1
        return self.channels[self.calls % len(self.channels)]

    def md(self, token: str | None = None) -> list[tuple[str, str]]:
        out = [("x-forwarded-for", self.address)]
        if token or self.token:
            out.append(("authorization", f"Bearer {token or self.token}"))
        return out

    def games(self) -> game_service_pb2_grpc.GameServiceStub:
        return game_service_pb2_grpc.GameServiceStub(self.channel())

    def lobby(self) -> lobby_service_pb2_grpc.LobbyServiceStub:
        return lobby_service_pb2_grpc.LobbyServiceStub(self.channel())

    def tickets(self) -> matchmaking_service_pb2_grpc.MatchmakingServiceStub:
        return matchmaking_service_pb2_grpc.MatchmakingServiceStub(self.channel())

    async def sign_in(self, name: str = "p") -> Player:
        stub = game_service_pb2_grpc.AuthServiceStub(self.channel())
        reply = await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name=name), metadata=self.md())
        self.token, self.user = reply.session_token, reply.user.removeprefix("users/")
        return self

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close()


@dataclass
class Refusal:
    code: grpc.StatusCode
    reason: str
    limit: str
    retry_after_s: float | None


def refusal_of(status: status_pb2.Status) -> Refusal:
    reason, limit, retry = "", "", None
    for detail in status.details:
        info, delay = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            reason, limit = info.reason, info.metadata.get("limit", "")
        elif detail.Unpack(delay):
            retry = delay.retry_delay.ToMilliseconds() / 1000
    return Refusal(grpc.StatusCode(next(c for c in grpc.StatusCode if c.value[0] == status.code)), reason, limit, retry)


async def refused(call: Awaitable[Any]) -> Refusal:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    status = rpc_status.from_call(caught.value)
    assert status is not None, caught.value
    return refusal_of(status)


def refusals(limit: str) -> float:
    return REGISTRY.get_sample_value("flotilla_limit_refusals_total", {"limit": limit}) or 0.0


def assert_rate_limited(refusal: Refusal, limit: str) -> None:
    """RESOURCE_EXHAUSTED / RATE_LIMITED naming the limit; RetryInfo: when the next call passes
    (one per hour: the bucket's next call is about an hour away)."""
    assert (refusal.code, refusal.reason, refusal.limit) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_RATE_LIMITED",
        limit,
    )
    assert refusal.retry_after_s is not None
    assert 3500 < refusal.retry_after_s <= 3600


def assert_quota_exceeded(refusal: Refusal, limit: str) -> None:
    assert (refusal.code, refusal.reason, refusal.limit) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "ERROR_REASON_QUOTA_EXCEEDED",
        limit,
    )
    assert refusal.retry_after_s is None  # nothing to wait for: the caller must end something


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


async def counter_game(host: Player, moves: int = 50) -> str:
    reply = await host.games().CreateGame(
        game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, options={"moves": str(moves)}),
        metadata=host.md(),
    )
    return reply.game.name


def add(n: int) -> game_pb2.Action:
    action = game_pb2.Action()
    action.counter.add.n = n
    return action


# --- rate limits: each one, per user and per address, shared by two gateways ---------------
Scenario = Callable[[list[str], aioredis.Redis, str], Awaitable[None]]


async def _players(targets: list[str], per: str, count: int) -> list[Player]:
    """`count` callers: the same user `count` times (per user, each from its own address) or
    `count` users from one address (per address)."""
    if per == "user":
        one = await Player(targets, fresh_address()).sign_in()
        return [Player(targets, fresh_address(), one.token, one.user) for _ in range(count)]
    address = fresh_address()
    return [await Player(targets, address).sign_in() for _ in range(count)]


async def create_game(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    players = await _players(targets, per, 3)
    for i, p in enumerate(players):
        request = game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, request_id=f"r{i}")
        call = p.games().CreateGame(request, metadata=p.md())
        if i < 2:
            await call
            continue
        assert_rate_limited(await refused(call), f"create_game_per_{per}")
        assert not await redis.exists(keys.game(created_game_id(f"r{i}", p.user)))


async def create_room(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    players = await _players(targets, per, 3)
    for i, p in enumerate(players):
        request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id=f"r{i}")
        call = p.lobby().CreateRoom(request, metadata=p.md())
        if i < 2:
            await call
            continue
        assert_rate_limited(await refused(call), f"create_room_per_{per}")
        room_id = uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:room:{p.user}:r{i}").hex
        assert not await redis.exists(keys.room(room_id))


async def join_game(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    host = await Player(targets, fresh_address()).sign_in("host")
    games = [await counter_game(host) for _ in range(3)]
    for i, (p, game) in enumerate(zip(await _players(targets, per, 3), games, strict=True)):
        call = p.games().JoinGame(game_service_pb2.JoinGameRequest(game=game), metadata=p.md())
        if i < 2:
            await call
            continue
        assert_rate_limited(await refused(call), f"join_per_{per}")
        assert not await redis.hlen(keys.game_seats(game.removeprefix("games/")))


async def join_room(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    host = await Player(targets, fresh_address()).sign_in("host")
    rooms = []
    for i in range(3):
        request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id=f"j{i}")
        rooms.append((await host.lobby().CreateRoom(request, metadata=host.md())).room.name)
    for i, (p, room) in enumerate(zip(await _players(targets, per, 3), rooms, strict=True)):
        call = p.lobby().JoinRoom(lobby_service_pb2.JoinRoomRequest(room=room), metadata=p.md())
        if i < 2:
            await call
            continue
        assert_rate_limited(await refused(call), f"join_per_{per}")
        got = await host.lobby().GetRoom(lobby_service_pb2.GetRoomRequest(room=room), metadata=host.md())
        assert got.room.open_seats == 1, "the refused join took a seat"


async def ticket(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    for i, p in enumerate(await _players(targets, per, 3)):
        options = {"moves": str(300 + i)}  # a queue each: one waiting ticket per user per queue
        request = matchmaking_service_pb2.CreateTicketRequest(kind="counter", options=options, seat_counts=[2])
        call = p.tickets().CreateTicket(request, metadata=p.md())
        if i < 2:
            await call
            continue
        assert_rate_limited(await refused(call), f"ticket_per_{per}")
        assert not await redis.exists(keys.mm_user(queue_of("counter", options), p.user))


@contextlib.asynccontextmanager
async def seated_game(targets: list[str], per: str) -> AsyncIterator[tuple[list[Player], list[str], str]]:
    """A counter game with two seats taken by two users, from one address (per address) or two."""
    address = fresh_address()
    players = [
        await Player(targets, address if per == "address" else fresh_address()).sign_in(f"p{i}") for i in range(2)
    ]
    game = await counter_game(players[0])
    tokens = []
    for p in players:
        reply = await p.games().JoinGame(game_service_pb2.JoinGameRequest(game=game), metadata=p.md())
        tokens.append(reply.seat_token)
    yield players, tokens, game


async def _version(p: Player, game: str) -> int:
    reply = await p.games().GetGame(game_service_pb2.GetGameRequest(game=game), metadata=p.md())
    return reply.game.last_event_id


def refused_move(per: str) -> int:
    """Seats 0 and 1 move in turn; the move refused: the first player's third (per user) or the
    third from the address (per address), each a legal move."""
    return 4 if per == "user" else 2


async def submit(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    """Moves in turn: the refused one, legal, is not applied."""
    async with seated_game(targets, per) as (players, tokens, game):
        for i in range(refused_move(per) + 1):
            p, token = players[i % 2], tokens[i % 2]
            request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id=f"m{i}")
            call = p.games().SubmitAction(request, metadata=p.md(token), timeout=20)
            if i < refused_move(per):
                await call
                continue
            before = await _version(p, game)
            assert_rate_limited(await refused(call), f"submit_per_{per}")
            assert await _version(p, game) == before
            assert not await redis.exists(keys.game_reply(game.removeprefix("games/"), i % 2, f"m{i}"))


async def play_submit(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    """The same over Play: the refusal is an outcome's status, the stream goes on."""
    async with seated_game(targets, per) as (players, tokens, game):
        requests: list[asyncio.Queue[game_service_pb2.PlayRequest]] = [asyncio.Queue(), asyncio.Queue()]

        async def feed(queue: asyncio.Queue[game_service_pb2.PlayRequest]) -> AsyncIterator[Any]:
            while True:
                yield await queue.get()

        calls = []
        for i in range(2):
            requests[i].put_nowait(game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=game)))
            calls.append(players[i].games().Play(feed(requests[i]), metadata=players[i].md(tokens[i])))

        async def outcome(i: int) -> game_service_pb2.ActionOutcome:
            """The submission's outcome: an ActionOutcome, or the update that answers it (accepted)."""
            async with asyncio.timeout(20):
                while True:
                    response = await calls[i].read()
                    if response.HasField("outcome"):
                        return response.outcome
                    if response.update.answered_request_ids:
                        return game_service_pb2.ActionOutcome(etag=response.update.etag)

        try:
            for n in range(refused_move(per) + 1):
                submit = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id=f"p{n}")
                requests[n % 2].put_nowait(game_service_pb2.PlayRequest(submit=submit))
                got = await outcome(n % 2)
                if n < refused_move(per):
                    assert got.status.code == 0, got.status
                    before = await _version(players[0], game)
                    continue
                assert_rate_limited(refusal_of(got.status), f"submit_per_{per}")
                assert got.request_id == f"p{n}"
                assert await _version(players[0], game) == before
        finally:
            for call in calls:
                call.cancel()


async def _first(call: Any) -> Any:
    async with asyncio.timeout(20):
        return await call.read()


def _stream_opener(method: str) -> Callable[[Player, str, str], Any]:
    def watch_game(p: Player, game: str, room_or_ticket: str) -> Any:
        return p.games().WatchGame(game_service_pb2.WatchGameRequest(game=game), metadata=p.md())

    def play(p: Player, game: str, room_or_ticket: str) -> Any:
        opening = game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=game))

        async def one() -> AsyncIterator[Any]:
            yield opening
            await asyncio.Event().wait()

        return p.games().Play(one(), metadata=p.md())

    def watch_room(p: Player, game: str, room: str) -> Any:
        return p.lobby().WatchRoom(lobby_service_pb2.WatchRoomRequest(room=room), metadata=p.md())

    def watch_ticket(p: Player, game: str, ticket: str) -> Any:
        request = matchmaking_service_pb2.WatchTicketRequest(ticket=ticket)
        return p.tickets().WatchTicket(request, metadata=p.md())

    return {"WatchGame": watch_game, "Play": play, "WatchRoom": watch_room, "WatchTicket": watch_ticket}[method]


async def stream_open(targets: list[str], redis: aioredis.Redis, per: str, method: str = "WatchGame") -> None:
    host = await Player(targets, fresh_address()).sign_in("host")
    game = await counter_game(host)
    request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2)
    room = (await host.lobby().CreateRoom(request, metadata=host.md())).room.name
    opened = []
    try:
        for i, p in enumerate(await _players(targets, per, 3)):
            target = room
            if method == "WatchTicket":
                request_t = matchmaking_service_pb2.CreateTicketRequest(
                    kind="counter", options={"moves": str(400 + i)}, seat_counts=[2]
                )
                target = (await p.tickets().CreateTicket(request_t, metadata=p.md())).ticket.name
            call = _stream_opener(method)(p, game, target)
            opened.append(call)
            if i < 2:
                await _first(call)
                continue
            assert_rate_limited(await refused(_first(call)), f"stream_open_per_{per}")
    finally:
        for call in opened:
            call.cancel()


async def view_at(targets: list[str], redis: aioredis.Redis, per: str) -> None:
    """GetViewAt is counted before anything else: two calls on a game still running are answered
    (FAILED_PRECONDITION: not finished), the third is refused by the limit."""
    host = await Player(targets, fresh_address()).sign_in("host")
    game = await counter_game(host)
    for i, p in enumerate(await _players(targets, per, 3)):
        call = p.games().GetViewAt(game_service_pb2.GetViewAtRequest(game=game, event_id=1), metadata=p.md())
        if i < 2:
            with pytest.raises(grpc.aio.AioRpcError) as answered:
                await call
            assert answered.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            continue
        assert_rate_limited(await refused(call), f"view_at_per_{per}")


SCENARIOS: dict[str, Callable[..., Awaitable[None]]] = {
    "view_at": view_at,
    "create_game": create_game,
    "create_room": create_room,
    "join_game": join_game,
    "join_room": join_room,
    "ticket": ticket,
    "submit": submit,
    "play_submit": play_submit,
    "stream_open": stream_open,
}
LIMIT_OF = {"join_game": "join", "join_room": "join", "play_submit": "submit"}


@pytest.mark.parametrize("per", ["user", "address"])
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_each_rate_limit_refuses_the_call_after_its_burst_on_any_gateway(
    redis_url: str, redis: aioredis.Redis, scenario: str, per: str
) -> None:
    """Two calls pass, alternating between two gateways on one Redis; the third is refused
    (RESOURCE_EXHAUSTED, RATE_LIMITED, metadata limit, RetryInfo) and changes nothing."""
    limit = f"{LIMIT_OF.get(scenario, scenario)}_per_{per}"
    before = refusals(limit)
    async with gateways(redis_url, f"{GENEROUS},{limit}={HOUR}:2") as started, own_worker(redis_url):
        await SCENARIOS[scenario]([f"127.0.0.1:{g.port}" for g in started], redis, per)
    assert refusals(limit) == before + 1


@pytest.mark.parametrize("method", ["Play", "WatchRoom", "WatchTicket"])
async def test_every_stream_kind_counts_as_a_stream_open(redis_url: str, redis: aioredis.Redis, method: str) -> None:
    async with gateways(redis_url, f"{GENEROUS},stream_open_per_user={HOUR}:2") as started:
        await stream_open([f"127.0.0.1:{g.port}" for g in started], redis, "user", method)


async def test_sign_in_is_limited_per_address_and_a_refused_one_creates_no_user(
    redis_url: str, redis: aioredis.Redis
) -> None:
    async with gateways(redis_url, f"sign_in_per_address={HOUR}:2") as started:
        targets = [f"127.0.0.1:{g.port}" for g in started]
        address = fresh_address()
        for _ in range(2):
            await Player(targets, address).sign_in()
        await Player(targets, fresh_address()).sign_in()  # another address has its own bucket
        users_before = len([k async for k in redis.scan_iter(match=keys.user("*"), count=1000)])
        assert_rate_limited(await refused(Player(targets, address).sign_in()), "sign_in_per_address")
        assert len([k async for k in redis.scan_iter(match=keys.user("*"), count=1000)]) == users_before


async def test_a_call_refused_by_one_bucket_takes_nothing_from_the_other(redis_url: str) -> None:
    """Per user and per address are separate buckets, taken together or not at all: a user's
    refused calls leave the address's allowance to others."""
    limits = f"{GENEROUS},create_game_per_user={HOUR}:1,create_game_per_address={HOUR}:2"
    async with gateways(redis_url, limits) as started:
        targets = [f"127.0.0.1:{g.port}" for g in started]
        address = fresh_address()
        greedy, other, third = [await Player(targets, address).sign_in() for _ in range(3)]
        await counter_game(greedy)
        for _ in range(3):
            assert_rate_limited(await refused(counter_game(greedy)), "create_game_per_user")
        await counter_game(other)  # the address's second call: the greedy user's refusals took none
        assert_rate_limited(await refused(counter_game(third)), "create_game_per_address")
        third.address = fresh_address()  # the same user elsewhere
        await counter_game(third)


async def test_forwarded_addresses_count_only_from_trusted_proxies(redis_url: str, redis: aioredis.Redis) -> None:
    """An anonymous watcher's stream lease is held under its address: the forwarded one from a
    trusted proxy, the peer's own otherwise (the header is then only the client's claim)."""
    trusting = Settings(
        redis_url=redis_url, secret="limits-test-secret-" + "l" * 32, bind="127.0.0.1:0", trusted_proxies="127.0.0.1/32"
    )
    untrusting = Settings(redis_url=redis_url, secret="limits-test-secret-" + "l" * 32, bind="127.0.0.1:0")
    for settings, forwarded in ((trusting, True), (untrusting, False)):
        gateway = await start_gateway(settings)
        try:
            target = [f"127.0.0.1:{gateway.port}"]
            game = await counter_game(await Player(target, fresh_address()).sign_in())
            spectator = Player(target, fresh_address())
            call = spectator.games().WatchGame(game_service_pb2.WatchGameRequest(game=game), metadata=spectator.md())
            await _first(call)
            subject = spectator.address.rsplit("::", 1)[0] + "::/64"
            held = await redis.zcard(keys.stream_leases(f"address:{subject}"))
            assert held == (1 if forwarded else 0)
            if not forwarded:
                assert await redis.zcard(keys.stream_leases("address:127.0.0.1")) >= 1
            call.cancel()
        finally:
            await gateway.stop(0)


# --- quotas ------------------------------------------------------------------------------
async def test_open_games_quota_frees_when_a_game_finishes_or_expires(redis_url: str, redis: aioredis.Redis) -> None:
    async with gateways(redis_url, f"{GENEROUS},open_games_per_user=2") as started, own_worker(redis_url):
        targets = [f"127.0.0.1:{g.port}" for g in started]
        host = await Player(targets, fresh_address()).sign_in()
        guest = await Player(targets, fresh_address()).sign_in()
        short, other = await counter_game(host, moves=1), await counter_game(host)
        request = game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, request_id="third")
        assert_quota_exceeded(
            await refused(host.games().CreateGame(request, metadata=host.md())), "open_games_per_user"
        )
        assert not await redis.exists(keys.game(created_game_id("third", host.user)))
        await guest.games().CreateGame(request, metadata=guest.md())  # another user's quota is its own
        # The one-move game is played to its end (seat 0, the host's, moves first): a place is free again.
        join = game_service_pb2.JoinGameRequest(game=short)
        seat_token = (await host.games().JoinGame(join, metadata=host.md())).seat_token
        await guest.games().JoinGame(join, metadata=guest.md())
        submit = game_service_pb2.SubmitActionRequest(game=short, action=add(1))
        await host.games().SubmitAction(submit, metadata=host.md(seat_token), timeout=20)
        await host.games().CreateGame(request, metadata=host.md())
        # Full again; the other game expires (its keys go): a place is free again.
        assert_quota_exceeded(await refused(counter_game(host)), "open_games_per_user")
        await redis.delete(*keys.game_keys(other.removeprefix("games/")))
        await counter_game(host)


async def test_open_rooms_quota_frees_when_the_room_closes(redis_url: str, redis: aioredis.Redis) -> None:
    async with gateways(redis_url, f"{GENEROUS},open_rooms_per_user=1") as started:
        host = await Player([f"127.0.0.1:{g.port}" for g in started], fresh_address()).sign_in()
        create = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2)
        room = (await host.lobby().CreateRoom(create, metadata=host.md())).room.name
        second = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id="second")
        assert_quota_exceeded(await refused(host.lobby().CreateRoom(second, metadata=host.md())), "open_rooms_per_user")
        room_id = uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:room:{host.user}:second").hex
        assert not await redis.exists(keys.room(room_id))
        await host.lobby().LeaveRoom(lobby_service_pb2.LeaveRoomRequest(room=room), metadata=host.md())  # closes it
        await host.lobby().CreateRoom(second, metadata=host.md())


async def test_streams_per_user_are_counted_over_every_gateway_and_freed_when_a_stream_ends(
    redis_url: str, redis: aioredis.Redis
) -> None:
    async with gateways(redis_url, f"{GENEROUS},streams_per_user=2") as started:
        targets = [f"127.0.0.1:{g.port}" for g in started]
        host = await Player(targets, fresh_address()).sign_in()
        game = await counter_game(host)
        watch = game_service_pb2.WatchGameRequest(game=game)
        streams = [host.games().WatchGame(watch, metadata=host.md()) for _ in range(2)]  # one on each gateway
        try:
            for call in streams:
                await _first(call)
            third = host.games().WatchGame(watch, metadata=host.md())
            assert_quota_exceeded(await refused(_first(third)), "streams_per_user")
            assert await redis.zcard(keys.stream_leases(host.user)) == 2
            streams.pop().cancel()
            await until(lambda: _zcard_is(redis, keys.stream_leases(host.user), 1), 10, "the ended stream's lease")
            streams.append(host.games().WatchGame(watch, metadata=host.md()))
            await _first(streams[-1])
            # Renewal pushes every lease of a gateway forward in one pipeline.
            before = await redis.zrange(keys.stream_leases(host.user), 0, -1, withscores=True)
            for gateway in started:
                await gateway.limits.streams.renew()
            after = await redis.zrange(keys.stream_leases(host.user), 0, -1, withscores=True)
            assert dict(after).keys() == dict(before).keys()
            assert all(score >= dict(before)[member] for member, score in after)
        finally:
            for call in streams:
                call.cancel()


async def _zcard_is(redis: aioredis.Redis, key: str, count: int) -> bool:
    return bool(await redis.zcard(key) == count)


async def test_anonymous_streams_are_counted_per_address(redis_url: str) -> None:
    async with gateways(redis_url, f"{GENEROUS},anonymous_streams_per_address=1") as started:
        targets = [f"127.0.0.1:{g.port}" for g in started]
        host = await Player(targets, fresh_address()).sign_in()
        game = await counter_game(host)
        watch = game_service_pb2.WatchGameRequest(game=game)
        spectator = Player(targets, fresh_address())  # no token
        first = spectator.games().WatchGame(watch, metadata=spectator.md())
        try:
            await _first(first)
            second = spectator.games().WatchGame(watch, metadata=spectator.md())
            assert_quota_exceeded(await refused(_first(second)), "anonymous_streams_per_address")
            elsewhere = Player(targets, fresh_address())
            third = elsewhere.games().WatchGame(watch, metadata=elsewhere.md())
            await _first(third)
            third.cancel()
        finally:
            first.cancel()


async def test_signed_in_streams_are_counted_per_address_over_every_user(redis_url: str, redis: aioredis.Redis) -> None:
    """More guests from one address do not add up to more streams: `streams_per_address` holds for
    them together, over both gateways; a refused open holds no lease; an ended stream frees one."""
    async with gateways(redis_url, f"{GENEROUS},streams_per_address=2") as started:
        targets = [f"127.0.0.1:{g.port}" for g in started]
        address = fresh_address()
        guests = [await Player(targets, address).sign_in(f"g{i}") for i in range(3)]
        game = await counter_game(guests[0])
        watch = game_service_pb2.WatchGameRequest(game=game)
        streams = [g.games().WatchGame(watch, metadata=g.md()) for g in guests[:2]]  # one on each gateway
        try:
            for call in streams:
                await _first(call)
            third = guests[2].games().WatchGame(watch, metadata=guests[2].md())
            assert_quota_exceeded(await refused(_first(third)), "streams_per_address")
            key = keys.stream_leases(f"signed-in:{subject(ipaddress.ip_address(address))}")
            assert await redis.zcard(key) == 2
            assert await redis.zcard(keys.stream_leases(guests[2].user)) == 0  # refused: nothing held
            elsewhere = await Player(targets, fresh_address()).sign_in()
            other = elsewhere.games().WatchGame(watch, metadata=elsewhere.md())
            await _first(other)
            other.cancel()
            streams.pop().cancel()
            await until(lambda: _zcard_is(redis, key, 1), 10, "the ended stream's lease")
            streams.append(guests[2].games().WatchGame(watch, metadata=guests[2].md()))
            await _first(streams[-1])
        finally:
            for call in streams:
                call.cancel()


async def test_streams_per_connection_are_counted_per_connection(redis_url: str) -> None:
    async with gateways(redis_url, f"{GENEROUS},streams_per_connection=2", count=1) as started:
        target = f"127.0.0.1:{started[0].port}"
        host = await Player([target], fresh_address()).sign_in()
        game = await counter_game(host)
        watch = game_service_pb2.WatchGameRequest(game=game)
        users = [await Player([target], fresh_address()).sign_in() for _ in range(3)]
        async with grpc.aio.insecure_channel(target, options=OWN_CONNECTION) as channel:  # one connection, three users
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            streams = [stub.WatchGame(watch, metadata=u.md()) for u in users[:2]]
            try:
                for call in streams:
                    await _first(call)
                third = stub.WatchGame(watch, metadata=users[2].md())
                assert_quota_exceeded(await refused(_first(third)), "streams_per_connection")
                other = users[2].games().WatchGame(watch, metadata=users[2].md())  # its own connection
                await _first(other)
                other.cancel()
            finally:
                for call in streams:
                    call.cancel()


async def test_one_waiting_ticket_per_user_per_queue(redis_url: str) -> None:
    async with gateways(redis_url, GENEROUS, count=1) as started:
        p = await Player([f"127.0.0.1:{started[0].port}"], fresh_address()).sign_in()
        request = matchmaking_service_pb2.CreateTicketRequest(kind="counter", options={"moves": "77"}, seat_counts=[2])
        await p.tickets().CreateTicket(request, metadata=p.md())
        again = await refused(p.tickets().CreateTicket(request, metadata=p.md()))
        assert (again.code, again.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "ERROR_REASON_TICKET_ALREADY_WAITING",
        )


def test_the_docs_list_every_limit_with_its_default() -> None:
    from pathlib import Path

    from flotilla.app.limits import LIMITS, parse_limits

    doc = (Path(__file__).resolve().parents[2] / "docs/security.md").read_text()
    for limit in LIMITS:
        per_minute = f"{limit.rate * 60:g}/min" if limit.rate * 60 >= 1 else f"{limit.rate * 3600:g}/h"
        rate = "—" if limit.is_quota else (f"{limit.rate:g}/s" if limit.rate >= 1 else per_minute)
        assert f"| `{limit.name}` | {limit.what} | {limit.per} | {rate} | {limit.burst} |" in doc
    assert parse_limits("") == {limit.name: limit for limit in LIMITS}
    changed = parse_limits("submit_per_user=120/m:7, open_games_per_user=3, join_per_address=off")
    assert (changed["submit_per_user"].rate, changed["submit_per_user"].burst) == (2.0, 7)
    assert changed["open_games_per_user"].burst == 3
    assert "join_per_address" not in changed
    assert parse_limits("off") == {}
    for bad in ("nope=1/s", "submit_per_user=3", "open_games_per_user=1/s", "submit_per_user=0/s"):
        with pytest.raises(ValueError, match="FLOTILLA_LIMITS"):
            parse_limits(bad)


async def test_the_sdk_retries_a_short_rate_limit_and_never_a_quota(redis_url: str) -> None:
    """FlotillaClient waits out a RATE_LIMITED refusal's RetryInfo (here 0.5 s) and succeeds; a long
    one (here an hour) and QUOTA_EXCEEDED come back to the caller at once."""
    from flotilla_client import FlotillaClient, FlotillaError

    limits = f"{GENEROUS},create_game_per_user=2/s:1,join_per_user={HOUR}:1,open_games_per_user=2"
    before = refusals("create_game_per_user")
    async with gateways(redis_url, limits, count=1) as started:
        client = FlotillaClient(f"127.0.0.1:{started[0].port}")
        try:
            await client.sign_in("sdk")
            first = await client.create_game("counter", 2)
            second = await client.create_game("counter", 2)  # refused for 0.5 s, then retried: passes
            assert refusals("create_game_per_user") >= before + 1
            with pytest.raises(FlotillaError) as caught:
                await client.create_game("counter", 2)
            assert (caught.value.reason, caught.value.metadata) == (
                "ERROR_REASON_QUOTA_EXCEEDED",
                {"limit": "open_games_per_user"},
            )
            await client.join(first.name)
            with pytest.raises(FlotillaError) as caught:
                await client.join(second.name)  # the next join passes in an hour: not waited for
            assert (caught.value.reason, caught.value.metadata) == (
                "ERROR_REASON_RATE_LIMITED",
                {"limit": "join_per_user"},
            )
        finally:
            await client.close()
