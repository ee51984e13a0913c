"""Issue 23, the limits part: hostile clients against real gateways and a real Redis.

Forwarded headers under one rule, bot accounts' move limits, per-seat move limits, etags without a
lineage, display names. Helpers come from test_limits.py (fresh addresses sent as forwarded
headers, which these gateways trust from 127.0.0.1).
"""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
import pytest
import redis.asyncio as aioredis
from prometheus_client import REGISTRY

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2
from flotilla.store import keys
from flotilla.store.auth_store import AuthStore
from gateway.test_limits import (
    GENEROUS,
    HOUR,
    Player,
    _first,
    _version,
    _zcard_is,
    add,
    assert_quota_exceeded,
    assert_rate_limited,
    counter_game,
    fresh_address,
    gateways,
    refused,
    seated_game,
)
from inproc import own_worker
from support import until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@pytest.fixture
async def redis(redis_url: str) -> aioredis.Redis:
    client = aioredis.Redis.from_url(redis_url)
    yield client  # type: ignore[misc]
    await client.aclose()


# --- forwarded headers: one rule ----------------------------------------------------------
async def _sign_in(target: list[str], metadata: list[tuple[str, str]]) -> None:
    stub = game_service_pb2_grpc.AuthServiceStub(Player(target, "").channel())
    await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="p"), metadata=metadata)


def _bucket(address: str) -> str:
    return keys.limit_bucket("sign_in_per_address", address.rsplit("::", 1)[0] + "::/64")


@pytest.mark.parametrize("header", ["x-forwarded-for", "forwarded"])
async def test_a_clients_own_forwarded_header_never_picks_its_address(
    redis_url: str, redis: aioredis.Redis, header: str
) -> None:
    """Behind a trusted proxy (127.0.0.1) that writes `header`, a client's own header of the other
    kind, before or after the proxy's, is ignored, and its own copy of `header` (left of what the
    proxy appended) too: the call counts against the address the proxy saw, never a victim's."""
    async with gateways(redis_url, f"sign_in_per_address={HOUR}:1", count=1, forwarded_header=header) as started:
        target = [f"127.0.0.1:{started[0].port}"]
        client, victim = fresh_address(), fresh_address()

        def written(address: str) -> str:  # what the trusted proxy appends
            return address if header == "x-forwarded-for" else f'for="[{address}]";proto=http'

        other = "forwarded" if header == "x-forwarded-for" else "x-forwarded-for"
        other_value = f'for="[{victim}]"' if other == "forwarded" else victim
        await _sign_in(target, [(header, written(client))])  # the client's one sign-in
        chains = (
            [(header, written(client)), (other, other_value)],  # the finding: the client's header after the proxy's
            [(other, other_value), (header, written(client))],
            [(header, written(victim)), (header, written(client))],  # its own copy, then the proxy's line
            [(header, f"{written(victim)}, {written(client)}")],  # the same in one line
        )
        for chain in chains:
            assert_rate_limited(await refused(_sign_in(target, chain)), "sign_in_per_address")
        assert not await redis.exists(_bucket(victim))  # the victim was never charged


async def test_a_chain_of_trusted_proxies_is_walked_to_the_first_untrusted_hop(redis_url: str) -> None:
    """Proxies 127.0.0.0/8 in a row: the right-most hop that is not one of them is the client; a
    malformed hop ends the walk there (nothing left of it is believed)."""
    async with gateways(redis_url, f"sign_in_per_address={HOUR}:1", count=1, trusted_proxies="127.0.0.0/8") as started:
        target = [f"127.0.0.1:{started[0].port}"]
        client, spoofed = fresh_address(), fresh_address()
        await _sign_in(target, [("x-forwarded-for", f"{spoofed}, {client}, 127.0.0.9, 127.0.0.3")])
        assert_rate_limited(
            await refused(_sign_in(target, [("x-forwarded-for", f"{client}, 127.0.0.2")])), "sign_in_per_address"
        )
        await _sign_in(target, [("x-forwarded-for", spoofed)])  # the spoofed hop was not charged
        # A malformed hop: the address is the trusted proxy right of it (127.0.0.7), once.
        await _sign_in(target, [("x-forwarded-for", f"{fresh_address()}, nonsense, 127.0.0.7")])
        assert_rate_limited(
            await refused(_sign_in(target, [("x-forwarded-for", f"{fresh_address()}, junk, 127.0.0.7")])),
            "sign_in_per_address",
        )


