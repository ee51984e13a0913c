"""Work items and inbox replies: queued, claimed, acknowledged, re-claimed after a consumer dies;
outcomes sent to a gateway's inbox and read back (`enqueue`, `read_work`, `read_own_pending`,
`reclaim_work`, `claim_from_dead`, `finish_work`, `keep_inbox`, `read_inbox`, `drop_inbox`).

On a cluster a store's `read_work` serves one consumer on the streams of its first call (a reader
per stream, started then): each consumer here has a store of its own, as each worker has.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from flotilla.errors import WorkGroupLost
from flotilla.records import InboxReply, WorkItem
from flotilla.store import keys
from flotilla.store.commit_script import CommitCode
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, fill, new_game, outcome, step
from support import until

pytestmark = pytest.mark.redis

Read = Callable[[str, str, int, int], Awaitable[list[tuple[str, bytes, dict[bytes, bytes]]]]]


@pytest.fixture
def read_as(backend_url: str) -> Read:
    """`read_work` of one consumer on one stream, by a store of its own, closed after the read (on a
    cluster its readers would go on reading for that consumer)."""

    async def read(
        stream: str, consumer: str, count: int, block_ms: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        worker = RedisStore.from_url(backend_url)
        try:
            return await worker.read_work([stream], consumer, count, block_ms)
        finally:
            await worker.close()

    return read


def work_stream(uid: str) -> str:
    return keys.work(f"kind{uid}", "1", 0)


async def consumers(probe: Any, stream: str) -> dict[str, int]:
    """The workers' group's consumers on `stream`, and how many entries each holds."""
    rows = await probe.xinfo_consumers(stream, keys.WORKER_GROUP)
    return {row["name"].decode(): int(row["pending"]) for row in rows}


def item(uid: str, n: int) -> WorkItem:
    return WorkItem(uid, 0, f"r{n}", b'{"n": 1}', etag=f"e{n}", inbox=keys.inbox(f"gw{uid}"))


async def test_work_is_queued_claimed_once_and_gone_once_acknowledged(
    store: RedisStore, read_as: Read, probe: Any, uid: str
) -> None:
    stream = work_stream(uid)
    await store.ensure_group(stream)
    await store.ensure_group(stream)  # again: no error
    for n in range(3):
        assert await store.enqueue(stream, item(uid, n).fields()) is None
    claimed = await read_as(stream, "w1", 10, 2000)
    assert [WorkItem(**WorkItem.decode_fields(f)) for _s, _id, f in claimed] == [item(uid, n) for n in range(3)]
    assert {s for s, _id, _f in claimed} == {stream}
    assert await read_as(stream, "w2", 10, 50) == []  # claimed by w1 only
    await store.finish_work(rejections=[], replies=[], acks=[(stream, claimed[0][1])])
    assert (await consumers(probe, stream))["w1"] == 2
    assert await probe.xlen(stream) == 2  # an acknowledged entry is deleted


async def test_a_consumer_gets_back_what_it_was_given_and_never_acknowledged(
    store: RedisStore, probe: Any, uid: str
) -> None:
    stream = work_stream(uid)
    await store.ensure_group(stream)
    await store.enqueue(stream, item(uid, 1).fields())
    given = await store.read_work([stream], "w1", 10, 2000)
    assert len(given) == 1
    again = await store.read_own_pending([stream], "w1", 10)  # the reply was lost with its connection
    assert [(s, i) for s, i, _f in again] == [(s, i) for s, i, _f in given]
    await store.finish_work(rejections=[], replies=[], acks=[(stream, given[0][1])])
    assert await store.read_own_pending([stream], "w1", 10) == []


async def test_work_held_by_a_dead_consumer_is_claimed_and_by_a_live_one_is_not(
    store: RedisStore, read_as: Read, probe: Any, uid: str
) -> None:
    # A stream per consumer: on a cluster a closed store's reader may still take the next entry of
    # its stream for a moment (Redis serves a write before it sees the reader's connection close).
    alive, dead, idle_dead, sweeper = (f"{who}-{uid}" for who in ("alive", "dead", "idle-dead", "sweeper"))
    streams = {consumer: work_stream(f"{uid}-{consumer}") for consumer in (alive, dead, idle_dead)}
    for live in (alive, sweeper):
        await probe.set(keys.worker(live), 1, px=60_000)  # what store/liveness.py keeps while a worker lives
    for consumer, stream in streams.items():
        await store.ensure_group(stream)
        holds = consumer != idle_dead
        if holds:
            await store.enqueue(stream, {"n": consumer})
        assert len(await read_as(stream, consumer, 1, 2000 if holds else 10)) == int(holds)
    claimed = await store.claim_from_dead(list(streams.values()), sweeper, quiet_ms=0, count=100)
    assert [f[b"n"].decode() for _s, _id, f in claimed] == [dead]
    held = {consumer: await consumers(probe, stream) for consumer, stream in streams.items()}
    assert held == {alive: {alive: 1}, dead: {sweeper: 1}, idle_dead: {}}  # both dead consumers removed
    assert await store.claim_from_dead(list(streams.values()), "other-" + sweeper, quiet_ms=60_000, count=100) == []
    await probe.delete(keys.worker(alive), keys.worker(sweeper))


async def test_the_backstop_reclaims_work_idle_too_long_even_from_a_live_consumer(
    store: RedisStore, read_as: Read, probe: Any, uid: str
) -> None:
    stream = work_stream(uid)
    await store.ensure_group(stream)
    await store.enqueue(stream, item(uid, 1).fields())
    assert len(await read_as(stream, "stuck", 10, 2000)) == 1
    assert await store.reclaim_work([stream], "helper", 60_000, 10) == []  # not idle long enough
    taken = await store.reclaim_work([stream], "helper", 0, 10)
    assert [WorkItem(**WorkItem.decode_fields(f)) for _s, _id, f in taken] == [item(uid, 1)]
    assert await consumers(probe, stream) == {"stuck": 0, "helper": 1}


async def test_reads_of_a_group_redis_lost_raise_the_stores_own_error(store: RedisStore, uid: str) -> None:
    stream = work_stream(uid)  # no group: as after a Redis restart without its data
    with pytest.raises(WorkGroupLost):
        await store.read_own_pending([stream], "w1", 10)
    with pytest.raises(WorkGroupLost):
        await store.reclaim_work([stream], "w1", 0, 10)


async def test_an_inbox_is_kept_alive_answered_read_trimmed_and_dropped(
    store: RedisStore, probe: Any, uid: str
) -> None:
    inbox = keys.inbox(f"gw-{uid}")
    assert await store.keep_inbox(inbox, 60_000) is True  # made now
    assert await store.keep_inbox(inbox, 60_000) is False
    assert 0 < await probe.pttl(inbox) <= 60_000
    assert await store.read_inbox(inbox, "0-0", 10) == []
    replies = [InboxReply(uid, seat, f"r{seat}", outcome(seat + 2)) for seat in range(3)]
    await store.finish_work(rejections=[], replies=[(inbox, r) for r in replies], acks=[])
    read = await store.read_inbox(inbox, "0-0", 10)
    assert [InboxReply.decode(fields) for _id, fields in read] == replies
    last = read[-1][0].decode()
    assert await store.read_inbox(inbox, last, 10, trim=True) == []
    assert await probe.xlen(inbox) == 1  # the entries before `after` are gone
    await store.drop_inbox(inbox)
    await store.finish_work(rejections=[], replies=[(inbox, replies[0])], acks=[])
    assert not await probe.exists(inbox)  # a dropped (or expired) inbox is never made again by a reply


async def test_a_move_settled_by_the_worker_acknowledges_its_work_and_answers_once(
    store: RedisStore, probe: Any, uid: str
) -> None:
    """The worker's path, either way: where the store `settles_work` the commit acknowledges the
    entry and answers the inbox in its own script; elsewhere `finish_work` does, after it."""
    stream, inbox = work_stream(uid), keys.inbox(f"gw-{uid}")
    await new_game(store, uid)
    await fill(store, uid)
    await store.keep_inbox(inbox, 60_000)
    await store.ensure_group(stream)
    await store.enqueue(stream, item(uid, 1).fields())
    ((_s, entry_id, _f),) = await store.read_work([stream], "w1", 1, 2000)
    commit = step(store, uid, at=FIRST, request_id="r1", ack=(stream, entry_id), answer_to=inbox)
    (done,) = await store.commit_many([commit])
    assert done.code == CommitCode.COMMITTED
    if not store.settles_work:
        reply = InboxReply(uid, 0, "r1", outcome(FIRST + 1))
        await store.finish_work(rejections=[], replies=[(inbox, reply)], acks=[(stream, entry_id)])
    answers = [InboxReply.decode(fields) for _id, fields in await store.read_inbox(inbox, "0-0", 10)]
    assert answers == [InboxReply(uid, 0, "r1", outcome(FIRST + 1))]
    assert await probe.xlen(stream) == 0
    assert await consumers(probe, stream) == {"w1": 0}


async def test_a_closed_store_reads_no_more_work(backend_url: str, store: RedisStore, probe: Any, uid: str) -> None:
    """`close` ends the store's reads: on a cluster, the blocked reader it runs per stream."""
    stream = work_stream(uid)
    await store.ensure_group(stream)
    await store.enqueue(stream, item(uid, 0).fields())
    worker = RedisStore.from_url(backend_url)
    ((_s, entry_id, _f),) = await worker.read_work([stream], "w1", 10, 2000)
    await worker.finish_work(rejections=[], replies=[], acks=[(stream, entry_id)])
    await worker.close()

    async def nobody_reads() -> bool:
        node = probe.get_node_from_key(stream) if store.cluster else None
        listed = await (probe.client_list(target_nodes=node) if node else probe.client_list())
        return not any(client["cmd"] == "xreadgroup" for client in listed)

    await until(nobody_reads, 10, "the closed store's blocked read to end")
    await store.enqueue(stream, item(uid, 1).fields())
    assert (await probe.xpending(stream, keys.WORKER_GROUP))["pending"] == 0
