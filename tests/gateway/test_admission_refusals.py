"""A refused stream's status, from an in-process gateway: RESOURCE_EXHAUSTED, ErrorInfo OVERLOADED
with its limit, a RetryInfo delay the SDK honours, and no message before it."""

from __future__ import annotations

import gc
import uuid

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla_client.errors import retry_after
from inproc import own_gateway

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]

REFUSALS = 20


async def test_a_stream_over_the_open_streams_limit_is_refused_typed_with_no_garbage_cycle(redis_url: str) -> None:
    async with (
        own_gateway(redis_url, max_open_streams=0, overload_retry_ms=700) as gateway,
        grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel,
    ):
        stub = game_service_pb2_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]
        gc.collect()
        gc.disable()  # what the refusal leaves for the collector (a cycle per refusal before)
        try:
            for _ in range(REFUSALS):
                call = stub.WatchGame(game_service_pb2.WatchGameRequest(game=f"games/{uuid.uuid4().hex}"))
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await call.read()
                error = caught.value
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "open streams" in (error.details() or "")
                status = rpc_status.from_call(error)
                assert status is not None
                infos = [error_details_pb2.ErrorInfo() for _ in status.details]
                found = [info for info, detail in zip(infos, status.details, strict=True) if detail.Unpack(info)]
                assert [(f.reason, f.metadata["limit"]) for f in found] == [("ERROR_REASON_OVERLOADED", "open_streams")]
                assert retry_after(error) == pytest.approx(0.7)
            unreachable = gc.collect(0)
        finally:
            gc.enable()
        # the client's own (its caught errors) and the server's: about 5 a refusal; 42 with an abort's
        # exception, traceback and frames
        assert unreachable < 10 * REFUSALS, unreachable
