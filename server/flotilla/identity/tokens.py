"""Flotilla's own tokens: JWTs (PyJWT, HS256, a `kid` header) for sessions and seats.

Claims: `iss` and `aud` are Flotilla's (ISSUER, AUDIENCE), `sub` the user id, `name` the display
name, `iat`, `exp`, `typ` ("session" or "seat"); a seat token adds `game` and `seat`; a token
that came from an API key carries its id in `akid` (its refresh re-checks the key). Keys come
from a KeyCache (identity/keycache.py): the current key signs, older keys still verify, so a
rotation logs nobody out. `verify` also accepts a configured external issuer's JWTs
(identity/external.py) as session tokens: the header's `alg` tells which is which, and each
side accepts only its own algorithms (no `none`, no HMAC with a public key).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from typing import Any, TypeGuard

import jwt

from flotilla import metrics
from flotilla.app.errors import TokenExpired, Unauthenticated
from flotilla.identity.external import ExternalIssuer
from flotilla.identity.keycache import KID, KeyCache, KeySet
from flotilla.identity.principal import Principal

ISSUER = "flotilla"
AUDIENCE = "flotilla"
ALGORITHM = "HS256"
LEEWAY_S = 5  # clock skew between gateways
SESSION = "session"
SEAT = "seat"
_GAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_REQUIRED = ["exp", "iat", "sub", "iss", "aud"]
VERIFIED_MAX = 20_000  # tokens remembered as verified, per process (a seat token is shown on every move)


@dataclass(frozen=True, slots=True)
class Lifetimes:
    """Token lifetimes in seconds (settings FLOTILLA_SESSION_TTL, _SEAT_TOKEN_TTL, _API_KEY_SESSION_TTL)."""

    session_s: int = 7 * 24 * 3600
    seat_s: int = 24 * 3600
    api_key_session_s: int = 900

    @property
    def longest_s(self) -> int:
        """No token lives longer: a key superseded this long ago signed nothing still valid."""
        return max(self.session_s, self.seat_s, self.api_key_session_s)


MIN_SECRET_BYTES = 32  # an HS256 key shorter than its hash is guessable (RFC 7518 section 3.2)


def parse_pinned(secret: str) -> KeySet[bytes]:
    """FLOTILLA_SECRET as a key set: `kid:secret,kid:secret,...` (the first signs) or one plain secret.

    Each secret must be at least 32 bytes (e.g. `openssl rand -base64 32`); ValueError otherwise."""
    parts = [p.strip() for p in secret.split(",") if p.strip()]
    pairs = [p.partition(":") for p in parts]
    if parts and all(sep and KID.match(kid) and value for kid, sep, value in pairs):
        found = {kid: value.encode() for kid, _, value in pairs}
        current = pairs[0][0]
    else:
        current = "pinned-" + hashlib.sha256(secret.encode()).hexdigest()[:8]  # stable, says nothing of the secret
        found = {current: secret.encode()}
    short = sorted(kid for kid, key in found.items() if len(key) < MIN_SECRET_BYTES)
    if short:
        msg = (
            f"FLOTILLA_SECRET: the secret of {', '.join(short)} is shorter than {MIN_SECRET_BYTES} bytes; "
            "use a random one, e.g. `openssl rand -base64 32`"
        )
        raise ValueError(msg)
    return KeySet(found, current=current)


class Tokens:
    """Issues Flotilla tokens and verifies any token a gateway accepts."""

    def __init__(
        self, keys: KeyCache[bytes], lifetimes: Lifetimes | None = None, external: ExternalIssuer | None = None
    ) -> None:
        self.keys = keys
        self.lifetimes = lifetimes or Lifetimes()
        self.external = external
        self._verified: dict[str, Principal] = {}  # exact token -> its principal, until its exp

    @property
    def session_ttl_s(self) -> int:
        return self.lifetimes.session_s

    def _sign(self, claims: dict[str, Any], ttl_s: int) -> str:
        kid = self.keys.keys.current
        if kid is None:
            msg = "no signing key loaded"
            raise RuntimeError(msg)
        now = int(time.time())
        payload = {"iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + ttl_s, **claims}
        return jwt.encode(payload, self.keys.keys.keys[kid], algorithm=ALGORITHM, headers={"kid": kid})

    def session_ttl_for(self, api_key: str) -> int:
        """The lifetime of a session token (an API key's is short: revocation reaches it soon)."""
        return self.lifetimes.api_key_session_s if api_key else self.lifetimes.session_s

    def seat_ttl_for(self, api_key: str) -> int:
        """A bot's seat token lives no longer than its session: revoking the key reaches it soon."""
        return min(self.lifetimes.seat_s, self.lifetimes.api_key_session_s) if api_key else self.lifetimes.seat_s

    def session(self, user: str, name: str, *, api_key: str = "") -> str:
        """A session token for `user` (`api_key`: the id of the key it came from)."""
        claims: dict[str, Any] = {"typ": SESSION, "sub": user, "name": name}
        if api_key:
            claims["akid"] = api_key
        return self._sign(claims, self.session_ttl_for(api_key))

    def seat(self, game: str, seat: int, user: str, name: str, *, api_key: str = "") -> str:
        """A seat token: acts for `seat` of `game` only."""
        claims: dict[str, Any] = {"typ": SEAT, "sub": user, "name": name, "game": game, "seat": seat}
        if api_key:
            claims["akid"] = api_key
        return self._sign(claims, self.seat_ttl_for(api_key))

    async def verify(self, token: str) -> Principal:
        """The principal of a valid token; Unauthenticated (TokenExpired once `exp` passed) otherwise.

        A token verified once is remembered until its `exp` (the same bytes verify the same way:
        keys retire only once their tokens have expired), so the move path costs a dict lookup.
        """
        known = self._verified.get(token)
        if known is not None and known.expires > time.time():
            return known
        try:
            principal = await self._verify(token)
        except Unauthenticated as exc:
            metrics.TOKENS_REFUSED.labels(exc.reason).inc()
            raise
        if len(self._verified) >= VERIFIED_MAX:
            self._verified.clear()
        self._verified[token] = principal
        return principal

    async def _verify(self, token: str) -> Principal:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise Unauthenticated("malformed token; send 'authorization: Bearer <token>'") from None
        alg, kid = header.get("alg"), header.get("kid")
        if alg != ALGORITHM:
            if self.external is not None and self.external.accepts(alg):
                return await self.external.verify(token, kid)
            raise Unauthenticated("the token's algorithm is not accepted; sign in again")
        key = await self.keys.get(kid) if isinstance(kid, str) else None
        if key is None:
            raise Unauthenticated("the token's signing key is unknown (forged or retired); sign in again")
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[ALGORITHM],
                audience=AUDIENCE,
                issuer=ISSUER,
                leeway=LEEWAY_S,
                options={"require": _REQUIRED},
            )
        except jwt.ExpiredSignatureError:
            raise TokenExpired("the token expired; refresh tokens before they expire, or sign in again") from None
        except jwt.InvalidTokenError:
            raise Unauthenticated("the token's signature or claims do not verify; sign in again") from None
        principal = _principal(claims)
        if principal is None:
            raise Unauthenticated("the token's payload is malformed; sign in again")
        return principal


def _principal(claims: dict[str, Any]) -> Principal | None:
    """The principal the claims name, None unless they have exactly the fields and types `Tokens` writes."""
    user, name, kind, exp, api_key = (claims.get(k) for k in ("sub", "name", "typ", "exp", "akid"))
    if not isinstance(user, str) or not isinstance(name, str) or not _is_int(exp):
        return None
    if api_key is not None and not isinstance(api_key, str):
        return None
    if kind == SESSION and "game" not in claims and "seat" not in claims:
        return Principal(user=user, name=name, expires=exp, api_key=api_key or "")
    game, seat = claims.get("game"), claims.get("seat")
    if kind != SEAT or not isinstance(game, str) or not _GAME.match(game) or not _is_int(seat):
        return None
    if not 0 <= seat < 1 << 16:
        return None
    return Principal(user=user, name=name, game=game, seat=seat, expires=exp, api_key=api_key or "")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
