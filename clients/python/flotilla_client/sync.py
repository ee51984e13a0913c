"""Blocking client for Flotilla's gRPC API (grpc's sync channel), for scripts, notebooks and
threaded programs. The same methods as `FlotillaClient` (both come from
`flotilla_client.methods.Api`), returning their results instead of awaitables.

with FlotillaSyncClient("127.0.0.1:50051") as client:
    client.sign_in("ada")
    game = client.create_game("sail_away", seats=3)
    seat = client.join(game.name)
    for update in client.watch(game.name, seat):
        if update.HasField("prompt"):
            client.submit(game.name, seat, update.prompt.legal_actions[0])
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import grpc

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.calls import Call, SyncRunner, T, call, same
from flotilla_client.errors import FlotillaError, RpcFailure
from flotilla_client.methods import Api
from flotilla_client.play import ENDED_EARLY, OVER, PlayState
from flotilla_client.rpcs import PLAY, Req, Resp, Unary
from flotilla_client.seat import Seat
from flotilla_client.streams import Resume
from flotilla_client.tls import KEEPALIVE_OPTIONS


class FlotillaSyncClient(Api, SyncRunner):
    """`FlotillaClient`, blocking: one connection to a gateway (or several targets to fail over
    between). Safe to share between threads."""

    channel: grpc.Channel
    _lock = threading.Lock

    def _open(self, target: str) -> grpc.Channel:
        return self.tls.channel(target) if self.tls else grpc.insecure_channel(target, options=KEEPALIVE_OPTIONS)

    def close(self) -> None:
        """Close every channel (the current one and those failed over from)."""
        for channel in [*self._retired, self.channel]:
            channel.close()
        self._retired.clear()

    def __enter__(self) -> FlotillaSyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            attempt += 1
            token = self.fresh(call.token) if call.token else ""  # raises FlotillaError, not RpcError
            channel = self.channel  # this attempt's (the refresh may have failed over)
            try:
                reply = self._method(call.rpc)(call.request, metadata=self._auth(token), timeout=self.timeout_s)
            except grpc.RpcError as error:
                time.sleep(self._retry_pause(error, attempt, on=channel, retry=call.retry))
            else:
                return call.then(reply)

    def unary(self, rpc: Unary[Req, Resp], request: Req, token: str = "") -> Resp:
        """Any unary RPC of `flotilla_client.rpcs` (see `FlotillaClient.unary`)."""
        return self._run(call(rpc, request, token, same))

    def fresh(self, token: str) -> str:
        """`token`, refreshed first once less than a third of its lifetime is left (see
        `FlotillaClient.fresh`)."""
        latest = self._due(token)
        if latest is None:
            return self.current(token)
        with self._refreshing:
            if self.current(token) != latest:  # another thread refreshed it meanwhile
                return self.current(token)
            try:
                return self._run(self._refresh(token, latest))
            except FlotillaError as error:
                if not self._refresh_refused(error, token, latest):
                    raise
                return self.sign_in_with_api_key(self.api_key)  # asleep past its expiry: sign in again

    def _resumed(self, stream: Resume[Any, Resp]) -> Iterator[Resp]:
        """`stream`'s updates; reopened (failing over) where it stopped until the server ends it."""
        attempt = 0
        while True:
            used = self.fresh(stream.token) if stream.token else ""
            channel = self.channel
            call: Any = self._method(stream.rpc)(stream.request(), metadata=self._auth(used))
            try:
                for update in call:
                    attempt = 0
                    stream.seen(update)
                    yield update
                    if stream.token:  # the stream ends when `used` expires: resume with the refresh
                        with contextlib.suppress(FlotillaError):
                            self.fresh(stream.token)
                return
            except grpc.RpcError as error:
                attempt += 1
                time.sleep(self._resume_pause(error, attempt, stream.token, used, on=channel))
            finally:
                call.cancel()

    # --- streams ---------------------------------------------------------------------------
    def play(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> SyncPlayStream:
        """A bidirectional Play stream for `seat` that reopens by itself (see `FlotillaClient.play`)."""
        return SyncPlayStream(self, seat, after_event_id, after_etag)

    def is_over(self, game: str) -> bool:
        """Whether `game` is finished or abandoned."""
        return self.get_game(game).state in OVER


class SyncPlayStream:
    """GameService.Play, blocking: `send` actions (from any thread), iterate `PlayResponse`s; it
    reopens and sends again what was not answered as `flotilla_client.PlayStream` does."""

    def __init__(self, client: FlotillaSyncClient, seat: Seat, after_event_id: int, after_etag: str = "") -> None:
        self.client = client
        self.seat = seat
        self.state = PlayState(seat, after_event_id, after_etag)
        self.reopened = 0  # calls opened after the first one
        self._cancelled = False
        self._lock = threading.Lock()  # `send` may run on other threads than the iteration
        self._outgoing: queue.SimpleQueue[g.PlayRequest | None] | None = None
        self._connect(client.current(seat.token))
        self._iteration = self._responses()

    @property
    def unanswered(self) -> list[str]:
        """Request ids of the submits sent and not answered yet (sent again on a reopen)."""
        with self._lock:
            return self.state.unanswered

    def send(self, action: game_pb2.Action, *, etag: str = "", request_id: str = "") -> str:
        """Queue an action; returns its request id (see `PlayStream.send`)."""
        with self._lock:
            request = self.state.submit(action, etag, request_id)
            self._put(request)
        return request.submit.request_id

    def close(self) -> None:
        """Half-close: no more actions (updates keep coming until the game ends)."""
        with self._lock:
            self.state.closed = True
            self._put(None)

    def cancel(self) -> None:
        """End the stream now (its iteration stops)."""
        self._cancelled = True
        self.call.cancel()

    def _put(self, request: g.PlayRequest | None) -> None:
        if self._outgoing is not None:
            self._outgoing.put(request)

    def _connect(self, token: str) -> None:
        outgoing: queue.SimpleQueue[g.PlayRequest | None] = queue.SimpleQueue()
        with self._lock:
            for request in self.state.opening():
                outgoing.put(request)
            self._put(None)  # ends the old call's request thread
            self._outgoing = outgoing
        self._channel = self.client.channel
        self.call: Any = self.client._method(PLAY)(iter(outgoing.get, None), metadata=self.client._auth(token))
        self._used = token

    def _resend(self, request_id: str, calls: int) -> None:
        with self._lock:
            if (request := self.state.resend(request_id, calls)) is not None:
                self._put(request)

    def __iter__(self) -> Iterator[g.PlayResponse]:
        return self._iteration

    def _responses(self) -> Iterator[g.PlayResponse]:
        client, state, token, attempt = self.client, self.state, self.seat.token, 0
        while True:
            failure: RpcFailure | None = None  # None: reopen at once, with the token's refresh
            try:
                for response in self.call:
                    attempt = 0
                    if state.expired(response) and client.fresh(token) != self._used:
                        break
                    if state.repeated(response):
                        continue
                    with self._lock:
                        pause = state.take(response, client.retries, client.backoff_s, client.max_backoff_s)
                    if pause is None:
                        yield response
                    else:
                        timer = threading.Timer(pause, self._resend, (response.outcome.request_id, state.calls))
                        timer.daemon = True
                        timer.start()
                    with contextlib.suppress(FlotillaError):  # the call ends when its token expires: refresh first
                        client.fresh(token)
                else:
                    if self._cancelled or state.over or client.is_over(self.seat.game):
                        return
                    failure = ENDED_EARLY
            except grpc.RpcError as error:
                if self._cancelled:
                    return
                failure = error
            finally:
                self.call.cancel()
            if failure is not None:
                attempt += 1
                time.sleep(client._resume_pause(failure, attempt, token, self._used, on=self._channel))
            self.reopened += 1
            self._connect(client.fresh(token))
