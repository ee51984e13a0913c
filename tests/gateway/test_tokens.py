"""Seat and session tokens over real gRPC: who may act, expiry, refresh, revocation, key rotation.

Against gateways and a worker in the test process (tests/inproc.py): the module's `inproc`, and
gateways of a test's own settings (`own_gateway`, on its Redis; the module's worker applies their moves).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import grpc
import jwt
import pytest
import redis.asyncio as aioredis
from prometheus_client import REGISTRY

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.auth_store import AuthStore
from flotilla_client import FlotillaClient, FlotillaError, Seat, rpcs
from inproc import InProcess, own_gateway
from support import stored_tokens, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


async def seated(
    target: str, clock: game_pb2.Clock | None = None
) -> tuple[FlotillaClient, FlotillaClient, str, Seat, Seat]:
    host, other = FlotillaClient(target), FlotillaClient(target)
    await host.sign_in("host")
    await other.sign_in("other")
    request = game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, options={"moves": "200"})
    if clock is not None:
        request.clock.CopyFrom(clock)
    name = (await host.games.CreateGame(request, metadata=host._auth(host.session_token))).game.name
    return host, other, name, await host.join(name), await other.join(name)


async def rpc_error(call: object) -> FlotillaError:
    with pytest.raises(FlotillaError) as caught:
        await call  # type: ignore[misc]
    return caught.value


async def test_acting_needs_the_seat_token_on_every_path(inproc: InProcess) -> None:
    """SubmitAction, Play submissions and LeaveGame refuse a session token, even the seated user's."""
    host, other, game, seat, _ = await seated(inproc.gateways[0])
    session_seat = Seat(game, 0, host.session_token)
    error = await rpc_error(host.submit(game, session_seat, add(1)))
    assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_SEAT_TOKEN_REQUIRED")
    leave = game_service_pb2.LeaveGameRequest(game=game, request_id="leave-1")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await host.games.LeaveGame(leave, metadata=host._auth(host.session_token))
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    stream = host.play(session_seat)
    async for response in stream:
        if response.HasField("update") and response.update.HasField("prompt"):  # it reads the seat's prompt ...
            stream.send(response.update.prompt.legal_actions[0], etag=response.update.prompt.etag)
        if response.HasField("outcome"):  # ... but may not act on it
            assert response.outcome.status.code == grpc.StatusCode.PERMISSION_DENIED.value[0]
            break
    stream.close()
    stream.call.cancel()
    assert (await host.get_game(game)).last_event_id == 1  # nothing was applied
    assert (await host.submit(game, seat, add(1))).through_event_id == 2  # the seat token acts
    # A seat token is no session: it cannot create games or join others.
    error = await rpc_error(
        host.unary(rpcs.CREATE_GAME, game_service_pb2.CreateGameRequest(kind="counter"), seat.token)
    )
    assert error.code == grpc.StatusCode.UNAUTHENTICATED
    await host.close()
    await other.close()


async def test_leaving_revokes_the_seats_tokens_and_the_seat_can_no_longer_act(inproc: InProcess) -> None:
    host, other, game, seat, other_seat = await seated(inproc.gateways[0])
    await host.submit(game, seat, add(1))
    opened = asyncio.Event()

    async def follow() -> None:
        async for _ in host.watch(game, seat):
            opened.set()

    following = asyncio.create_task(follow())
    await asyncio.wait_for(opened.wait(), 10)
    left = await host.unary(rpcs.LEAVE_GAME, game_service_pb2.LeaveGameRequest(game=game, request_id="bye"), seat.token)
    assert isinstance(left, game_service_pb2.LeaveGameResponse)
    redis = aioredis.Redis.from_url(inproc.redis_url)
    try:
        ttl = await redis.ttl(keys.revoked_seat(game.removeprefix("games/"), 0))
    finally:
        await redis.aclose()
    assert 0 < ttl <= Settings().seat_token_ttl_s  # the record lives no longer than a seat token
    with pytest.raises(FlotillaError) as caught:  # the seat's open stream ends after telling it left
        await asyncio.wait_for(following, 10)
    assert caught.value.reason == "ERROR_REASON_TOKEN_REVOKED"
    for call in (
        host.view(game, seat),
        host.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=seat.token)),
    ):
        error = await rpc_error(call)
        assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_TOKEN_REVOKED")
    # The seat is absent: the worker refuses its actions with a typed error, whoever sends them.
    tokens = await stored_tokens(inproc.redis_url)
    forged_fresh = tokens.seat(game.removeprefix("games/"), 0, host.user.removeprefix("users/"), "host")
    error = await rpc_error(host.submit(game, Seat(game, 0, forged_fresh), add(1)))
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_SEAT_ABSENT")
    # Its default play goes on: the other seat moves, the absent seat's turn is played for it.
    before = (await host.get_game(game)).last_event_id
    await other.submit(game, other_seat, add(1))
    await until(lambda: _moved(host, game, before + 2), 10, "the absent seat's turn to be played for it")
    # The user who left watches as a spectator now (its session token no longer reads the seat).
    view = await host.view(game)
    assert not view.HasField("prompt")
    await host.close()
    await other.close()


