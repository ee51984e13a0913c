"""Browsers' transports against a real in-process gateway and Redis: the Connect protocol (JSON and
binary) and gRPC-Web, spoken by hand with httpx over HTTP/1.1 and cleartext HTTP/2 on 127.0.0.1.

Every call is answered by the gRPC servicers through the gateway's own server (gateway/browser.py),
so errors carry the same code and ErrorInfo reason as over gRPC."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import ssl
import struct
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import httpx
import pytest
import trustme
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from prometheus_client import REGISTRY

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2
from flotilla.gateway.server import Gateway, start_gateway
from flotilla.settings import Settings
from flotilla.store import keys
from support import stack_limits

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]

ORIGIN = "https://play.example"
GAME = "/flotilla.api.game.v1.GameService"
AUTH = "/flotilla.api.game.v1.AuthService"
LOBBY = "/flotilla.api.lobby.v1.LobbyService"


@pytest.fixture
async def gateway(redis_url: str) -> AsyncIterator[Gateway]:
    settings = Settings(
        redis_url=redis_url,
        secret="browser-" + "b" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        browser_cors_origins=ORIGIN,
        limits=stack_limits(),
    )
    started = await start_gateway(settings)
    yield started
    await started.stop(0)


@pytest.fixture
async def http(gateway: Gateway) -> AsyncIterator[httpx.AsyncClient]:
    assert gateway.browser is not None
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{gateway.browser.port}", timeout=10) as client:
        yield client


def envelope(message: Message, flags: int = 0) -> bytes:
    data = message.SerializeToString()
    return struct.pack(">BI", flags, len(data)) + data


def frames(body: bytes) -> list[tuple[int, bytes]]:
    """The (flags, payload) frames of an enveloped (Connect streaming or gRPC-Web) body."""
    found = []
    while body:
        flags, size = struct.unpack(">BI", body[:5])
        found.append((flags, body[5 : 5 + size]))
        body = body[5 + size :]
    return found


def trailers(frame: bytes) -> dict[str, str]:
    """A gRPC-Web trailer frame's fields (`name: value` lines)."""
    lines = (line.partition(":") for line in frame.decode().split("\r\n") if line)
    return {name.strip().lower(): value.strip() for name, _, value in lines}


def reason_of(details: list[dict[str, str]]) -> str:
    """The ErrorInfo reason among a Connect error's details."""
    for detail in details:
        if detail["type"] == "google.rpc.ErrorInfo":
            reason: str = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "==")).reason
            return reason
    raise AssertionError(f"no ErrorInfo in {details}")


async def sign_in(http: httpx.AsyncClient) -> str:
    reply = await http.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Browser Ann"})
    assert reply.status_code == 200, reply.text
    token: str = reply.json()["sessionToken"]
    assert token
    return token


async def test_connect_json_signs_in_creates_and_watches_a_game_from_event_0(http: httpx.AsyncClient) -> None:
    token = await sign_in(http)
    auth = {"authorization": f"Bearer {token}"}
    created = await http.post(
        f"{GAME}/CreateGame", json={"kind": "counter", "seatCount": 2, "requestId": uuid.uuid4().hex}, headers=auth
    )
    assert created.status_code == 200, created.text
    game = created.json()["game"]["name"]
    got = await http.post(f"{GAME}/GetGame", json={"game": game}, headers=auth)
    assert got.json()["game"]["name"] == game

    request = game_service_pb2.WatchGameRequest(game=game, after_event_id=0)
    headers = {**auth, "content-type": "application/connect+proto", "connect-protocol-version": "1"}
    first = game_service_pb2.WatchGameResponse.FromString(
        await first_frame(http, f"{GAME}/WatchGame", request, headers)
    )
    assert first.view.game == game
    assert first.through_event_id == first.view.through_event_id


