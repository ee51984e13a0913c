"""Redis side of identity: the token-signing key set, API keys and seat-token revocations.

Key layout and lifetimes are in store/keys.py. Secrets of API keys are never stored: only the
SHA-256 of a key's 256-bit random secret (a fast hash is enough for a random secret; a slow one
would only slow sign-ins).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from flotilla.records import value_of
from flotilla.store import keys
from flotilla.store.client import script_source
from flotilla.store.redis_store import RedisStore
from flotilla.store.transient import own_errors

API_KEY = re.compile(r"^flk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")


@dataclass(frozen=True, slots=True)
class SigningKeys:
    """The stored token-signing keys: secret by kid, and the kid that signs now."""

    keys: dict[str, bytes]
    current: str


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """One signing key as `flotilla keys list` shows it (never its secret)."""

    kid: str
    created_ms: int
    superseded_ms: int  # 0 while it signs
    signing: bool


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An API key's record: its bot user and name (the secret's hash stays in Redis)."""

    key_id: str
    name: str
    user: str
    created_ms: int


def api_key_user(key_id: str) -> str:
    """The stable user id of an API key's bot account."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:api-key:{key_id}").hex


def superseded_ms(key: dict[str, Any]) -> int:
    """When a stored signing key was superseded (0: it signs). Its old name `r` is read too, not only
    when `superseded_ms` is absent: a rotation by the previous release sets only `r` (as
    rotate_keys.lua reads it)."""
    return max(int(key.get("superseded_ms", 0)), int(key.get("r", 0)))


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def new_kid() -> str:
    """A key id that sorts by creation time."""
    return time.strftime("k%Y%m%dT%H%M%S", time.gmtime()) + "-" + secrets.token_hex(2)


@own_errors
class AuthStore:
    """Signing keys, API keys and revocations over one Redis client."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._rotate = redis.register_script(script_source("rotate_keys.lua"))

    @classmethod
    def of(cls, store: RedisStore) -> AuthStore:
        """The auth store on `store`'s connections (callers never hold a Redis client)."""
        return cls(store.redis)

    # --- signing keys ------------------------------------------------------------------
    async def key_set(self) -> SigningKeys:
        """The stored keys (the first one is made here when there is none)."""
        raw: dict[bytes, bytes] = await self.redis.hgetall(keys.SIGNING_KEYS)
        if b"current" not in raw:
            await self.rotate(retire_after_s=0, first=True)
            raw = await self.redis.hgetall(keys.SIGNING_KEYS)
        found = {
            field[2:].decode(): base64.b64decode(value_of("SigningKey", orjson.loads(value), "secret"))
            for field, value in raw.items()
            if field.startswith(b"k:")
        }
        return SigningKeys(found, current=raw[b"current"].decode())

    async def rotate(self, retire_after_s: int, *, first: bool = False) -> tuple[str, list[str]]:
        """Add a signing key (the previous one keeps verifying); returns it and the kids retired."""
        secret = base64.b64encode(secrets.token_bytes(32)).decode()
        now_ms = int(time.time() * 1000)
        reply = await self._rotate(
            keys=[keys.SIGNING_KEYS], args=[new_kid(), secret, now_ms, retire_after_s * 1000, "1" if first else "0"]
        )
        kids = [k.decode() if isinstance(k, bytes) else str(k) for k in reply]
        return kids[0], kids[1:]

    async def list_keys(self) -> list[KeyInfo]:
        """Every stored key, oldest first (no secrets)."""
        raw: dict[bytes, bytes] = await self.redis.hgetall(keys.SIGNING_KEYS)
        current = raw.get(b"current", b"").decode()
        out = []
        for field, value in raw.items():
            if field.startswith(b"k:"):
                data = orjson.loads(value)
                kid = field[2:].decode()
                created = int(value_of("SigningKey", data, "created_ms"))
                out.append(KeyInfo(kid, created, superseded_ms(data), kid == current))
        return sorted(out, key=lambda k: k.created_ms)

    # --- API keys ----------------------------------------------------------------------
    async def create_api_key(self, name: str) -> tuple[ApiKey, str]:
        """A new API key: its record and the key itself (shown once, never stored)."""
        key_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
        record = ApiKey(key_id, name, api_key_user(key_id), int(time.time() * 1000))
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(
                keys.api_key(key_id),
                mapping={"name": name, "user": record.user, "created_ms": record.created_ms, "hash": _digest(secret)},
            )
            pipe.sadd(keys.API_KEYS, key_id)
            await pipe.execute()
        return record, f"flk_{key_id}_{secret}"

    async def check_api_key(self, api_key: str) -> ApiKey | None:
        """The record of a valid, unrevoked key; None otherwise."""
        match = API_KEY.match(api_key)
        if match is None:
            return None
        key_id, secret = match.groups()
        record = await self.api_key(key_id, with_hash=True)
        if record is None or not secrets.compare_digest(record[1], _digest(secret)):
            return None
        return record[0]

    async def api_key(self, key_id: str, *, with_hash: bool = False) -> tuple[ApiKey, str] | None:
        """The key's record (and its secret's hash when asked), None once revoked."""
        raw: dict[bytes, bytes] = await self.redis.hgetall(keys.api_key(key_id))
        if b"hash" not in raw:
            return None
        record = ApiKey(key_id, raw[b"name"].decode(), raw[b"user"].decode(), int(raw[b"created_ms"]))
        return record, raw[b"hash"].decode() if with_hash else ""

    async def list_api_keys(self) -> list[ApiKey]:
        """Every unrevoked key, oldest first."""
        ids = sorted(k.decode() for k in await self.redis.smembers(keys.API_KEYS))
        found = [await self.api_key(key_id) for key_id in ids]
        return sorted((r[0] for r in found if r is not None), key=lambda r: r.created_ms)

    async def revoke_api_key(self, key_id: str) -> bool:
        """Delete the key (True if it existed): no sign-in or refresh with it from now on."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(keys.api_key(key_id))
            pipe.srem(keys.API_KEYS, key_id)
            deleted, _ = await pipe.execute()
        return bool(deleted)

    # --- seat-token revocations --------------------------------------------------------
    async def revoke_seat(self, game_id: str, seat: int, ttl_s: int) -> None:
        """Every token of (game, seat) is refused from now on (for `ttl_s`: the seat-token lifetime)."""
        await self.redis.set(keys.revoked_seat(game_id, seat), int(time.time()), ex=max(ttl_s, 1))

    async def seat_revoked(self, game_id: str, seat: int) -> bool:
        """Whether the seat left (its tokens are refused)."""
        return bool(await self.redis.exists(keys.revoked_seat(game_id, seat)))