# --- etags: a bare version is refused where the game's etags carry a lineage -----------------
async def test_a_bare_version_etag_is_refused_and_changes_nothing(redis_url: str, redis: aioredis.Redis) -> None:
    """`"1"` names version 1 of no history: refused INVALID_ARGUMENT naming the field and showing
    what an etag looks like; the move is not applied. The etag as returned still works."""
    async with gateways(redis_url, GENEROUS) as started, own_worker(redis_url):
        targets = [f"127.0.0.1:{g.port}" for g in started]
        async with seated_game(targets, "user") as (players, tokens, game):
            p, token = players[0], tokens[0]
            first = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m0")
            etag = (await p.games().SubmitAction(first, metadata=p.md(token), timeout=20)).etag
            p, token = players[1], tokens[1]
            version, _, lineage = etag.partition(".")
            assert lineage, etag  # this game's etags carry a lineage
            for bare in (version, f'"{version}"'):
                request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m1", etag=bare)
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await p.games().SubmitAction(request, metadata=p.md(token), timeout=20)
                assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
                details = caught.value.details() or ""
                assert "no lineage" in details
                assert etag in details
                assert await _version(p, game) == int(version)
            request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m2", etag=etag)
            reply = await p.games().SubmitAction(request, metadata=p.md(token), timeout=20)
            assert reply.etag.startswith(f"{int(version) + 1}.")


# --- moves: per game and seat, and bot accounts sized for many games ------------------------
async def _bot(targets: list[str], redis: aioredis.Redis) -> Player:
    """A bot account signed in with an API key (minted as `flotilla apikey create` does)."""
    _record, key = await AuthStore(redis).create_api_key(f"bot-{fresh_address()[-6:]}")
    bot = Player(targets, fresh_address())
    stub = game_service_pb2_grpc.AuthServiceStub(bot.channel())
    reply = await stub.SignInWithApiKey(game_service_pb2.SignInWithApiKeyRequest(api_key=key), metadata=bot.md())
    bot.token, bot.user = reply.session_token, reply.user.removeprefix("users/")
    return bot


async def _seat(p: Player, game: str) -> str:
    reply = await p.games().JoinGame(game_service_pb2.JoinGameRequest(game=game), metadata=p.md())
    return reply.seat_token


async def _move(p: Player, token: str, game: str, request_id: str) -> None:
    request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id=request_id)
    await p.games().SubmitAction(request, metadata=p.md(token), timeout=30)


GAMES, PER_GAME_RATE, MOVES = 10, 10.0, 30  # 100 moves a second in all: 100 games at 1/s, scaled


async def test_a_bot_account_moving_in_many_games_at_once_is_never_refused(
    redis_url: str, redis: aioredis.Redis
) -> None:
    """Default limits: a bot account (API key) moves in 10 games at up to 10 moves a second each,
    100 a second from one address, 300 moves in about 3 s (what 100 games at a move a second ask
    of the per-bot and per-address buckets; each seat stays under submit_per_seat). No move is
    refused (a refusal raises). On the old limits (20/s per user, burst 60) this failed after
    about 80 moves; on a machine too loaded to keep the pace it passes without proving as much."""
    async with gateways(redis_url, "", count=1) as started, own_worker(redis_url):
        targets = [f"127.0.0.1:{started[0].port}"]
        bot = await _bot(targets, redis)
        games = []
        for _ in range(GAMES):  # a creator and opponent per game, each from its own address
            rival = await Player(targets, fresh_address()).sign_in("rival")
            game = await counter_game(rival, moves=200)
            games.append((game, await _seat(bot, game), rival, await _seat(rival, game)))

        async def play(game: str, mine: str, rival: Player, theirs: str) -> None:
            loop = asyncio.get_running_loop()
            start = loop.time()
            for n in range(MOVES):
                await asyncio.sleep(max(0.0, start + n / PER_GAME_RATE - loop.time()))  # pacing, not synchronisation
                await _move(bot, mine, game, f"b{n}")
                await _move(rival, theirs, game, f"r{n}")

        before = {limit: refusals_by(limit) for limit in ("submit_per_bot", "submit_per_seat", "submit_per_address")}
        await asyncio.gather(*(play(*g) for g in games))
        assert {limit: refusals_by(limit) for limit in before} == before


