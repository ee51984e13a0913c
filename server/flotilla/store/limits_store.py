"""Redis side of rate limits and quotas: GCRA buckets and ZSETs of what a subject holds.

Every bucket and every quota is one key (its own cluster slot) changed by one script
(`rate_gate.lua`, `quota_take.lua`); the keys are in store/keys.py. On a single Redis the buckets
of one call are taken by one script (all or none); on a Redis Cluster by one script per bucket,
and a call refused by one bucket gives back what it took from the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flotilla.store.client import script_source
from flotilla.store.transient import own_errors

RATE_GATE = script_source("rate_gate.lua")


@dataclass(frozen=True, slots=True)
class Bucket:
    """One GCRA bucket: its key, the interval between calls (ms) and how many may come at once."""

    key: str
    interval_ms: float
    burst: int


Call = tuple[str | None, Sequence[Bucket], Mapping[str, Any]]  # (work stream or None, buckets, its fields)


def gate_call(calls: Sequence[Call], take: int = 1) -> tuple[list[str], list[Any]]:
    """KEYS and ARGV of rate_gate.lua for these calls (each bucket and stream sent once)."""
    buckets: dict[str, int] = {}
    streams: dict[str, int] = {}
    params: list[Any] = []
    records: list[Any] = []
    for stream, gate, fields in calls:
        indexes = []
        for bucket in gate:
            if bucket.key not in buckets:
                buckets[bucket.key] = len(buckets) + 1
                params += [bucket.interval_ms, bucket.burst]
            indexes.append(buckets[bucket.key])
        at = 0
        if stream is not None:
            at = streams.setdefault(stream, len(streams) + 1)
        flat = [x for pair in fields.items() for x in pair]
        records += [at, len(indexes), *indexes, len(flat), *flat]
    return [*buckets, *streams], [len(buckets), take, *params, *records]


def refusals_of(reply: Sequence[Any]) -> list[tuple[int, int] | None]:
    """rate_gate.lua's reply: per call None (passed) or (index of its bucket that refused, retry-after ms)."""
    return [None if not isinstance(r, list) else (int(r[0]) - 1, int(r[1])) for r in reply]


@own_errors
class LimitStore:
    """Takes from buckets and quotas in Redis (redis.asyncio client, single or cluster)."""

    def __init__(self, client: Any, *, cluster: bool) -> None:
        self.redis = client
        self.cluster = cluster
        self._gate = client.register_script(RATE_GATE)
        self._quota = client.register_script(script_source("quota_take.lua"))

    @property
    def gate_sha(self) -> str:
        sha: str = self._gate.sha
        return sha

    async def load_gate(self) -> None:
        """Load rate_gate.lua (after a NOSCRIPT: a restarted Redis has lost its scripts)."""
        await self.redis.script_load(RATE_GATE)

    async def take(self, buckets: Sequence[Bucket]) -> tuple[int, int] | None:
        """Take one call from every bucket: None, or (index of the bucket that refused, retry-after ms),
        and then no bucket keeps what this call took."""
        if not buckets:
            return None
        if not self.cluster:
            return refusals_of(await self._run([(None, buckets, {})]))[0]
        replies = await asyncio.gather(*(self._run([(None, [b], {})]) for b in buckets))
        passed = [b for b, r in zip(buckets, replies, strict=True) if refusals_of(r)[0] is None]
        refused = [(i, refusal[1]) for i, r in enumerate(replies) if (refusal := refusals_of(r)[0]) is not None]
        if not refused:
            return None
        await self.give_back(passed)
        return refused[0]

    async def give_back(self, buckets: Sequence[Bucket]) -> None:
        """Give back one call taken from every bucket (the call it was taken for did not count)."""
        if not buckets:
            return
        if not self.cluster:
            await self._run([(None, buckets, {})], -1)
            return
        await asyncio.gather(*(self._run([(None, [b], {})], -1) for b in buckets))

    async def _run(self, calls: Sequence[Call], take: int = 1) -> Any:
        keys, args = gate_call(calls, take)
        return await self._gate(keys=keys, args=args)

    async def hold(self, key: str, member: str, limit: int, ttl_ms: int, lease_ms: int = 0) -> int:
        """Count `member` in the quota at `key`: 0 when held now, else how many are held (it is full)."""
        return int(await self._quota(keys=[key], args=[member, limit, ttl_ms, lease_ms]))

    async def held(self, key: str) -> list[str]:
        return [m.decode() for m in await self.redis.zrange(key, 0, -1)]

    async def release(self, key: str, *members: str) -> None:
        if members:
            await self.redis.zrem(key, *members)

    async def renew(self, members_by_key: Mapping[str, Sequence[str]], lease_ms: int, ttl_ms: int) -> None:
        """Push the leases of these members (only those still held) `lease_ms` into the future,
        in one pipeline (two commands per key)."""
        if not members_by_key:
            return
        now_ms = int(await self._now_ms())
        async with self.redis.pipeline(transaction=False) as pipe:
            for key, members in members_by_key.items():
                pipe.zadd(key, dict.fromkeys(members, now_ms + lease_ms), xx=True)
                pipe.pexpire(key, ttl_ms)
            await pipe.execute()

    async def _now_ms(self) -> float:
        seconds, micros = await self.redis.time()
        return float(seconds) * 1000 + float(micros) / 1000
