"""Async client for Flotilla's gRPC API (grpc.aio).

client = FlotillaClient("127.0.0.1:50051")
await client.sign_in("ada")
game = await client.create_game("sail_away", seats=3)
seat = await client.join(game.name)
async for update in client.watch(game.name, seat):   # resumes by itself after a disconnect
    if update.HasField("prompt"):
        await client.submit(game.name, seat, update.prompt.legal_actions[0])

Every unary method is in `flotilla_client.methods.Api` (shared with `FlotillaSyncClient`); this
module adds only the awaiting: the retry loop, token refresh under an asyncio lock, streams.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from flotilla_client.api.game.v1 import game_service_pb2 as g
from flotilla_client.api.game.v1 import game_service_pb2_grpc
from flotilla_client.calls import AsyncRunner, Call, T, call, same
from flotilla_client.errors import (
    RETRYABLE,
    FlotillaError,
    retry_after,
    retry_pause_s,
)
from flotilla_client.methods import Api
from flotilla_client.rpcs import PLAY, Req, Resp, Unary
from flotilla_client.seat import Seat
from flotilla_client.session import token_times
from flotilla_client.streams import PlayRequests, Resume

# RETRYABLE, retry_after, retry_pause_s and token_times are re-exported where they used to live.
__all__ = [
    "RETRYABLE",
    "FlotillaClient",
    "FlotillaError",
    "PlayStream",
    "Seat",
    "retry_after",
    "retry_pause_s",
    "token_times",
]


class FlotillaClient(Api, AsyncRunner):
    """One connection to a Flotilla gateway (or several targets to fail over between); over TLS
    when given `tls` (see `flotilla_client.tls.Tls`), plaintext otherwise."""

    channel: grpc.aio.Channel
    _lock = asyncio.Lock

    def _open(self, target: str) -> grpc.aio.Channel:
        return self.tls.aio_channel(target) if self.tls else grpc.aio.insecure_channel(target)

    async def close(self) -> None:
        """Close every channel (the current one and those failed over from)."""
        for channel in [*self._retired, self.channel]:
            await channel.close()
        self._retired.clear()

    async def __aenter__(self) -> FlotillaClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            attempt += 1
            try:
                token = await self.fresh(call.token) if call.token else ""
                reply = await self._method(call.rpc)(call.request, metadata=self._auth(token), timeout=self.timeout_s)
            except grpc.aio.AioRpcError as error:
                await asyncio.sleep(self._retry_pause(error, attempt, call.retry))
            else:
                return call.then(reply)

    async def unary(self, rpc: Unary[Req, Resp], request: Req, token: str = "") -> Resp:
        """Any unary RPC of `flotilla_client.rpcs` with a request you built, sent with `token`
        (retried and failed over like every call); for what no method covers."""
        return await self._run(call(rpc, request, token, same))

    @property
    def games(self) -> game_service_pb2_grpc.GameServiceStub:
        """The generated (untyped) GameService stub on the current channel, for raw calls."""
        return game_service_pb2_grpc.GameServiceStub(self.channel)  # type: ignore[no-untyped-call]

    @property
    def auth(self) -> game_service_pb2_grpc.AuthServiceStub:
        """The generated (untyped) AuthService stub on the current channel, for raw calls."""
        return game_service_pb2_grpc.AuthServiceStub(self.channel)  # type: ignore[no-untyped-call]

    async def fresh(self, token: str) -> str:
        """`token`, refreshed first (AuthService.RefreshToken) once less than a third of its lifetime
        is left, so long games and streams never meet an expired token. Seats and the session keep
        their first token as their name: every call looks up its latest refresh here."""
        latest = self._due(token)
        if latest is None:
            return self.current(token)
        async with self._refreshing:
            if self.current(token) != latest:  # another task refreshed it meanwhile
                return self.current(token)
            try:
                return await self._run(self._refresh(token, latest))
            except FlotillaError as error:
                if not self._refresh_refused(error, token, latest):
                    raise
                return await self.sign_in_with_api_key(self.api_key)  # asleep past its expiry: sign in again

    async def _resumed(self, stream: Resume[Any, Resp]) -> AsyncIterator[Resp]:
        """`stream`'s updates; reopened (failing over) where it stopped until the server ends it."""
        attempt = 0
        while True:
            used = await self.fresh(stream.token) if stream.token else ""
            call: Any = self._method(stream.rpc)(stream.request(), metadata=self._auth(used))
            try:
                async for update in call:
                    attempt = 0
                    stream.seen(update)
                    yield update
                    if stream.token:  # the stream ends when `used` expires: resume with the refresh
                        with contextlib.suppress(FlotillaError):  # no refresh (seat left): the stream goes on
                            await self.fresh(stream.token)
                return
            except grpc.aio.AioRpcError as error:
                attempt += 1
                await asyncio.sleep(self._resume_pause(error, attempt, stream.token, used))
            finally:
                call.cancel()

    # --- streams ---------------------------------------------------------------------------
    def play(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> PlayStream:
        """A bidirectional Play stream for `seat` (actions in, outcomes and updates out)."""
        return PlayStream(self, seat, after_event_id, after_etag)


class PlayStream(PlayRequests):
    """GameService.Play: `send` actions, iterate `PlayResponse`s.

    The stream ends (TOKEN_EXPIRED) when the seat's token expires: reopen it with
    `client.play(seat, after_etag=...)` after `await client.fresh(seat.token)` (watch() does all
    this by itself).
    """

    def __init__(self, client: FlotillaClient, seat: Seat, after_event_id: int, after_etag: str = "") -> None:
        queue: asyncio.Queue[g.PlayRequest | None] = asyncio.Queue()
        super().__init__(queue, seat, after_event_id, after_etag)
        self._queue = queue
        self.call = client._method(PLAY)(self._requests(), metadata=client._auth(client.current(seat.token)))

    async def _requests(self) -> AsyncIterator[g.PlayRequest]:
        while (item := await self._queue.get()) is not None:
            yield item

    def __aiter__(self) -> AsyncIterator[g.PlayResponse]:
        return self._responses()

    async def _responses(self) -> AsyncIterator[g.PlayResponse]:
        try:
            async for response in self.call:
                yield response
        except grpc.aio.AioRpcError as error:
            raise FlotillaError.from_rpc(error) from None
