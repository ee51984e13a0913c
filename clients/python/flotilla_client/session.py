"""What the async and the sync client share besides their methods: targets and failover, tokens
and their refresh, the retry decisions. The clients add only the waiting (await or block)."""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable
from typing import Any

from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.calls import Call, call
from flotilla_client.errors import TOKEN_EXPIRED, FlotillaError, RpcFailure, reason_of, retry_after, retry_pause_s
from flotilla_client.rpcs import REFRESH_TOKEN, Bidi, Rpc, ServerStream
from flotilla_client.tls import Tls

REFRESH_AT = 1 / 3  # refresh a token once less than this share of its lifetime is left
REFUSED_PAUSE_S = 30.0  # after a refused refresh, use the token as it is for this long
MAX_REFUSED = 1000  # bound on the refused-refresh memo


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


class Session:
    """Targets (failed over in turn), the signed-in user and every token's latest refresh."""

    channel: Any  # grpc.aio.Channel or grpc.Channel: the subclass says which
    _lock: Callable[[], Any]  # asyncio.Lock or threading.Lock: guards token refreshes

    def __init__(
        self,
        *targets: str,
        retries: int = 8,
        backoff_s: float = 0.2,
        max_backoff_s: float = 10.0,
        tls: Tls | None = None,
        timeout_s: float = 30.0,
    ) -> None:
        if not targets:
            msg = "give at least one target, e.g. 127.0.0.1:50051"
            raise ValueError(msg)
        self.targets = list(targets)
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.tls = tls
        self.timeout_s = timeout_s
        self.session_token = ""
        self.user = ""
        self.api_key = ""
        self._current: dict[str, str] = {}  # a token as first given -> its latest refresh
        self._refused: dict[str, float] = {}  # token -> until when not to ask for its refresh again
        self._index = 0
        self._retired: list[Any] = []  # channels failed over from: closed by close()
        self._methods: dict[str, Any] = {}  # path -> multicallable on the current channel
        self._refreshing = self._lock()
        self._connect()

    # --- channels ------------------------------------------------------------------------
    @property
    def target(self) -> str:
        """The target calls go to now."""
        return self.targets[self._index % len(self.targets)]

    def _open(self, target: str) -> Any:
        raise NotImplementedError

    def _connect(self) -> None:
        self.channel = self._open(self.target)
        self._methods = {}

    def _failover(self, on: Any) -> None:
        """Move to the next target, if `on` (the channel a call just failed on) is still the
        current one: calls that fail together (a watch and a submit when their gateway dies) move
        on once, not once each, which with two targets would take them all back to the dead one.
        A no-op with one target (the channel reconnects by itself).

        The old channel stays open until `close()`: other calls (a watch) may still run on it.
        """
        if len(self.targets) > 1 and on is self.channel:
            self._retired.append(self.channel)
            self._index += 1
            self._connect()

    def _method(self, rpc: Rpc[Any, Any]) -> Any:
        """`rpc`'s multicallable on the current channel (grpc.aio and grpc name them alike)."""
        method = self._methods.get(rpc.path)
        if method is None:
            if isinstance(rpc, Bidi):
                make = self.channel.stream_stream
            elif isinstance(rpc, ServerStream):
                make = self.channel.unary_stream
            else:
                make = self.channel.unary_unary
            serialize, parse = rpc.request.SerializeToString, rpc.response.FromString
            method = self._methods[rpc.path] = make(rpc.path, request_serializer=serialize, response_deserializer=parse)
        return method

    @staticmethod
    def _auth(token: str) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {token}"),) if token else ()

    # --- retries -------------------------------------------------------------------------
    def _retry_pause(self, error: RpcFailure, attempt: int, *, on: Any, retry: bool = True) -> float:
        """After failed `attempt` (1, 2, ...) on the channel `on`: the pause before the next one,
        failed over to the next target; raises FlotillaError when the call must not be retried."""
        delay = retry_after(error)
        if not retry or delay is None or attempt > self.retries:
            raise FlotillaError.from_rpc(error) from None
        self._failover(on)
        return retry_pause_s(attempt, delay, self.backoff_s, self.max_backoff_s)

    def _resume_pause(self, error: RpcFailure, attempt: int, token: str, used: str, *, on: Any) -> float:
        """A stream opened on channel `on` with `used` (the latest refresh of `token`) broke: the
        pause before it is reopened where it stopped (at once when only its token expired)."""
        if token and self.current(token) != used and reason_of(error) == TOKEN_EXPIRED:
            return 0.0
        return self._retry_pause(error, attempt, on=on)

    # --- tokens --------------------------------------------------------------------------
    def current(self, token: str) -> str:
        """The latest refresh of `token` (itself if it was never refreshed)."""
        return self._current.get(token, token)

    def _due(self, token: str) -> str | None:
        """The latest refresh of `token` when it must be refreshed now, else None: less than a
        third of its lifetime left, and not refused lately (then the server says why on use)."""
        latest = self.current(token)
        times = token_times(latest)
        if times is None or time.time() < times[1] - (times[1] - times[0]) * REFRESH_AT:
            return None
        return None if time.monotonic() < self._refused.get(latest, 0.0) else latest

    def _refresh(self, token: str, latest: str) -> Call[str]:
        """The RefreshToken call for `latest`; its result becomes `token`'s current refresh."""

        def then(reply: g.RefreshTokenResponse) -> str:
            self._current[token] = reply.token
            return reply.token

        return call(REFRESH_TOKEN, g.RefreshTokenRequest(token=latest), "", then)

    def _refresh_refused(self, error: FlotillaError, token: str, latest: str) -> bool:
        """A refresh failed: True when the session must be signed in again with the API key (it
        slept past its expiry); otherwise `latest` is not offered again for a while (re-raise)."""
        if error.reason == TOKEN_EXPIRED and self.api_key and token == self.session_token:
            return True
        if len(self._refused) > MAX_REFUSED:
            self._refused.clear()
        self._refused[latest] = time.monotonic() + REFUSED_PAUSE_S
        return False

    def use_token(self, token: str) -> None:
        """Act with a token from elsewhere: an identity provider's JWT, or a session token handed over."""
        self.session_token = token
