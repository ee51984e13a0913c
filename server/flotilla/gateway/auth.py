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
        """The principal of a valid token; Unauthenticated otherwise."""
        try:
            kind, body, mac = token.split(".")
            expected = hmac.new(self._key, f"{kind}.{body}".encode(), hashlib.sha256).digest()
            if kind not in (SESSION, SEAT) or not hmac.compare_digest(_unb64(mac), expected):
                raise Unauthenticated("the token's signature does not verify; sign in again")
            payload = orjson.loads(_unb64(body))
        except (ValueError, orjson.JSONDecodeError):
            raise Unauthenticated("malformed token; send 'authorization: Bearer <token>'") from None
        if kind == SESSION:
            if payload["x"] < time.time():
                raise Unauthenticated("the session token expired; sign in again")
            return Principal(user=payload["u"], name=payload["n"])
        return Principal(user=payload["u"], name=payload["n"], game=payload["g"], seat=int(payload["s"]))


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
