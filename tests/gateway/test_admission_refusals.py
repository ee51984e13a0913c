"""A refused stream's status, from an in-process gateway: RESOURCE_EXHAUSTED, ErrorInfo OVERLOADED
with its limit, a RetryInfo delay the SDK honours, and no message before it; a client stream's
watch for its first message."""

from __future__ import annotations

import asyncio
import gc
import inspect
import time
import uuid
from collections.abc import AsyncIterator

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.gateway import admission as admission_module
from flotilla.gateway.admission import Admission, Limits, _Opening
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


async def test_a_client_stream_is_watched_for_its_first_message_only() -> None:
    """The open timer stops at the first message; later messages are the stream's own awaitables,
    with no coroutine or generator frame of admission's per message."""

    async def requests() -> AsyncIterator[int]:
        for i in range(3):
            yield i

    opening = _Opening(60.0)
    stream = opening.watch(requests())
    first = stream.__anext__()
    assert inspect.iscoroutine(first)
    assert await first == 0
    assert opening.timer.cancelled()
    assert not opening.expired
    later = stream.__anext__()
    assert not inspect.iscoroutine(later)  # the generator's own asend awaitable
    assert await later == 1
    assert [r async for r in stream] == [2]


async def test_a_client_stream_that_sends_nothing_in_time_is_cancelled_and_marked_expired() -> None:
    async def silent() -> None:
        opening = _Opening(0.01)
        never: asyncio.Queue[int] = asyncio.Queue()

        async def requests() -> AsyncIterator[int]:
            yield await never.get()

        try:
            await anext(opening.watch(requests()))
        finally:
            assert opening.expired

    with pytest.raises(asyncio.CancelledError):
        await asyncio.create_task(silent())


async def test_the_queue_measure_polls_less_often_when_one_measure_is_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """channelz's read of a server holds the loop longer the more connections it has (~8 ms with
    300): the admission spaces its measures so that they take at most POLL_SHARE of the loop."""
    reads: list[float] = []
    second = asyncio.Event()

    def slow_read(server_id: int) -> int:
        reads.append(time.monotonic())
        if len(reads) == 2:
            second.set()
        time.sleep(0.02)  # holds the loop, as the C call does
        return 0

    monkeypatch.setattr(admission_module, "core_calls_started", slow_read)
    admission = Admission(Limits(), lambda context: ("connection", "address"))
    admission.watch_queue(1)
    try:
        await asyncio.wait_for(second.wait(), 30)
    finally:
        await admission.close()
    # 0.02 s of measure at POLL_SHARE: the next one a second later, not POLL_S (0.1 s)
    assert reads[1] - reads[0] >= 0.02 / admission_module.POLL_SHARE * 0.95
