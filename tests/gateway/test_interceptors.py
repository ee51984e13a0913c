"""The call interceptor: every RPC is counted by method and status code, and what is logged inside a
call carries the ids its request names (tests through a real in-process gateway and Redis)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
import redis.asyncio as aioredis
import structlog
from prometheus_client import REGISTRY

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc
from flotilla.gateway.server import Gateway
from flotilla.store import keys
from inproc import own_gateway

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@pytest.fixture
async def gateway(redis_url: str) -> AsyncIterator[Gateway]:
    async with own_gateway(redis_url, secret="interceptors-" + "i" * 32) as started:
        yield started


def calls(method: str, code: str) -> float:
    return REGISTRY.get_sample_value("flotilla_rpc_calls_total", {"method": method, "code": code}) or 0.0


def observed(method: str) -> float:
    return REGISTRY.get_sample_value("flotilla_rpc_seconds_count", {"method": method}) or 0.0


async def test_calls_are_counted_by_method_and_status_code(gateway: Gateway) -> None:
    method = "GameService/GetGame"
    before_found, before_missing, before_seconds = calls(method, "OK"), calls(method, "NOT_FOUND"), observed(method)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        for _ in range(2):
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await stub.GetGame(game_service_pb2.GetGameRequest(game=f"games/{uuid.uuid4().hex}"))
            assert caught.value.code() == grpc.StatusCode.NOT_FOUND
    assert calls(method, "NOT_FOUND") == before_missing + 2
    assert calls(method, "OK") == before_found
    assert observed(method) == before_seconds + 2


async def test_a_stream_is_counted_with_the_status_it_ended_with(gateway: Gateway) -> None:
    method = "LobbyService/WatchRoom"
    before = calls(method, "UNAUTHENTICATED")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
        stub = lobby_service_pb2_grpc.LobbyServiceStub(channel)
        stream = stub.WatchRoom(lobby_service_pb2.WatchRoomRequest(room=f"rooms/{uuid.uuid4().hex}"))
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stream.read()
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert calls(method, "UNAUTHENTICATED") == before + 1


async def test_a_log_line_inside_a_call_carries_the_bound_game_id(gateway: Gateway, redis_url: str) -> None:
    game_id = uuid.uuid4().hex
    redis = aioredis.from_url(redis_url)
    try:  # a stored game the server cannot read: the call fails inside and logs the incident
        await redis.hset(keys.game(game_id), mapping={"kind": "counter", "seat_count": "not a number"})
        await redis.expire(keys.game(game_id), 60)
        before = calls("GameService/GetGame", "INTERNAL")
        with structlog.testing.capture_logs(processors=[structlog.contextvars.merge_contextvars]) as lines:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.GetGame(game_service_pb2.GetGameRequest(game=f"games/{game_id}"))
    finally:
        await redis.delete(keys.game(game_id))
        await redis.aclose()
    assert caught.value.code() == grpc.StatusCode.INTERNAL
    incident = [line for line in lines if line["event"] == "gateway.internal_error"]
    assert len(incident) == 1
    assert incident[0]["game"] == game_id
    assert incident[0]["method"] == "GameService/GetGame"
    assert calls("GameService/GetGame", "INTERNAL") == before + 1