def _refused(reason: str) -> float:
    """flotilla_gateway_tokens_refused_total of the in-process gateways."""
    return REGISTRY.get_sample_value("flotilla_gateway_tokens_refused_total", {"reason": reason}) or 0.0


async def _moved(client: FlotillaClient, game: str, at_least: int) -> bool:
    return (await client.get_game(game)).last_event_id >= at_least


async def test_a_seat_absent_after_timeouts_cannot_act_but_is_played(inproc: InProcess) -> None:
    """Seat 0 answers each of its turns at once (within the 2 s clock: a 1 s clock ran out for it
    too at load 35, behind the test's own calls on the absent seat), seat 1 never."""
    clock = game_pb2.Clock(turn_seconds=2, max_timeouts=1)
    host, other, game, seat, other_seat = await seated(inproc.gateways[0], clock)
    await host.submit(game, seat, add(1))  # seat 1 must act now, and will not
    await until(lambda: _moved(host, game, 4), 15, "seat 1 to time out and be played")
    reply = await host.submit(game, seat, add(1), etag="")  # the present seat plays on
    assert reply.through_event_id > 4
    error = await rpc_error(other.submit(game, other_seat, add(1)))
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_SEAT_ABSENT")
    error = await rpc_error(
        other.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=other_seat.token))
    )
    assert error.reason == "ERROR_REASON_SEAT_ABSENT"
    await host.close()
    await other.close()


async def test_refresh_gives_a_fresh_token_of_the_same_kind(inproc: InProcess) -> None:
    async with own_gateway(inproc.redis_url, session_ttl_s=600, seat_token_ttl_s=300) as running:
        host, other, game, seat, _ = await seated(f"127.0.0.1:{running.port}")
        redis = aioredis.Redis.from_url(inproc.redis_url)
        record = keys.user(host.user.removeprefix("users/"))
        await redis.expire(record, 100)
        for token, ttl in ((host.session_token, 600), (seat.token, 300)):
            reply = await host.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=token))
            assert isinstance(reply, game_service_pb2.RefreshTokenResponse)
            assert reply.expires_in == ttl
            old, new = (jwt.decode(t, options={"verify_signature": False}) for t in (token, reply.token))
            assert {k: old[k] for k in ("sub", "typ")} == {k: new[k] for k in ("sub", "typ")}
            assert old.get("seat") == new.get("seat")
            assert new["exp"] >= old["exp"]
        assert await redis.ttl(record) > 100  # a guest who refreshes keeps their record as long
        await redis.aclose()
        renewed = Seat(game, 0, reply.token)
        assert (await host.submit(game, renewed, add(1))).through_event_id == 2
        # Another user's seat token for this seat is not refreshed: they do not hold it.
        tokens = await stored_tokens(inproc.redis_url)
        theirs = tokens.seat(game.removeprefix("games/"), 0, other.user.removeprefix("users/"), "other")
        error = await rpc_error(other.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=theirs)))
        assert (error.code, error.reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_NOT_SEATED")
        await host.close()
        await other.close()


async def test_expired_tokens_are_refused_and_cannot_be_refreshed(inproc: InProcess) -> None:
    async with own_gateway(inproc.redis_url) as running:
        client = FlotillaClient(f"127.0.0.1:{running.port}")
        tokens = await stored_tokens(inproc.redis_url)
        expired = tokens._sign({"typ": "session", "sub": "u", "name": "n"}, -60)
        for call in (
            client.unary(rpcs.CREATE_GAME, game_service_pb2.CreateGameRequest(kind="counter", seat_count=2), expired),
            client.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=expired)),
        ):
            error = await rpc_error(call)
            assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_TOKEN_EXPIRED")
        await client.close()