async def test_connect_errors_carry_the_grpc_code_and_error_reason(http: httpx.AsyncClient) -> None:
    auth = {"authorization": f"Bearer {await sign_in(http)}"}
    missing = await http.post(f"{GAME}/GetGame", json={"game": f"games/{uuid.uuid4().hex}"}, headers=auth)
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    assert reason_of(missing.json()["details"]) == "ERROR_REASON_GAME_NOT_FOUND"

    bad = await http.post(f"{GAME}/GetGame", json={"game": "not-a-name"}, headers=auth)
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_argument")
    assert reason_of(bad.json()["details"]) == "ERROR_REASON_INVALID_REQUEST"

    anonymous = await http.post(f"{GAME}/CreateGame", json={"kind": "counter", "seatCount": 2})
    assert anonymous.json()["code"] == "unauthenticated"
    assert reason_of(anonymous.json()["details"]) == "ERROR_REASON_UNAUTHENTICATED"

    not_json = await http.post(
        f"{GAME}/GetGame", content=b'{"game": 7', headers={**auth, "content-type": "application/json"}
    )
    assert not_json.json()["code"] == "invalid_argument"
    assert reason_of(not_json.json()["details"]) == "ERROR_REASON_MALFORMED_MESSAGE"
    assert "GetGameRequest" in not_json.json()["message"]

    # Binary bodies pass through untouched: the gRPC server's own decoder refuses this one.
    binary = await http.post(
        f"{GAME}/GetGame", content=b"\x0a\xff", headers={**auth, "content-type": "application/proto"}
    )
    assert reason_of(binary.json()["details"]) == "ERROR_REASON_MALFORMED_MESSAGE"

    # ...and the server still serves.
    assert (await http.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Still Up"})).status_code == 200


async def test_grpc_web_unary_and_its_error_trailers(http: httpx.AsyncClient) -> None:
    headers = {"content-type": "application/grpc-web+proto", "x-grpc-web": "1"}
    reply = await http.post(
        f"{AUTH}/SignInAsGuest",
        content=envelope(game_service_pb2.SignInAsGuestRequest(display_name="Web Bea")),
        headers=headers,
    )
    assert reply.status_code == 200
    (data_flags, data), (trailer_flags, trailer) = frames(reply.content)
    assert (data_flags, trailer_flags) == (0, 0x80)
    token = game_service_pb2.SignInAsGuestResponse.FromString(data).session_token
    assert trailers(trailer)["grpc-status"] == "0"

    missing = await http.post(
        f"{GAME}/GetGame",
        content=envelope(game_service_pb2.GetGameRequest(game=f"games/{uuid.uuid4().hex}")),
        headers={**headers, "authorization": f"Bearer {token}"},
    )
    (flags, trailer), *_ = frames(missing.content)
    assert flags == 0x80
    fields = trailers(trailer)
    assert fields["grpc-status"] == "5"  # NOT_FOUND
    status = status_pb2.Status.FromString(base64.b64decode(fields["grpc-status-details-bin"] + "=="))
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.reason == "ERROR_REASON_GAME_NOT_FOUND"


async def test_http2_cleartext_serves_connect_too(gateway: Gateway) -> None:
    assert gateway.browser is not None
    url = f"http://127.0.0.1:{gateway.browser.port}"
    async with httpx.AsyncClient(base_url=url, http1=False, http2=True, timeout=10) as h2:
        reply = await h2.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Two Cy"})
    assert reply.http_version == "HTTP/2"
    assert reply.status_code == 200
    assert reply.json()["sessionToken"]


async def test_cors_answers_allowed_origins_only(http: httpx.AsyncClient) -> None:
    preflight = {"access-control-request-method": "POST", "access-control-request-headers": "content-type"}
    allowed = await http.options(f"{AUTH}/SignInAsGuest", headers={"origin": ORIGIN, **preflight})
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == ORIGIN
    assert allowed.headers["access-control-allow-headers"] == "content-type"
    reply = await http.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Cors Di"}, headers={"origin": ORIGIN})
    assert reply.headers["access-control-allow-origin"] == ORIGIN
    assert "grpc-status-details-bin" in reply.headers["access-control-expose-headers"]

    other = await http.options(f"{AUTH}/SignInAsGuest", headers={"origin": "https://evil.example", **preflight})
    assert "access-control-allow-origin" not in other.headers
    refused = await http.post(
        f"{AUTH}/SignInAsGuest", json={"displayName": "Cors Ed"}, headers={"origin": "https://evil.example"}
    )
    assert "access-control-allow-origin" not in refused.headers
    assert json.loads(refused.text)["sessionToken"]  # served; the browser withholds it from the page


async def first_frame(http: httpx.AsyncClient, path: str, request: Message, headers: dict[str, str]) -> bytes:
    """The first message frame of a server stream (enveloped), read while the stream is open."""
    async with http.stream("POST", path, content=envelope(request), headers=headers) as stream:
        assert stream.status_code == 200
        buffered = b""
        async with contextlib.aclosing(stream.aiter_bytes()) as chunks:  # closed here, not at loop shutdown
            async for chunk in chunks:
                buffered += chunk
                if len(buffered) >= 5 and len(buffered) >= 5 + struct.unpack(">I", buffered[1:5])[0]:
                    break
    flags, payload = frames(buffered[: 5 + struct.unpack(">I", buffered[1:5])[0]])[0]
    assert flags == 0, payload
    return payload


async def test_grpc_web_watches_a_game_and_connect_watches_a_room(http: httpx.AsyncClient) -> None:
    token = await sign_in(http)
    auth = {"authorization": f"Bearer {token}"}
    created = await http.post(f"{GAME}/CreateGame", json={"kind": "counter", "seatCount": 2}, headers=auth)
    game = created.json()["game"]["name"]
    web = {**auth, "content-type": "application/grpc-web+proto", "x-grpc-web": "1"}
    watched = game_service_pb2.WatchGameResponse.FromString(
        await first_frame(http, f"{GAME}/WatchGame", game_service_pb2.WatchGameRequest(game=game), web)
    )
    assert watched.view.game == game

    room = await http.post(
        f"{LOBBY}/CreateRoom", json={"kind": "counter", "seatCount": 2, "displayName": "Ann's table"}, headers=auth
    )
    assert room.status_code == 200, room.text
    name = room.json()["room"]["name"]
    connect = {**auth, "content-type": "application/connect+proto", "connect-protocol-version": "1"}
    update = lobby_service_pb2.WatchRoomResponse.FromString(
        await first_frame(http, f"{LOBBY}/WatchRoom", lobby_service_pb2.WatchRoomRequest(room=name), connect)
    )
    assert update.room.name == name


async def test_health_is_served_and_bridged_calls_are_counted(http: httpx.AsyncClient) -> None:
    def counted() -> tuple[float, float]:
        rpc = REGISTRY.get_sample_value(
            "flotilla_rpc_calls_total", {"method": "AuthService/SignInAsGuest", "code": "OK"}
        )
        browser = REGISTRY.get_sample_value("flotilla_browser_calls_total", {"protocol": "connect", "codec": "json"})
        return rpc or 0.0, browser or 0.0

    before = counted()
    await sign_in(http)
    assert counted() == (before[0] + 1, before[1] + 1)  # the gateway's own interceptor counted it too
    health = await http.post("/grpc.health.v1.Health/Check", json={"service": "flotilla.api.game.v1.GameService"})
    assert health.json() == {"status": "SERVING"}


def fresh_loopback() -> str:
    """An address of 127.0.0.0/8 no other test uses: its per-address buckets start full."""
    return f"127.{random.randrange(1, 255)}.{random.randrange(1, 255)}.{random.randrange(2, 255)}"


async def test_limits_count_the_browsers_address_which_no_header_can_pick(redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url,
        secret="browser-" + "b" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=stack_limits("sign_in_per_address=1/h:1"),
    )
    gateway = await start_gateway(settings)
    assert gateway.browser is not None
    first, second = fresh_loopback(), fresh_loopback()
    url = f"http://127.0.0.1:{gateway.browser.port}"
    try:
        async with (
            httpx.AsyncClient(base_url=url, transport=httpx.AsyncHTTPTransport(local_address=first)) as one,
            httpx.AsyncClient(base_url=url, transport=httpx.AsyncHTTPTransport(local_address=second)) as two,
        ):
            assert (await one.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Once"})).status_code == 200
            again = await one.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Twice"})
            assert again.json()["code"] == "resource_exhausted"
            assert reason_of(again.json()["details"]) == "ERROR_REASON_RATE_LIMITED"
            assert "google.rpc.RetryInfo" in {detail["type"] for detail in again.json()["details"]}
            # Another address is not limited, even when it names the first in the bridge's header.
            forged = {"flotilla-bridge-peer": f"guess {first}:1", "x-forwarded-for": first}
            other = await two.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Other"}, headers=forged)
            assert other.status_code == 200, other.text
            # A gRPC client without the gateway's bridge key names a third address in vain: whatever
            # it is answered (127.0.0.1's bucket is shared), the third address's bucket stays full.
            third = fresh_loopback()
            async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
                stub = game_service_pb2_grpc.AuthServiceStub(channel)
                try:
                    with contextlib.suppress(grpc.aio.AioRpcError):
                        await stub.SignInAsGuest(
                            game_service_pb2.SignInAsGuestRequest(display_name="Forger"),
                            metadata=[("flotilla-bridge-peer", f"guess {third}:1")],
                        )
                finally:  # 127.0.0.1's bucket is every loopback test's: leave it full, as found
                    await gateway.store.redis.delete(keys.limit_bucket("sign_in_per_address", "127.0.0.1"))
            async with httpx.AsyncClient(
                base_url=url, transport=httpx.AsyncHTTPTransport(local_address=third)
            ) as three:
                assert (await three.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Third"})).status_code == 200
    finally:
        await gateway.stop(0)


async def test_a_tls_gateway_serves_browsers_over_tls_with_http2(redis_url: str, tmp_path: Path) -> None:
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    leaf.cert_chain_pems[0].write_to_path(str(cert))
    leaf.private_key_pem.write_to_path(str(key))
    settings = Settings(
        redis_url=redis_url,
        secret="browser-" + "b" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        tls_cert=str(cert),
        tls_key=str(key),
        health_bind="off",
        limits=stack_limits(),
    )
    gateway = await start_gateway(settings)
    assert gateway.browser is not None
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    try:
        url = f"https://127.0.0.1:{gateway.browser.port}"
        async with httpx.AsyncClient(base_url=url, http2=True, verify=trusting) as h2:
            reply = await h2.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Tls Fay"})
            assert (reply.status_code, reply.http_version) == (200, "HTTP/2")
            assert reply.json()["sessionToken"]
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{gateway.browser.port}") as plain:
            with pytest.raises(httpx.HTTPError):
                await plain.post(f"{AUTH}/SignInAsGuest", json={"displayName": "Plain Gus"})
    finally:
        await gateway.stop(0)


async def test_a_stopping_gateway_ends_its_browser_streams(redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url,
        secret="browser-" + "b" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=stack_limits(),
    )
    gateway = await start_gateway(settings)
    assert gateway.browser is not None
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{gateway.browser.port}", timeout=10) as http:
        auth = {"authorization": f"Bearer {await sign_in(http)}"}
        created = await http.post(f"{GAME}/CreateGame", json={"kind": "counter", "seatCount": 2}, headers=auth)
        request = game_service_pb2.WatchGameRequest(game=created.json()["game"]["name"])
        headers = {**auth, "content-type": "application/connect+proto", "connect-protocol-version": "1"}
        async with http.stream("POST", f"{GAME}/WatchGame", content=envelope(request), headers=headers) as watch:
            body = b""
            stopping: asyncio.Task[None] | None = None
            async for chunk in watch.aiter_bytes():
                body += chunk
                if stopping is None:  # the first message is in: stop the gateway under the stream
                    stopping = asyncio.create_task(gateway.stop(0))
        assert stopping is not None
        await asyncio.wait_for(stopping, 10)
    flags, end = frames(body)[-1]
    assert flags == 0x02  # Connect's end-of-stream message, with the error the stream ended on
    assert json.loads(end)["error"]["code"] in {"unavailable", "canceled"}
