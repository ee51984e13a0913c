"""Commits: compare-and-set on version and lineage, exactly once per request id, and the event
stream they append, gapless and readable from any point (`commit_many`, `entries_after`,
`entry_fields_from`, `wait_entries`, `outcomes`, `actions_log`)."""

from __future__ import annotations

import asyncio

import pytest

from flotilla.records import Entry
from flotilla.store.commit_script import CommitCode
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, fill, new_game, outcome, step

pytestmark = pytest.mark.redis


async def started_game(store: RedisStore, game_id: str) -> None:
    await new_game(store, game_id)
    await fill(store, game_id)


async def history(store: RedisStore, game_id: str) -> tuple[int, int, int]:
    """(version, stream entries, action records) as stored now."""
    meta = await store.game_meta(game_id)
    assert meta is not None
    return meta.version, len(await store.entries_after(game_id, 0)), len(await store.actions_log(game_id))


async def test_a_commit_applies_at_the_expected_version_and_a_stale_one_writes_nothing(
    store: RedisStore, uid: str
) -> None:
    await started_game(store, uid)
    (done,) = await store.commit_many([step(store, uid, at=FIRST, add=2, request_id="r1")])
    assert (done.code, done.status, done.durable) == (CommitCode.COMMITTED, "active", True)
    assert await history(store, uid) == (3, 2, 1)
    loaded = await store.load(uid)
    assert loaded is not None
    assert loaded[1] == b"state-3"

    (stale,) = await store.commit_many([step(store, uid, at=FIRST, add=1, request_id="r2")])
    assert (stale.code, stale.current_version) == (CommitCode.MOVED, 3)
    assert await history(store, uid) == (3, 2, 1)  # nothing written
    assert await store.outcomes(uid, 0, ["r2"]) == [None]  # no outcome recorded for the refused commit


async def test_a_commit_on_another_lineage_is_refused(store: RedisStore, uid: str) -> None:
    await started_game(store, uid)
    await store.commit_many([step(store, uid, at=FIRST, add=1, request_id="r1")])
    (refused,) = await store.commit_many([step(store, uid, at=FIRST + 1, request_id="r2", on_lineage="another")])
    assert (refused.code, refused.current_version) == (CommitCode.MOVED, 2)
    assert await history(store, uid) == (2, 2, 1)


async def test_a_commit_on_a_missing_game_is_refused_with_no_version(store: RedisStore, uid: str) -> None:
    await store.game_meta(uid)  # see test_a_fresh_stores_first_call_may_be_a_commit
    (refused,) = await store.commit_many([step(store, uid, at=FIRST, request_id="r1")])
    assert (refused.code, refused.current_version) == (CommitCode.MOVED, 0)
    assert await store.game_meta(uid) is None


async def test_a_fresh_stores_first_call_may_be_a_commit(store: RedisStore, uid: str) -> None:
    # On a cluster, commit_many finds each game's primary in the client's slot map, empty before
    # its first call (it raised StoreUnreachable, "slot not covered", until it loaded the map).
    (refused,) = await store.commit_many([step(store, uid, at=FIRST, request_id="r1")])
    assert refused.code == CommitCode.MOVED


async def test_a_retried_request_gets_its_first_outcome_and_is_applied_once(store: RedisStore, uid: str) -> None:
    await started_game(store, uid)
    first = step(store, uid, at=FIRST, request_id="r1")
    assert (await store.commit_many([first]))[0].code == CommitCode.COMMITTED
    (again,) = await store.commit_many([first])  # the same request, retried (its expected version is stale now)
    assert (again.code, again.outcome) == (CommitCode.ALREADY_APPLIED, outcome(FIRST + 1))
    (later,) = await store.commit_many([step(store, uid, at=FIRST + 1, request_id="r1")])  # even at the head
    assert (later.code, later.outcome) == (CommitCode.ALREADY_APPLIED, outcome(FIRST + 1))
    assert await history(store, uid) == (FIRST + 1, 2, 1)
    assert await store.outcomes(uid, 0, ["r1", "r9"]) == [outcome(FIRST + 1), None]
    assert await store.outcomes(uid, 1, ["r1"]) == [None]  # request ids are per seat


async def test_a_rejection_is_recorded_once_and_the_first_wins(store: RedisStore, uid: str) -> None:
    await started_game(store, uid)
    await store.finish_work(rejections=[(uid, 1, "r1", b"first")], replies=[], acks=[])
    await store.finish_work(rejections=[(uid, 1, "r1", b"second")], replies=[], acks=[])
    assert await store.outcomes(uid, 1, ["r1"]) == [b"first"]
    (retried,) = await store.commit_many([step(store, uid, at=FIRST, seat=1, request_id="r1")])
    assert (retried.code, retried.outcome) == (CommitCode.ALREADY_APPLIED, b"first")


async def test_commits_of_many_games_in_one_call_each_apply_on_their_own(store: RedisStore, uid: str) -> None:
    ids = [f"{uid}-{i}" for i in range(6)]  # on a cluster: several primaries, one pipeline each
    for game_id in ids:
        await started_game(store, game_id)
    done = await store.commit_many(
        [step(store, g, at=FIRST if i % 3 else FIRST + 5, request_id="r1") for i, g in enumerate(ids)]
    )
    assert [c.code for c in done] == [CommitCode.MOVED if i % 3 == 0 else CommitCode.COMMITTED for i in range(6)]
    assert await store.commit_many([]) == []


async def test_events_are_gapless_and_read_back_in_order_from_any_point(store: RedisStore, uid: str) -> None:
    await started_game(store, uid)
    version = FIRST
    for i, add in enumerate([1, 3, 2, 1, 4]):
        (done,) = await store.commit_many([step(store, uid, at=version, add=add, request_id=f"r{i}", seat=i % 2)])
        assert done.code == CommitCode.COMMITTED
        version += add
    entries = await store.entries_after(uid, 0)
    assert [e.events[0].event_id for e in entries] == [FIRST, 2, 3, 6, 8, 9]
    assert [row.event_id for e in entries for row in e.events] == list(range(FIRST, version + 1))
    assert [(e.seat, e.request_id) for e in entries[1:]] == [(i % 2, f"r{i}") for i in range(5)]
    assert all(e.previous == entries[i].lineage for i, e in enumerate(entries[1:]))  # a chain of lineages
    for after in range(version + 1):  # from any point, even inside a commit: every later event, once
        later = [
            row.event_id for e in await store.entries_after(uid, after) for row in e.events if row.event_id > after
        ]
        assert later == list(range(after + 1, version + 1)), after
    page = [Entry.decode(f) for f in await store.entry_fields_from(uid, 3, 2)]
    assert [e.version for e in page] == [5, 7]  # from the commit that ends at 3... (none): the next ones
    page = [Entry.decode(f) for f in await store.entry_fields_from(uid, 5, 2)]
    assert [e.version for e in page] == [5, 7]  # from the commit ending at 5, included
    assert [r.version for r in await store.actions_log(uid)] == [2, 5, 7, 8, 12]


async def test_a_waiting_reader_gets_the_next_commit(store: RedisStore, uid: str) -> None:
    await started_game(store, uid)
    assert await store.wait_entries(uid, FIRST, 10) == []  # a quiet wait ends empty
    waiting = asyncio.create_task(store.wait_entries(uid, FIRST, 10_000))
    await asyncio.sleep(0)
    await store.commit_many([step(store, uid, at=FIRST, add=2, request_id="r1")])
    assert [e.version for e in await asyncio.wait_for(waiting, 10)] == [FIRST + 2]
