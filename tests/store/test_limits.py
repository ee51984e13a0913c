"""Rate limits and quotas (`LimitStore`, the store's `limits`): a contract of their own, the same
on a single Redis (one script for all buckets) and on a cluster (one script per bucket, given
back on a refusal)."""

from __future__ import annotations

from typing import Any

import pytest

from flotilla.store import keys
from flotilla.store.limits_store import Bucket
from flotilla.store.redis_store import RedisStore

pytestmark = pytest.mark.redis

SLOW_MS = 60_000.0  # one call a minute: nothing refills during a test


async def test_a_bucket_lets_its_burst_through_then_refuses_with_a_retry_after(store: RedisStore, uid: str) -> None:
    bucket = Bucket(keys.limit_bucket("test", uid), SLOW_MS, 3)
    assert [await store.limits.take([bucket]) for _ in range(3)] == [None] * 3
    refused = await store.limits.take([bucket])
    assert refused is not None
    index, retry_ms = refused
    assert index == 0
    assert 0 < retry_ms <= SLOW_MS


async def test_a_call_refused_by_one_bucket_keeps_nothing_of_the_others(store: RedisStore, uid: str) -> None:
    roomy = Bucket(keys.limit_bucket("roomy", uid), SLOW_MS, 2)
    tight = Bucket(keys.limit_bucket("tight", uid), SLOW_MS, 1)  # another slot than `roomy` on a cluster
    assert await store.limits.take([tight]) is None
    refused = await store.limits.take([roomy, tight])
    assert refused is not None
    assert refused[0] == 1  # the index of the bucket that refused
    taken = [await store.limits.take([roomy]) for _ in range(3)]
    assert taken[:2] == [None, None]  # roomy gave back what the refused call took ...
    assert taken[2] is not None  # ... and holds its burst, no more


async def test_a_gated_work_item_is_queued_only_when_every_bucket_lets_it(
    store: RedisStore, probe: Any, uid: str
) -> None:
    stream = keys.work(f"kind{uid}", "1", 0)
    bucket = Bucket(keys.limit_bucket("submit", uid), SLOW_MS, 1)
    assert await store.enqueue(stream, {"n": 1}, gate=[bucket]) is None
    refused = await store.enqueue(stream, {"n": 2}, gate=[bucket])
    assert refused is not None
    assert refused[0] == 0
    assert await probe.xlen(stream) == 1  # the refused item was not queued


async def test_a_quota_holds_at_most_its_limit_and_a_member_held_passes_again(store: RedisStore, uid: str) -> None:
    quota = keys.held(uid, "games")
    assert [await store.limits.hold(quota, f"g{i}", 2, 60_000) for i in range(2)] == [0, 0]
    assert await store.limits.hold(quota, "g9", 2, 60_000) == 2  # full: how many are held
    assert await store.limits.hold(quota, "g0", 2, 60_000) == 0  # held already
    await store.limits.release(quota, "g0")
    assert sorted(await store.limits.held(quota)) == ["g1"]
    assert await store.limits.hold(quota, "g9", 2, 60_000) == 0