async def test_a_bot_account_is_held_to_its_rate_per_game_and_seat(redis_url: str, redis: aioredis.Redis) -> None:
    """A bot account's moves in one game are bounded by submit_per_seat (here 3 an hour): the
    refused move is not applied, and the same bot's other game is not held back."""
    async with gateways(redis_url, f"submit_per_seat={HOUR}:3", count=1) as started, own_worker(redis_url):
        targets = [f"127.0.0.1:{started[0].port}"]
        bot = await _bot(targets, redis)
        rival = await Player(targets, fresh_address()).sign_in("rival")
        games = [await counter_game(rival) for _ in range(2)]
        seats = [(await _seat(bot, g), await _seat(rival, g)) for g in games]
        shown = await rival.games().GetGame(game_service_pb2.GetGameRequest(game=games[0]), metadata=rival.md())
        assert shown.game.seats[0].display_name.endswith(" (bot)")  # a bot account is marked as one
        for i in range(3):
            await _move(bot, seats[0][0], games[0], f"b{i}")
            await _move(rival, seats[0][1], games[0], f"r{i}")
        before = await _version(bot, games[0])
        assert_rate_limited(await refused(_move(bot, seats[0][0], games[0], "b3")), "submit_per_seat")
        assert await _version(bot, games[0]) == before
        assert not await redis.exists(keys.game_reply(games[0].removeprefix("games/"), 0, "b3"))
        await _move(bot, seats[1][0], games[1], "b0")  # another game, another seat: its own bucket


def refusals_by(limit: str) -> float:
    return REGISTRY.get_sample_value("flotilla_limit_refusals_total", {"limit": limit}) or 0.0


# --- names ---------------------------------------------------------------------------------
async def _users(redis: aioredis.Redis) -> int:
    return len([k async for k in redis.scan_iter(match=keys.user("*"), count=1000)])


@pytest.mark.parametrize(
    "name",
    [
        " \u3000 ",  # spaces only
        "\u3164",  # Hangul filler
        "\u2800\u2800",  # braille blanks
        "\u0301\u0302",  # combining marks alone
        "Bot 2 (random)",  # a server bot's name
        "B0T 7 ( ISMCTS )",  # the same, spelt otherwise
        "Ada (bоt)",  # a Cyrillic о
    ],
)
async def test_blank_and_bot_impersonating_names_are_refused(redis_url: str, redis: aioredis.Redis, name: str) -> None:
    """INVALID_ARGUMENT naming the field; no user is made."""
    async with gateways(redis_url, GENEROUS, count=1) as started:
        p = Player([f"127.0.0.1:{started[0].port}"], fresh_address())
        before = await _users(redis)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await p.sign_in(name)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "display_name" in (caught.value.details() or "")
        assert await _users(redis) == before


async def test_look_alike_names_in_one_room_are_told_apart(redis_url: str) -> None:
    """ "Ada" hosts, "Аda" (a Cyrillic А) joins: the room shows "Ada" and "Аda (2)"."""
    async with gateways(redis_url, GENEROUS, count=1) as started:
        targets = [f"127.0.0.1:{started[0].port}"]
        host = await Player(targets, fresh_address()).sign_in("Ada")
        request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id="names")
        room = (await host.lobby().CreateRoom(request, metadata=host.md())).room.name
        twin = await Player(targets, fresh_address()).sign_in("\u0410da")
        await twin.lobby().JoinRoom(lobby_service_pb2.JoinRoomRequest(room=room), metadata=twin.md())
        got = await host.lobby().GetRoom(lobby_service_pb2.GetRoomRequest(room=room), metadata=host.md())
        assert [s.display_name for s in got.room.seats] == ["Ada", "\u0410da (2)"]


