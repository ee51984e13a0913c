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

from flotilla_client.api.game.v1 import game_service_pb2 as g
from flotilla_client.calls import Call, SyncRunner, T, call, same
from flotilla_client.errors import FlotillaError
from flotilla_client.methods import Api
from flotilla_client.rpcs import PLAY, Req, Resp, Unary
from flotilla_client.seat import Seat
from flotilla_client.streams import PlayRequests, Resume


class FlotillaSyncClient(Api, SyncRunner):
    """`FlotillaClient`, blocking: one connection to a gateway (or several targets to fail over
    between). Safe to share between threads."""

    channel: grpc.Channel
    _lock = threading.Lock

    def _open(self, target: str) -> grpc.Channel:
        return self.tls.channel(target) if self.tls else grpc.insecure_channel(target)

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
            try:
                token = self.fresh(call.token) if call.token else ""
                reply = self._method(call.rpc)(call.request, metadata=self._auth(token), timeout=self.timeout_s)
            except grpc.RpcError as error:
                time.sleep(self._retry_pause(error, attempt, call.retry))
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
                time.sleep(self._resume_pause(error, attempt, stream.token, used))
            finally:
                call.cancel()

    # --- streams ---------------------------------------------------------------------------
    def play(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> SyncPlayStream:
        """A bidirectional Play stream for `seat` (see `FlotillaClient.play`)."""
        return SyncPlayStream(self, seat, after_event_id, after_etag)


class SyncPlayStream(PlayRequests):
    """GameService.Play, blocking: `send` actions (from any thread), iterate `PlayResponse`s."""

    def __init__(self, client: FlotillaSyncClient, seat: Seat, after_event_id: int, after_etag: str = "") -> None:
        outgoing: queue.SimpleQueue[g.PlayRequest | None] = queue.SimpleQueue()
        super().__init__(outgoing, seat, after_event_id, after_etag)
        self.call = client._method(PLAY)(iter(outgoing.get, None), metadata=client._auth(client.current(seat.token)))

    def __iter__(self) -> Iterator[g.PlayResponse]:
        try:
            yield from self.call
        except grpc.RpcError as error:
            raise FlotillaError.from_rpc(error) from None

    def cancel(self) -> None:
        """End the stream now (its iteration stops)."""
        self.call.cancel()
