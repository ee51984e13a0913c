"""Signed, stateless tokens: a session token names a user; a seat token names (game, seat, user).

Format: `<kind>.<payload>.<mac>`, payload = urlsafe base64 of JSON, mac = HMAC-SHA256 over
kind and payload with the gateways' shared key. Any gateway verifies any token without a
Redis round trip.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from typing import TypeGuard

import grpc
import orjson

from flotilla.app.errors import Unauthenticated

SESSION = "s1"
SEAT = "t1"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a user, and for seat tokens the game and seat they act for."""

    user: str
    name: str
    game: str | None = None
    seat: int | None = None


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    """Issues and verifies tokens with one key."""

    def __init__(self, key: bytes, session_ttl_s: int = 7 * 24 * 3600) -> None:
        self._key = key
        self.session_ttl_s = session_ttl_s

    def _sign(self, kind: str, payload: dict[str, object]) -> str:
        body = _b64(orjson.dumps(payload))
        mac = hmac.new(self._key, f"{kind}.{body}".encode(), hashlib.sha256).digest()
        return f"{kind}.{body}.{_b64(mac)}"

    def session(self, user: str, name: str) -> str:
        return self._sign(SESSION, {"u": user, "n": name, "x": int(time.time()) + self.session_ttl_s})

    def seat(self, game: str, seat: int, user: str, name: str) -> str:
        return self._sign(SEAT, {"u": user, "n": name, "g": game, "s": seat})

    def verify(self, token: str) -> Principal:
        """The principal of a valid token; Unauthenticated otherwise (also for a well-signed
        token whose payload is not one this server writes)."""
        try:
            kind, body, mac = token.split(".")
            expected = hmac.new(self._key, f"{kind}.{body}".encode(), hashlib.sha256).digest()
            if kind not in (SESSION, SEAT) or not hmac.compare_digest(_unb64(mac), expected):
                raise Unauthenticated("the token's signature does not verify; sign in again")
            payload = orjson.loads(_unb64(body))
        except (ValueError, orjson.JSONDecodeError):
            raise Unauthenticated("malformed token; send 'authorization: Bearer <token>'") from None
        principal = _principal(kind, payload)
        if principal is None:
            raise Unauthenticated("the token's payload is malformed; sign in again")
        if kind == SESSION and payload["x"] < time.time():
            raise Unauthenticated("the session token expired; sign in again")
        return principal


def _principal(kind: str, payload: object) -> Principal | None:
    """The principal a payload names, None unless it has exactly the fields and types `Tokens` writes."""
    if not isinstance(payload, dict):
        return None
    user, name = payload.get("u"), payload.get("n")
    if not isinstance(user, str) or not isinstance(name, str):
        return None
    if kind == SESSION:
        expires = payload.get("x")
        return Principal(user=user, name=name) if _is_int(expires) else None
    game, seat = payload.get("g"), payload.get("s")
    if not isinstance(game, str) or not _is_int(seat) or not 0 <= seat < 1 << 16:
        return None
    return Principal(user=user, name=name, game=game, seat=seat)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def bearer(context: grpc.aio.ServicerContext) -> str | None:  # type: ignore[type-arg]
    """The token of the call's `authorization: Bearer <token>` metadata (None when absent)."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            text = value if isinstance(value, str) else value.decode()
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise Unauthenticated("authorization must be 'Bearer <token>'")
            return token.strip()
    return None


def principal_of(
    tokens: Tokens,
    context: grpc.aio.ServicerContext,  # type: ignore[type-arg]
    *,
    required: bool = True,
) -> Principal | None:
    """Who is calling (None for an anonymous call when that is allowed)."""
    token = bearer(context)
    if token is None:
        if required:
            raise Unauthenticated("send 'authorization: Bearer <token>' (sign in with AuthService)")
        return None
    return tokens.verify(token)
