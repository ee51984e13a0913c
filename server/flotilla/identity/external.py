"""An operator's own identity provider: its JWTs (RS256/ES256) are accepted as session tokens.

Keys come from the issuer's JWKS, fetched over HTTP(S) by PyJWT's PyJWKClient (in a thread:
it blocks) or read from a file (re-read when its size or mtime changes), and cached by kid in
a KeyCache: refreshed every `keys_ttl_s`, and on an unknown kid (paced, with a negative cache).
A token must name the configured issuer and audience, be signed by one of the issuer's keys
with an accepted algorithm, and carry `exp` and `sub`. (iss, sub) maps to a stable Flotilla
user id; the display name comes from the `name_claim` claim (through app.inputs.display_name).
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import jwt
from jwt import PyJWK, PyJWKClient, PyJWKSet

from flotilla.app.errors import InvalidRequest, TokenExpired, Unauthenticated
from flotilla.app.inputs import person_name
from flotilla.bots import POLICIES
from flotilla.identity.keycache import KeyCache, KeySet
from flotilla.identity.principal import Principal

LEEWAY_S = 30  # clock skew between the issuer and the gateways
FETCH_TIMEOUT_S = 5.0
MAX_SUBJECT = 255
SEEN_MAX = 100_000
ALGORITHMS = ("RS256", "ES256")


@dataclass(frozen=True, slots=True)
class IssuerConfig:
    """Settings FLOTILLA_OIDC_* (see settings.py)."""

    issuer: str
    audience: str
    jwks_url: str = ""
    jwks_file: str = ""
    algorithms: tuple[str, ...] = ALGORITHMS
    keys_ttl_s: float = 300.0
    name_claim: str = "name"

    def __post_init__(self) -> None:
        problems = []
        if not self.audience:
            problems.append("an audience (FLOTILLA_OIDC_AUDIENCE): without it any token of the issuer would do")
        if bool(self.jwks_url) == bool(self.jwks_file):
            problems.append("exactly one of FLOTILLA_OIDC_JWKS_URL and FLOTILLA_OIDC_JWKS_FILE")
        if not self.algorithms or not set(self.algorithms) <= set(ALGORITHMS):
            problems.append(f"algorithms among {', '.join(ALGORITHMS)}")
        if problems:
            msg = f"the external issuer {self.issuer} needs " + "; ".join(problems)
            raise ValueError(msg)


def external_user(issuer: str, subject: str) -> str:
    """The Flotilla user id of (iss, sub): stable, and distinct for every pair."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:issuer:{issuer}#{subject}").hex


class ExternalIssuer:
    """Verifies one external issuer's JWTs."""

    def __init__(self, config: IssuerConfig, remember: Callable[[str, str], Awaitable[None]] | None = None) -> None:
        self.config = config
        self._remember = remember
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()
        url = config.jwks_url
        self._client = PyJWKClient(url, cache_jwk_set=False, timeout=FETCH_TIMEOUT_S) if url else None
        self._file_stamp: tuple[int, int] | None = None
        self.keys: KeyCache[PyJWK] = KeyCache(self._load, name="external", refresh_s=config.keys_ttl_s)

    async def start(self) -> None:
        """Load the issuer's keys; an unreachable JWKS does not stop the gateway (guests and API keys
        still work; the keys are fetched again on the next token and every refresh)."""
        await self.keys.start(required=False)

    async def close(self) -> None:
        """Stop the key refreshes."""
        await self.keys.close()

    def accepts(self, alg: object) -> bool:
        """Whether a token with this header `alg` is this issuer's to check."""
        return isinstance(alg, str) and alg in self.config.algorithms

    async def _load(self) -> KeySet[PyJWK]:
        if self._client is not None:
            found = await asyncio.to_thread(self._client.get_jwk_set, True)
        else:
            stat = await asyncio.to_thread(os.stat, self.config.jwks_file)
            stamp = (stat.st_mtime_ns, stat.st_size)
            if stamp == self._file_stamp:
                return self.keys.keys
            raw = await asyncio.to_thread(_read, self.config.jwks_file)
            found = PyJWKSet.from_dict(raw)
            self._file_stamp = stamp
        keys = {
            k.key_id: k
            for k in found.keys
            if k.key_id and k.public_key_use in ("sig", None) and k.algorithm_name in self.config.algorithms
        }
        return KeySet(keys)

    async def verify(self, token: str, kid: object) -> Principal:
        """The principal of a valid token of the issuer; Unauthenticated (TokenExpired) otherwise."""
        key = await self.keys.get(kid) if isinstance(kid, str) else None
        if key is None:
            raise Unauthenticated("the token's signing key is not one of the identity provider's; sign in again")
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=list(self.config.algorithms),
                audience=self.config.audience,
                issuer=self.config.issuer,
                leeway=LEEWAY_S,
                options={"require": ["exp", "sub", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError:
            raise TokenExpired("the identity provider's token expired; get a fresh one from it") from None
        except jwt.InvalidTokenError:
            raise Unauthenticated("the token does not verify for this server's identity provider") from None
        subject = claims["sub"]
        if not isinstance(subject, str) or not 0 < len(subject) <= MAX_SUBJECT:
            raise Unauthenticated("the token's subject is malformed")
        user = external_user(self.config.issuer, subject)
        name = self._name(claims.get(self.config.name_claim), user)
        await self._note(user, name)
        return Principal(user=user, name=name, expires=float(claims["exp"]), external=True)

    @staticmethod
    def _name(raw: object, user: str) -> str:
        try:
            return person_name(raw if isinstance(raw, str) else "", POLICIES)
        except InvalidRequest:
            return f"player-{user[:8]}"

    async def _note(self, user: str, name: str) -> None:
        """Keep the user's record (display name) once per process and name."""
        if self._remember is None or (user, name) in self._seen:
            return
        await self._remember(user, name)
        self._seen[(user, name)] = None
        while len(self._seen) > SEEN_MAX:
            self._seen.popitem(last=False)


def _read(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        msg = f"{path} is not a JWKS (a JSON object with `keys`)"
        raise ValueError(msg)
    return data