async def test_the_sdk_refreshes_tokens_and_resumes_streams_past_their_expiry(inproc: InProcess) -> None:
    """Tokens live 3 s; the SDK plays and watches for longer without one error."""
    async with own_gateway(inproc.redis_url, session_ttl_s=3, seat_token_ttl_s=3, heartbeat_s=0.2) as running:
        target = f"127.0.0.1:{running.port}"
        host, other, game, seat, other_seat = await seated(target)
        watcher = FlotillaClient(target)
        await watcher.sign_in("watcher")
        seen: list[int] = []
        opened = asyncio.Event()

        async def watch() -> None:
            async for update in watcher.watch(game):
                seen.extend(e.event_id for e in update.events)
                opened.set()
                if len(seen) >= 8:
                    return

        watching = asyncio.create_task(watch())
        await asyncio.wait_for(opened.wait(), 10)  # the full view came: every move from now is an event
        started = time.monotonic()
        for i in range(8):
            if i:
                await asyncio.sleep(0.6)  # 8 moves over ~4.5 s: past every token's first expiry
            player, mine = (host, seat) if i % 2 == 0 else (other, other_seat)
            await player.submit(game, mine, add(1))
        await asyncio.wait_for(watching, 20)
        assert time.monotonic() - started > 3
        assert seen == list(range(2, 10))  # every event once, in order, across the resumes
        for client, token in ((host, seat.token), (watcher, watcher.session_token)):
            assert client.current(token) != token  # refreshed
        for client in (host, other, watcher):
            await client.close()


async def test_keys_rotate_without_logging_anyone_out(inproc: InProcess) -> None:
    auth_redis = aioredis.Redis.from_url(inproc.redis_url)
    auth = AuthStore(auth_redis)
    try:
        async with (
            own_gateway(inproc.redis_url, keys_refresh_s=3600) as first,
            own_gateway(inproc.redis_url, keys_refresh_s=3600) as second,
        ):
            client = FlotillaClient(f"127.0.0.1:{first.port}")
            await client.sign_in("before")
            old_kid = jwt.get_unverified_header(client.session_token)["kid"]
            new_kid, _ = await auth.rotate(retire_after_s=3600)
            # A gateway that has not reloaded yet accepts a token of the new key (it reloads once) ...
            fresh = (await stored_tokens(inproc.redis_url)).session("u", "n")
            assert jwt.get_unverified_header(fresh)["kid"] == new_kid
            loads = second.tokens.keys.loads
            other = FlotillaClient(f"127.0.0.1:{second.port}")
            other.session_token = fresh
            await other.create_game("counter", 2)
            assert second.tokens.keys.loads == loads + 1
            # ... and then signs with it, while the old key's tokens keep working everywhere.
            await other.sign_in("after")
            assert jwt.get_unverified_header(other.session_token)["kid"] == new_kid
            await client.create_game("counter", 2)
            other.session_token = client.session_token
            await other.create_game("counter", 2)
            assert jwt.get_unverified_header(client.session_token)["kid"] == old_kid
            # Forged kids do not make calls reach Redis: one load at most per second, then remembered.
            loads = second.tokens.keys.loads
            header_tokens = [
                jwt.encode({"sub": "u"}, b"x" * 32, headers={"kid": f"forged-{uuid.uuid4().hex[:8]}"}) for _ in range(3)
            ]
            refused_before = _refused("UNAUTHENTICATED")
            for forged in header_tokens * 20:
                other.session_token = forged
                error = await rpc_error(other.create_game("counter", 2))
                assert error.code == grpc.StatusCode.UNAUTHENTICATED
            assert second.tokens.keys.loads - loads <= 3
            assert _refused("UNAUTHENTICATED") - refused_before == 60  # counted for the operator
            await client.close()
            await other.close()
        # Keys superseded longer ago than the longest token lifetime are retired by a rotation.
        _, retired = await auth.rotate(retire_after_s=0)
        assert old_kid in retired
        assert old_kid not in (await auth.key_set()).keys
    finally:
        await auth_redis.aclose()


async def test_gateways_pick_up_a_rotation_by_their_periodic_refresh(inproc: InProcess) -> None:
    auth_redis = aioredis.Redis.from_url(inproc.redis_url)
    try:
        async with own_gateway(inproc.redis_url, keys_refresh_s=0.2) as running:
            client = FlotillaClient(f"127.0.0.1:{running.port}")
            new_kid, _ = await AuthStore(auth_redis).rotate(retire_after_s=3600)

            async def signs_with_the_new_key() -> bool:
                await client.sign_in("later")
                return bool(jwt.get_unverified_header(client.session_token)["kid"] == new_kid)

            await until(signs_with_the_new_key, 10, "the gateway to sign with the rotated key", every_s=0.05)
            await client.close()
    finally:
        await auth_redis.aclose()
