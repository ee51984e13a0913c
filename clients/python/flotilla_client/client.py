"""Async client for Flotilla's gRPC API (grpc.aio).

client = FlotillaClient("127.0.0.1:50051")
await client.sign_in("ada")
game = await client.create_game("sail_away", seats=3)
seat = await client.join(game.name)
async for update in client.watch(game.name, seat):   # resumes by itself after a disconnect
    if update.HasField("prompt"):
        await client.submit(game.name, seat, update.prompt.legal_actions[0])
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import random
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass

import grpc
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla_client.tls import Tls

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
OVERLOADED = "ERROR_REASON_OVERLOADED"  # RESOURCE_EXHAUSTED: the gateway refused the call before doing anything
RATE_LIMITED = "ERROR_REASON_RATE_LIMITED"  # RESOURCE_EXHAUSTED: over a rate limit; nothing was done
MAX_RATE_LIMIT_WAIT_S = 10.0  # a rate-limit refusal asking for a longer wait is the caller's to handle
LOCAL_CANCEL = "Locally cancelled by application!"  # grpc's details when this process cancelled the call
TOKEN_EXPIRED = "ERROR_REASON_TOKEN_EXPIRED"
AUTH_METHODS = frozenset({"SignInAsGuest", "SignInWithApiKey", "RefreshToken"})
REFRESH_AT = 1 / 3  # refresh a token once less than this share of its lifetime is left
REFUSED_PAUSE_S = 30.0  # after a refused refresh, use the token as it is for this long


def token_times(token: str) -> tuple[float, float] | None:
    """(iat, exp) of a Flotilla JWT, read without verifying it (the server verifies); None for
    a token that is not one (an identity provider's is refreshed with that provider)."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, binascii.Error):
        return None
    if not isinstance(claims, dict) or claims.get("iss") != "flotilla":
        return None
    issued, expires = claims.get("iat"), claims.get("exp")
    if not isinstance(issued, int | float) or not isinstance(expires, int | float):
        return None
    return float(issued), float(expires)


def retry_after(error: grpc.aio.AioRpcError) -> float | None:
    """Seconds to wait at least before retrying `error`'s call; None if it must not be retried.

    Retried: UNAVAILABLE, DEADLINE_EXCEEDED (the same request id makes a retry safe), CANCELLED
    that this process did not ask for (grpc core drops calls it cannot queue), and
    RESOURCE_EXHAUSTED refusals with reason OVERLOADED, after their google.rpc.RetryInfo delay, and
    with reason RATE_LIMITED when that delay is at most MAX_RATE_LIMIT_WAIT_S (the call then
    passes). Quota refusals (QUOTA_EXCEEDED) are not retried: they last until the caller ends
    something it holds.
    """
    code = error.code()
    if code in RETRYABLE:
        return 0.0
    if code == grpc.StatusCode.CANCELLED:
        return None if error.details() == LOCAL_CANCEL else 0.0
    if code != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    status = rpc_status.from_call(error)
    reason = _error_info(status)[0] if status is not None else ""
    if status is None or reason not in (OVERLOADED, RATE_LIMITED):
        return None
    for detail in status.details:
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            delay = float(retry.retry_delay.ToMilliseconds()) / 1000
            return None if reason == RATE_LIMITED and delay > MAX_RATE_LIMIT_WAIT_S else delay
    return None if reason == RATE_LIMITED else 0.0


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat taken in a game: its index and the token that acts for it."""

    game: str
    seat: int
    token: str


class FlotillaError(Exception):
    """An RPC failed: the gRPC code, the server's message and its ErrorInfo reason."""

    def __init__(self, code: grpc.StatusCode, message: str, reason: str = "", metadata: Mapping[str, str] = {}) -> None:
        super().__init__(f"{code.name}: {message}" + (f" [{reason}]" if reason else ""))
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata)

    @classmethod
    def from_rpc(cls, error: grpc.aio.AioRpcError) -> FlotillaError:
        reason = ""
        metadata: dict[str, str] = {}
        status = rpc_status.from_call(error)
        if status is not None:
            reason, metadata = _error_info(status)
        return cls(error.code(), error.details() or "", reason, metadata)

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> FlotillaError:
        reason, metadata = _error_info(status)
        code = next((c for c in grpc.StatusCode if c.value[0] == status.code), grpc.StatusCode.UNKNOWN)
        return cls(code, status.message, reason, metadata)