# --- bounded cost: bot seats and rooms' games ------------------------------------------------
async def _room(host: Player, request_id: str) -> str:
    request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id=request_id)
    return (await host.lobby().CreateRoom(request, metadata=host.md())).room.name


def _add_bot(host: Player, room: str, policy: str, difficulty: int) -> Any:
    request = lobby_service_pb2.AddBotRequest(room=room, policy=policy, difficulty=difficulty)
    return host.lobby().AddBot(request, metadata=host.md())


async def test_server_bots_are_held_to_a_budget_that_prices_policy_and_difficulty(redis_url: str) -> None:
    """Default budget (40): top-difficulty ISMCTS costs 20, ISMCTS at 1 costs 8, heuristic at 2
    costs 3. With 31 spent, another top ISMCTS bot is refused QUOTA_EXCEEDED (the room keeps its
    open seat) while a random bot (1) still fits."""
    async with gateways(redis_url, GENEROUS, count=1) as started:
        host = await Player([f"127.0.0.1:{started[0].port}"], fresh_address()).sign_in("host")
        for i, (policy, difficulty) in enumerate((("ismcts", 2), ("ismcts", 1), ("heuristic", 2))):
            await _add_bot(host, await _room(host, f"r{i}"), policy, difficulty)
        last = await _room(host, "r3")
        assert_quota_exceeded(await refused(_add_bot(host, last, "ismcts", 9)), "bot_cost_per_user")
        got = await host.lobby().GetRoom(lobby_service_pb2.GetRoomRequest(room=last), metadata=host.md())
        assert got.room.open_seats == 1
        await _add_bot(host, last, "random", 9)


async def test_a_started_room_counts_until_its_game_is_over(redis_url: str) -> None:
    """A room whose game runs still counts in open_rooms_per_user (here 1): its host cannot open
    another room (and so start another bot game) until that game is over."""
    async with gateways(redis_url, f"{GENEROUS},open_rooms_per_user=1", count=1) as started:
        host = await Player([f"127.0.0.1:{started[0].port}"], fresh_address()).sign_in("host")
        room = await _room(host, "first")
        await _add_bot(host, room, "random", 0)
        await host.lobby().SetReady(lobby_service_pb2.SetReadyRequest(room=room, ready=True), metadata=host.md())
        reply = await host.lobby().StartRoom(lobby_service_pb2.StartRoomRequest(room=room), metadata=host.md())
        assert reply.room.game
        assert_quota_exceeded(await refused(_room(host, "second")), "open_rooms_per_user")


async def test_signed_in_streams_are_capped_per_address(redis_url: str, redis: aioredis.Redis) -> None:
    """Many guests from one address cannot hold more than streams_per_address streams (here 2,
    scaled from 128): the third guest's stream is refused QUOTA_EXCEEDED and holds no lease; one
    ending frees a place; another address is not affected."""
    async with gateways(redis_url, f"{GENEROUS},streams_per_address=2", count=1) as started:
        targets = [f"127.0.0.1:{started[0].port}"]
        address = fresh_address()
        guests = [await Player(targets, address).sign_in(f"g{i}") for i in range(3)]
        game = await counter_game(guests[0])
        watch = game_service_pb2.WatchGameRequest(game=game)
        calls = [g.games().WatchGame(watch, metadata=g.md()) for g in guests[:2]]
        try:
            for call in calls:
                await _first(call)
            assert_quota_exceeded(
                await refused(_first(guests[2].games().WatchGame(watch, metadata=guests[2].md()))),
                "streams_per_address",
            )
            assert not await redis.exists(keys.stream_leases(guests[2].user))
            elsewhere = await Player(targets, fresh_address()).sign_in("e")
            other = elsewhere.games().WatchGame(watch, metadata=elsewhere.md())
            await _first(other)
            other.cancel()
            calls[0].cancel()
            subject = address.rsplit("::", 1)[0] + "::/64"
            await until(lambda: _zcard_is(redis, keys.stream_leases(f"signed-in:{subject}"), 1), 10, "a lease freed")
            calls[0] = guests[2].games().WatchGame(watch, metadata=guests[2].md())
            await _first(calls[0])
        finally:
            for call in calls:
                call.cancel()


# --- slow bodies on the browser listener --------------------------------------------------------
