"""A registered streaming method runs its body directly under the registration's generator (no
`maps_stream_errors` frame between, gateway/services.py), and its errors are still mapped."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from flotilla.api.game.v1 import game_service_pb2
from flotilla.app.watching import Batch, Watcher
from flotilla.errors import GameNotFound, InvalidRequest
from flotilla.gateway.errors import maps_stream_errors
from flotilla.gateway.services import handlers
from flotilla_client import FlotillaClient
from inproc import own_gateway

SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]


class _Context:
    """What the handlers use of a grpc.aio context: the status an abort ends the call with."""

    def __init__(self) -> None:
        self.aborted: Any = None

    async def abort_with_status(self, status: Any) -> None:
        self.aborted = status
        raise grpc.aio.AbortError()


class _Servicer:
    def __init__(self, fail: Exception | None) -> None:
        self.fail = fail
        self.callers: list[str] = []

    def __getattr__(self, name: str) -> Any:  # the service's other methods: never called here
        return _unused

    @maps_stream_errors
    async def WatchGame(self, request: Any, context: Any) -> AsyncIterator[bytes]:
        self.callers.append(sys._getframe(1).f_code.co_name)
        yield b"first"
        if self.fail is not None:
            raise self.fail

    @maps_stream_errors
    async def Play(self, requests: AsyncIterator[Any], context: Any) -> AsyncIterator[bytes]:
        self.callers.append(sys._getframe(1).f_code.co_name)
        async for _ in requests:
            yield b"answer"
            if self.fail is not None:
                raise self.fail


async def _unused(request: Any, context: Any) -> None:
    raise AssertionError("not called")


async def _requests() -> AsyncIterator[Any]:
    yield game_service_pb2.PlayRequest()


async def _drain(servicer: _Servicer, method: str) -> tuple[list[bytes], _Context]:
    handler = handlers(SERVICE, servicer)[method]
    context = _Context()
    got: list[bytes] = []
    if method == "Play":
        call = handler.stream_stream(_requests(), context)  # type: ignore[misc]
    else:
        call = handler.unary_stream(game_service_pb2.WatchGameRequest(), context)  # type: ignore[misc]
    with pytest.raises(grpc.aio.AbortError) if servicer.fail is not None else contextlib.nullcontext():
        async for item in call:
            got.append(item)
    return got, context


@pytest.mark.parametrize("method", ["WatchGame", "Play"])
def test_the_method_body_runs_under_the_registration_with_no_wrapper_frame(method: str) -> None:
    servicer = _Servicer(None)
    got, context = asyncio.run(_drain(servicer, method))
    assert servicer.callers == ["handle"]  # before: "wrapper" (maps_stream_errors's generator)
    assert got
    assert context.aborted is None


@pytest.mark.parametrize("method", ["WatchGame", "Play"])
@pytest.mark.parametrize(
    ("fail", "code"),
    [
        (GameNotFound("no such game"), grpc.StatusCode.NOT_FOUND),
        (InvalidRequest("bad", field="x"), grpc.StatusCode.INVALID_ARGUMENT),
        (RuntimeError("a bug"), grpc.StatusCode.INTERNAL),
    ],
)
def test_a_registered_streams_errors_are_still_mapped(method: str, fail: Exception, code: grpc.StatusCode) -> None:
    got, context = asyncio.run(_drain(_Servicer(fail), method))
    assert got  # the message before the error was sent
    assert context.aborted is not None
    assert context.aborted.code == code  # never UNKNOWN


def test_a_direct_call_still_maps_errors() -> None:
    servicer = _Servicer(GameNotFound("no such game"))
    context = _Context()

    async def run() -> None:
        with pytest.raises(grpc.aio.AbortError):
            async for _ in servicer.WatchGame(game_service_pb2.WatchGameRequest(), context):
                pass

    asyncio.run(run())
    assert context.aborted.code == grpc.StatusCode.NOT_FOUND


async def test_watch_game_iterates_the_watcher_itself(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """WatchGame runs `Games.watching`'s parts in its own frame: no `Games.watch` generator between."""
    callers: list[str] = []
    run = Watcher.run

    async def recorded(self: Watcher, *args: Any) -> AsyncIterator[Batch]:
        callers.append(sys._getframe(1).f_code.co_name)  # the frame iterating the watcher
        async for batch in run(self, *args):
            yield batch

    monkeypatch.setattr(Watcher, "run", recorded)
    async with own_gateway(redis_url) as running:
        client = FlotillaClient(f"127.0.0.1:{running.port}")
        try:
            await client.sign_in("host")
            game = (await client.create_game("counter", 2)).name
            async for update in client.watch(game):
                assert update.HasField("view")
                break
        finally:
            await client.close()
    assert callers == ["WatchGame"]  # before: "watch"