def _reason(error: grpc.aio.AioRpcError) -> str:
    status = rpc_status.from_call(error)
    return _error_info(status)[0] if status is not None else ""


def _error_info(status: status_pb2.Status) -> tuple[str, dict[str, str]]:
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    return "", {}


def retry_pause_s(attempt: int, at_least_s: float, base_s: float = 0.2, cap_s: float = 10.0) -> float:
    """The pause before retry `attempt` (1, 2, ...): the server's RetryInfo delay `at_least_s`
    spread over [delay, 2 x delay], plus exponential backoff with full jitter."""
    return at_least_s * (1 + random.random()) + random.uniform(0, min(cap_s, base_s * 2**attempt))


class FlotillaClient:
    """One connection to a Flotilla gateway (or several targets to fail over between); over TLS
    when given `tls` (see `flotilla_client.tls.Tls`), plaintext otherwise."""

    def __init__(
        self,
        *targets: str,
        retries: int = 8,
        backoff_s: float = 0.2,
        max_backoff_s: float = 10.0,
        tls: Tls | None = None,
    ) -> None:
        if not targets:
            msg = "give at least one target, e.g. 127.0.0.1:50051"
            raise ValueError(msg)
        self.targets = list(targets)
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.tls = tls
        self.session_token = ""
        self.user = ""
        self.api_key = ""
        self._current: dict[str, str] = {}  # a token as first given -> its latest refresh
        self._refreshing = asyncio.Lock()
        self._refused: dict[str, float] = {}  # token -> until when not to ask for its refresh again
        self._index = 0
        self._retired: list[grpc.aio.Channel] = []
        self._connect()

    def _connect(self) -> None:
        target = self.targets[self._index % len(self.targets)]
        self.channel = self.tls.aio_channel(target) if self.tls else grpc.aio.insecure_channel(target)
        self.games = game_service_pb2_grpc.GameServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.auth = game_service_pb2_grpc.AuthServiceStub(self.channel)  # type: ignore[no-untyped-call]

    async def _failover(self) -> None:
        """Move to the next target (a no-op with one target: the channel reconnects by itself).

        The old channel stays open until `close()`: other calls (a watch) may still run on it.
        """
        if len(self.targets) > 1:
            self._retired.append(self.channel)
            self._index += 1
            self._connect()

    async def close(self) -> None:
        for channel in [*self._retired, self.channel]:
            await channel.close()
        self._retired.clear()

    async def __aenter__(self) -> FlotillaClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _pause(self, attempt: int, at_least_s: float) -> None:
        """Before retry `attempt` (1, 2, ...); see `retry_pause_s`."""
        await asyncio.sleep(retry_pause_s(attempt, at_least_s, self.backoff_s, self.max_backoff_s))

    @staticmethod
    def _auth(token: str) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {token}"),) if token else ()

    def current(self, token: str) -> str:
        """The latest refresh of `token` (itself if it was never refreshed)."""
        return self._current.get(token, token)

    async def fresh(self, token: str) -> str:
        """`token`, refreshed first (AuthService.RefreshToken) once less than a third of its lifetime
        is left, so long games and streams never meet an expired token. Seats and the session keep
        their first token as their name: every call looks up its latest refresh here."""
        latest = self.current(token)
        times = token_times(latest)
        if times is None or time.time() < times[1] - (times[1] - times[0]) * REFRESH_AT:
            return latest
        if time.monotonic() < self._refused.get(latest, 0.0):
            return latest  # refused lately (e.g. the seat left): let the server say why on use
        async with self._refreshing:
            if self.current(token) != latest:  # another task refreshed it meanwhile
                return self.current(token)
            try:
                reply = await self._unary("RefreshToken", game_service_pb2.RefreshTokenRequest(token=latest))
            except FlotillaError as error:
                if error.reason != TOKEN_EXPIRED or not self.api_key or token != self.session_token:
                    if len(self._refused) > 1000:
                        self._refused.clear()
                    self._refused[latest] = time.monotonic() + REFUSED_PAUSE_S
                    raise
                await self.sign_in_with_api_key(self.api_key)  # asleep past its expiry: sign in again
                return self.session_token
            assert isinstance(reply, game_service_pb2.RefreshTokenResponse)
            self._current[token] = reply.token
            return reply.token

    async def _unary(self, name: str, request: object, token: str = "", *, retry: bool = True) -> object:
        for attempt in range(self.retries + 1):
            stub = self.auth if name in AUTH_METHODS else self.games
            try:
                fresh = await self.fresh(token) if token else ""
                return await getattr(stub, name)(request, metadata=self._auth(fresh), timeout=30)
            except grpc.aio.AioRpcError as error:
                delay = retry_after(error)
                if not retry or delay is None or attempt == self.retries:
                    raise FlotillaError.from_rpc(error) from None
                await self._failover()
                await self._pause(attempt + 1, delay)
        raise AssertionError("unreachable")

    # --- the API -----------------------------------------------------------------------
    async def sign_in(self, display_name: str) -> str:
        """Sign in as a guest; later calls use the session token."""
        reply = await self._unary("SignInAsGuest", game_service_pb2.SignInAsGuestRequest(display_name=display_name))
        assert isinstance(reply, game_service_pb2.SignInAsGuestResponse)
        self.session_token, self.user = reply.session_token, reply.user
        return reply.session_token

    async def sign_in_with_api_key(self, api_key: str) -> str:
        """Sign in as an operator-made bot account; the session is refreshed (and, past its expiry,
        made again with the key) by itself."""
        request = game_service_pb2.SignInWithApiKeyRequest(api_key=api_key)
        reply = await self._unary("SignInWithApiKey", request)
        assert isinstance(reply, game_service_pb2.SignInWithApiKeyResponse)
        self.session_token, self.user, self.api_key = reply.session_token, reply.user, api_key
        return reply.session_token

    def use_token(self, token: str) -> None:
        """Act with a token from elsewhere: an identity provider's JWT, or a session token handed over."""
        self.session_token = token

    async def create_game(self, kind: str, seats: int, options: Mapping[str, str] | None = None) -> game_pb2.Game:
        request = game_service_pb2.CreateGameRequest(
            kind=kind, seat_count=seats, options=dict(options or {}), request_id=uuid.uuid4().hex
        )
        reply = await self._unary("CreateGame", request, self.session_token)
        assert isinstance(reply, game_service_pb2.CreateGameResponse)
        return reply.game

    async def join(self, game: str, seat: int | None = None) -> Seat:
        request = game_service_pb2.JoinGameRequest(game=game)
        if seat is not None:
            request.seat = seat
        reply = await self._unary("JoinGame", request, self.session_token)
        assert isinstance(reply, game_service_pb2.JoinGameResponse)
        return Seat(game, reply.seat, reply.seat_token)

    async def get_game(self, game: str) -> game_pb2.Game:
        reply = await self._unary("GetGame", game_service_pb2.GetGameRequest(game=game), self.session_token)
        assert isinstance(reply, game_service_pb2.GetGameResponse)
        return reply.game

    async def list_games(
        self, kind: str = "", page_size: int = 50, page_token: str = ""
    ) -> game_service_pb2.ListGamesResponse:
        request = game_service_pb2.ListGamesRequest(kind=kind, page_size=page_size, page_token=page_token)
        reply = await self._unary("ListGames", request, self.session_token)
        assert isinstance(reply, game_service_pb2.ListGamesResponse)
        return reply

    async def view(self, game: str, seat: Seat | None = None) -> game_service_pb2.GetViewResponse:
        token = seat.token if seat else self.session_token
        reply = await self._unary("GetView", game_service_pb2.GetViewRequest(game=game), token)
        assert isinstance(reply, game_service_pb2.GetViewResponse)
        return reply

    async def submit(
        self, game: str, seat: Seat, action: game_pb2.Action, *, etag: str = "", request_id: str = ""
    ) -> game_service_pb2.SubmitActionResponse:
        """Submit an action; retries on UNAVAILABLE with the same request id (applied once)."""
        request = game_service_pb2.SubmitActionRequest(
            game=game, action=action, etag=etag, request_id=request_id or uuid.uuid4().hex
        )
        reply = await self._unary("SubmitAction", request, seat.token)
        assert isinstance(reply, game_service_pb2.SubmitActionResponse)
        return reply

    async def record(self, game: str) -> game_service_pb2.GetGameRecordResponse:
        reply = await self._unary("GetGameRecord", game_service_pb2.GetGameRecordRequest(game=game), self.session_token)
        assert isinstance(reply, game_service_pb2.GetGameRecordResponse)
        return reply

    async def watch(
        self, game: str, seat: Seat | None = None, after_event_id: int = 0, after_etag: str = ""
    ) -> AsyncIterator[game_service_pb2.WatchGameResponse]:
        """Updates from `after_etag` (or `after_event_id`); reconnects (and fails over) and resumes
        where it stopped, by etag, so the server can tell when the game's history changed under it.

        Ends when the game is over. Each event arrives exactly once, in order; an update with a
        `view` replaces everything known so far (its `resync_reason` says why, mid-stream).
        """
        cursor, etag = after_event_id, after_etag
        token = seat.token if seat else self.session_token
        attempt = 0
        while True:
            request = game_service_pb2.WatchGameRequest(game=game, after_event_id=cursor, after_etag=etag)
            used = await self.fresh(token) if token else ""
            call = self.games.WatchGame(request, metadata=self._auth(used))
            try:
                async for update in call:
                    attempt = 0
                    cursor, etag = update.through_event_id, update.etag
                    yield update
                    if token:  # the stream ends when `used` expires: resume with the refresh
                        with contextlib.suppress(FlotillaError):  # no refresh (seat left): the stream goes on
                            await self.fresh(token)
                return
            except grpc.aio.AioRpcError as error:
                delay = retry_after(error)
                if delay is None and token and self.current(token) != used and _reason(error) == TOKEN_EXPIRED:
                    continue  # the token the stream was opened with expired: resume with its refresh
                if delay is None or attempt >= self.retries:
                    raise FlotillaError.from_rpc(error) from None
                attempt += 1
                await self._failover()
                await self._pause(attempt, delay)

    def play(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> PlayStream:
        """A bidirectional Play stream for `seat` (actions in, outcomes and updates out)."""
        return PlayStream(self, seat, after_event_id, after_etag)


class PlayStream:
    """Wraps GameService.Play: `send` actions, iterate `PlayResponse`s."""

    def __init__(self, client: FlotillaClient, seat: Seat, after_event_id: int, after_etag: str = "") -> None:
        self._outgoing: asyncio.Queue[game_service_pb2.PlayRequest | None] = asyncio.Queue()
        self.seat = seat
        opening = game_service_pb2.WatchGameRequest(
            game=seat.game, after_event_id=after_event_id, after_etag=after_etag
        )
        self._outgoing.put_nowait(game_service_pb2.PlayRequest(open=opening))
        # The stream ends (TOKEN_EXPIRED) when this token expires: reopen it with `client.play(seat,
        # after_etag=...)` after `await client.fresh(seat.token)` (watch() does all this by itself).
        self.call = client.games.Play(self._requests(), metadata=client._auth(client.current(seat.token)))

    async def _requests(self) -> AsyncIterator[game_service_pb2.PlayRequest]:
        while (item := await self._outgoing.get()) is not None:
            yield item

    def send(self, action: game_pb2.Action, *, etag: str = "", request_id: str = "") -> str:
        request_id = request_id or uuid.uuid4().hex
        submit = game_service_pb2.SubmitActionRequest(
            game=self.seat.game, action=action, etag=etag, request_id=request_id
        )
        self._outgoing.put_nowait(game_service_pb2.PlayRequest(submit=submit))
        return request_id

    def close(self) -> None:
        """Half-close: no more actions (updates keep coming until the game ends)."""
        self._outgoing.put_nowait(None)

    def __aiter__(self) -> AsyncIterator[game_service_pb2.PlayResponse]:
        return self._responses()

    async def _responses(self) -> AsyncIterator[game_service_pb2.PlayResponse]:
        try:
            async for response in self.call:
                yield response
        except grpc.aio.AioRpcError as error:
            raise FlotillaError.from_rpc(error) from None
