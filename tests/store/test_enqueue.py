"""The gateways' enqueue (`WorkQueue.enqueue`): plain and gated entries of one batch, a Redis
that lost its scripts, a connection Redis closed, and (on a single Redis, where one held
connection sends them) entries that come while a round trip is in flight going together in the next."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import redis.asyncio as aioredis

from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.limits_store import Bucket
from flotilla.store.redis_store import RedisStore

pytestmark = pytest.mark.redis

SLOW_MS = 60_000.0  # one call a minute: nothing refills during a test


@dataclass(frozen=True)
class Single:
    """A store and a raw client on the session's single Redis, and a name for this test's keys."""

    store: RedisStore
    probe: Any
    name: str

    @property
    def stream(self) -> str:
        return keys.work(f"kind{self.name}", "1", 0)


@pytest.fixture
async def single(redis_server: RedisServer) -> AsyncIterator[Single]:
    """Where one held connection sends the enqueues (a cluster's go through redis-py's pipeline)."""
    opened = Single(RedisStore.from_url(redis_server.url), aioredis.from_url(redis_server.url), uuid.uuid4().hex[:12])
    yield opened
    async for key in opened.probe.scan_iter(match=f"*{opened.name}*", count=1000):
        await opened.probe.delete(key)
    await opened.probe.aclose()
    await opened.store.close()


def gate(uid: str, burst: int) -> list[Bucket]:
    return [Bucket(keys.limit_bucket("submit", f"a{uid}"), SLOW_MS, burst), Bucket(keys.limit_bucket("ip", uid), 1, 99)]


async def test_plain_and_gated_entries_of_one_batch_are_queued_and_refused_each_as_theirs(
    store: RedisStore, probe: Any, uid: str
) -> None:
    stream = keys.work(f"kind{uid}", "1", 0)
    spent = gate(f"{uid}-spent", 1)
    assert await store.limits.take(spent) is None  # its first bucket's one call
    results = await asyncio.gather(
        store.enqueue(stream, {"n": 1, "b": b"\x00\xff"}),
        store.enqueue(stream, {"n": 2}, gate(uid, 5)),
        store.enqueue(stream, {"n": 3.5}, gate(uid, 5)),
        store.enqueue(stream, {"n": "four"}, spent),
    )
    assert results[:3] == [None, None, None]
    assert results[3] is not None
    assert results[3][0] == 0  # the first bucket refused
    assert results[3][1] > 0
    entries = sorted((fields for _id, fields in await probe.xrange(stream)), key=lambda fields: fields[b"n"])
    assert entries == [{b"n": b"1", b"b": b"\x00\xff"}, {b"n": b"2"}, {b"n": b"3.5"}]  # on a cluster in any order


async def test_a_gated_entry_is_queued_once_by_a_redis_that_lost_its_scripts(
    store: RedisStore, probe: Any, uid: str
) -> None:
    stream = keys.work(f"kind{uid}", "1", 0)
    assert await store.enqueue(stream, {"n": 1}, gate(uid, 5)) is None  # the script is loaded
    await probe.script_flush()  # as a restarted Redis (on a cluster: every node)
    assert await store.enqueue(stream, {"n": 2}, gate(uid, 5)) is None
    assert [fields for _id, fields in await probe.xrange(stream)] == [{b"n": b"1"}, {b"n": b"2"}]


async def test_an_enqueue_after_redis_closed_the_connection_connects_again(single: Single) -> None:
    store, probe, name = single.store, single.probe, single.name
    assert await store.enqueue(single.stream, {"n": 1}) is None
    await probe.client_kill_filter(_type="normal", skipme=True)  # every client but the probe
    assert await store.enqueue(single.stream, {"n": 2}, gate(name, 5)) is None
    assert await probe.xlen(single.stream) == 2


async def test_entries_that_come_during_a_round_trip_go_together_in_the_next(single: Single) -> None:
    store, probe, name = single.store, single.probe, single.name
    await store.enqueue(single.stream, {"n": 0}, gate(name, 50))  # connected, the script loaded
    calls_before = (await probe.info("commandstats"))["cmdstat_evalsha"]["calls"]
    await probe.execute_command("CLIENT", "PAUSE", 300, "ALL")  # the first round trip waits
    first = asyncio.ensure_future(store.enqueue(single.stream, {"n": 1}, gate(name, 50)))
    await asyncio.sleep(0.05)  # sent, unanswered
    later = []
    for n in range(2, 6):  # four event-loop turns, each its own batch before
        later.append(asyncio.ensure_future(store.enqueue(single.stream, {"n": n}, gate(name, 50))))
        await asyncio.sleep(0.01)
    assert await asyncio.gather(first, *later) == [None] * 5
    assert (await probe.info("commandstats"))["cmdstat_evalsha"]["calls"] - calls_before == 2
    entries = [fields[b"n"] for _id, fields in await probe.xrange(single.stream)]
    assert entries == [b"0", b"1", b"2", b"3", b"4", b"5"]


async def test_a_gated_batch_reads_all_its_buckets_in_one_call(single: Single) -> None:
    store, probe = single.store, single.probe
    users = [gate(f"{single.name}-{n}", 5) for n in range(3)]  # three users' buckets and one address's
    await store.enqueue(single.stream, {"n": 0}, users[0])  # the script loaded
    before = await probe.info("commandstats")
    assert await asyncio.gather(*(store.enqueue(single.stream, {"n": n}, users[n]) for n in range(3))) == [None] * 3
    after = await probe.info("commandstats")
    calls = {
        name: after.get(f"cmdstat_{name}", {}).get("calls", 0) - before.get(f"cmdstat_{name}", {}).get("calls", 0)
        for name in ("evalsha", "mget", "get", "xadd")
    }
    assert calls == {"evalsha": 1, "mget": 1, "get": 0, "xadd": 3}


async def test_a_call_of_more_buckets_than_one_read_takes_is_counted_in_every_bucket(
    store: RedisStore, probe: Any, uid: str
) -> None:
    many = [Bucket(keys.limit_bucket("submit", f"{uid}-{n}"), SLOW_MS, 1) for n in range(2500)]
    if store.cluster:
        many = many[:20]  # a script a bucket there
    assert await store.limits.take(many) is None
    refused = await store.limits.take(many[-1:])
    assert refused is not None
    assert refused[0] == 0
    assert await store.limits.take([Bucket(keys.limit_bucket("submit", f"{uid}-x"), SLOW_MS, 1)]) is None
