"""The signing-key records (`AuthStore`, rotate_keys.lua; records.FIELDS["SigningKey"]) across a
rolling upgrade: keys the previous release wrote (`s`, `c`, `r`) keep verifying and retiring, and
a key this release wrote is read by the previous release's names too. The key set is one global
key, so these tests use a database of their own on the session's redis-server (not the cluster:
it has one database)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
import redis.asyncio as aioredis

from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.auth_store import AuthStore

pytestmark = pytest.mark.redis

OWN_DB = 7  # no other test uses it


@pytest.fixture
async def raw(redis_server: RedisServer) -> AsyncIterator[Any]:
    client: Any = aioredis.from_url(f"{redis_server.url}/{OWN_DB}")
    await client.delete(keys.SIGNING_KEYS)
    yield client
    await client.delete(keys.SIGNING_KEYS)
    await client.aclose()


def _old_key(secret: bytes, created_ms: int, superseded_ms: int) -> bytes:
    return orjson.dumps({"s": base64.b64encode(secret).decode(), "c": created_ms, "r": superseded_ms})


async def test_a_new_key_is_written_under_both_names(raw: Any) -> None:
    auth = AuthStore(raw)
    kid, _ = await auth.rotate(retire_after_s=0, first=True)
    stored = orjson.loads(await raw.hget(keys.SIGNING_KEYS, f"k:{kid}"))
    assert stored["secret"] == stored["s"]  # a gateway of the previous release reads s
    assert (stored["superseded_ms"], stored["r"]) == (0, 0)
    assert stored["created_ms"] == stored["c"] > 0
    assert (await auth.key_set()).keys[kid] == base64.b64decode(stored["secret"])


async def test_keys_of_the_previous_release_verify_list_and_retire(raw: Any) -> None:
    await raw.hset(keys.SIGNING_KEYS, mapping={"current": "old", "k:old": _old_key(b"o" * 32, 5, 0)})
    auth = AuthStore(raw)
    assert (await auth.key_set()).keys == {"old": b"o" * 32}
    new, retired = await auth.rotate(retire_after_s=3600)
    assert retired == []
    listed = {info.kid: info for info in await auth.list_keys()}
    assert listed["old"].created_ms == 5
    assert listed["old"].superseded_ms > 0
    assert not listed["old"].signing
    assert listed[new].signing
    assert listed[new].superseded_ms == 0
    # Back-date the supersession a second (a rotation retires keys superseded *more* than
    # retire_after ago: two rotations in one millisecond would retire nothing).
    stored = orjson.loads(await raw.hget(keys.SIGNING_KEYS, "k:old"))
    stored["superseded_ms"] = stored["r"] = listed["old"].superseded_ms - 1000
    await raw.hset(keys.SIGNING_KEYS, "k:old", orjson.dumps(stored))
    _, retired = await auth.rotate(retire_after_s=0)
    assert "old" in retired


async def test_a_rotation_by_the_previous_release_retires_a_new_key(raw: Any) -> None:
    auth = AuthStore(raw)
    kid, _ = await auth.rotate(retire_after_s=0, first=True)
    stored = orjson.loads(await raw.hget(keys.SIGNING_KEYS, f"k:{kid}"))
    stored["r"] = 9  # the previous release rotates: it sets r alone, superseded_ms stays 0 ...
    made = {f"k:{kid}": orjson.dumps(stored), "k:other": _old_key(b"x" * 32, 9, 0), "current": "other"}
    await raw.hset(keys.SIGNING_KEYS, mapping=made)  # ... and makes a key of its own form sign
    assert {info.kid: info.superseded_ms for info in await auth.list_keys()}[kid] == 9
    _, retired = await auth.rotate(retire_after_s=0)
    assert kid in retired
