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

from flotilla.api.game.v1 import game_pb2, game_service_pb2_grpc
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.calls import AsyncRunner, Call, T, call, same
from flotilla_client.errors import (
    RETRYABLE,
    FlotillaError,
    RpcFailure,
    retry_after,
    retry_pause_s,
)
from flotilla_client.methods import Api
from flotilla_client.play import ENDED_EARLY, OVER, PlayState
from flotilla_client.rpcs import PLAY, Req, Resp, Unary
from flotilla_client.seat import Seat
from flotilla_client.session import token_times
from flotilla_client.streams import Resume
from flotilla_client.tls import KEEPALIVE_OPTIONS

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
        if self.tls:
            return self.tls.aio_channel(target)
        return grpc.aio.insecure_channel(target, options=KEEPALIVE_OPTIONS)

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
            token = await self.fresh(call.token) if call.token else ""  # raises FlotillaError, not AioRpcError
            channel = self.channel  # this attempt's (the refresh may have failed over)
            try:
                reply = await self._method(call.rpc)(call.request, metadata=self._auth(token), timeout=self.timeout_s)
            except grpc.aio.AioRpcError as error:
                await asyncio.sleep(self._retry_pause(error, attempt, on=channel, retry=call.retry))
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
            channel = self.channel
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
                await asyncio.sleep(self._resume_pause(error, attempt, stream.token, used, on=channel))
            finally:
                call.cancel()

    # --- streams ---------------------------------------------------------------------------
    def play(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> PlayStream:
        """A bidirectional Play stream for `seat` (actions in, outcomes and updates out) that
        reopens by itself after a retryable failure (see `PlayStream`)."""
        return PlayStream(self, seat, after_event_id, after_etag)

    async def is_over(self, game: str) -> bool:
        """Whether `game` is finished or abandoned."""
        return (await self.get_game(game)).state in OVER


class PlayStream:
    """GameService.Play: `send` actions, iterate `PlayResponse`s (one iteration: breaking out of
    it and iterating again goes on where it stopped).

    After a retryable failure (see `flotilla_client.errors.retry_after`; at most `client.retries`
    in a row, with the client's backoff) the stream reopens on the next target after the last
    update it delivered, with the seat's token refreshed, and sends again every submit not answered
    yet (same request id and etag: applied once, answered once). A submit refused retryably (a rate
    limit, no worker answered) is sent again after its RetryInfo delay instead of being passed on.
    Any other failure ends the iteration with a `FlotillaError`; the game's end ends it quietly.
    """

    def __init__(self, client: FlotillaClient, seat: Seat, after_event_id: int, after_etag: str = "") -> None:
        self.client = client
        self.seat = seat
        self.state = PlayState(seat, after_event_id, after_etag)
        self.reopened = 0  # calls opened after the first one
        self._cancelled = False
        self._connect(client.current(seat.token))
        self._iteration = self._responses()

    @property
    def unanswered(self) -> list[str]:
        """Request ids of the submits sent and not answered yet (sent again on a reopen)."""
        return self.state.unanswered

    def send(self, action: game_pb2.Action, *, etag: str = "", request_id: str = "") -> str:
        """Queue an action; returns its request id, which the update carrying its events names in
        `answered_request_ids` (or an ActionOutcome, when refused or applied by an earlier attempt)."""
        request = self.state.submit(action, etag, request_id)
        self._queue.put_nowait(request)
        return request.submit.request_id

    def close(self) -> None:
        """Half-close: no more actions (updates keep coming until the game ends)."""
        self.state.closed = True
        self._queue.put_nowait(None)

    def cancel(self) -> None:
        """End the stream now (its iteration stops)."""
        self._cancelled = True
        self.call.cancel()

    def _connect(self, token: str) -> None:
        self._queue: asyncio.Queue[g.PlayRequest | None] = asyncio.Queue()
        for request in self.state.opening():
            self._queue.put_nowait(request)
        self._channel = self.client.channel
        self.call: Any = self.client._method(PLAY)(self._requests(self._queue), metadata=self.client._auth(token))
        self._used = token

    @staticmethod
    async def _requests(queue: asyncio.Queue[g.PlayRequest | None]) -> AsyncIterator[g.PlayRequest]:
        while (item := await queue.get()) is not None:
            yield item

    def _resend(self, request_id: str, calls: int) -> None:
        if (request := self.state.resend(request_id, calls)) is not None:
            self._queue.put_nowait(request)

    def __aiter__(self) -> AsyncIterator[g.PlayResponse]:
        return self._iteration

    async def _responses(self) -> AsyncIterator[g.PlayResponse]:
        client, state, token, attempt = self.client, self.state, self.seat.token, 0
        while True:
            failure: RpcFailure | None = None  # None: reopen at once, with the token's refresh
            try:
                async for response in self.call:
                    attempt = 0
                    if state.expired(response) and await client.fresh(token) != self._used:
                        break
                    if state.repeated(response):
                        continue
                    pause = state.take(response, client.retries, client.backoff_s, client.max_backoff_s)
                    if pause is None:
                        yield response
                    else:
                        loop = asyncio.get_running_loop()
                        loop.call_later(pause, self._resend, response.outcome.request_id, state.calls)
                    with contextlib.suppress(FlotillaError):  # the call ends when its token expires: refresh first
                        await client.fresh(token)
                else:
                    if self._cancelled or state.over or await client.is_over(self.seat.game):
                        return
                    failure = ENDED_EARLY
            except grpc.aio.AioRpcError as error:
                if self._cancelled:
                    return
                failure = error
            except asyncio.CancelledError:
                if self._cancelled:  # grpc.aio's answer to reading a call cancelled here
                    return
                raise
            finally:
                self.call.cancel()
            if failure is not None:
                attempt += 1
                await asyncio.sleep(client._resume_pause(failure, attempt, token, self._used, on=self._channel))
            self.reopened += 1
            self._connect(await client.fresh(token))
