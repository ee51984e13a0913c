"""Bounds: every key a game writes expires or has a documented reason not to, all of them in the
game's one cluster slot; leases and timer claims lapse; streams are trimmed."""

from __future__ import annotations

from typing import Any

import pytest

from flotilla.records import InboxReply
from flotilla.store import keys
from flotilla.store.commit_script import CommitCode
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, KIND, fill, game_keys_in_redis, new_game, outcome, slots, step
from support import until

pytestmark = pytest.mark.redis

LISTINGS_WITHOUT_TTL = {keys.GAMES, keys.games_of_kind(KIND)}
"""Shared by every game, so they cannot expire: the janitor drops the ids of expired games (the
reason documented in store/keys.py's table, checked below)."""


async def test_every_key_of_a_game_expires_or_is_documented_as_kept(store: RedisStore, probe: Any, uid: str) -> None:
    await new_game(store, uid)
    await store.join(uid, "u0", "ann", 0)
    unstarted = await game_keys_in_redis(probe, uid)
    assert set(unstarted) == {keys.game(uid), keys.game_events(uid), keys.game_seats(uid)}
    assert all(ttl > 0 for ttl in unstarted.values()), unstarted  # an unstarted game expires whole

    await store.join(uid, "u1", "bob", 1)  # started: kept until it ends (store/keys.py)
    await store.commit_many([step(store, uid, at=FIRST, request_id="r1")])
    await store.finish_work(rejections=[(uid, 1, "r0", b"refused")], replies=[], acks=[])
    playing = await game_keys_in_redis(probe, uid)
    outcomes = {keys.game_reply(uid, 0, "r1"), keys.game_reply(uid, 1, "r0")}
    assert {k for k, ttl in playing.items() if ttl < 0} == set(keys.game_keys(uid))
    assert all(playing[k] > 0 for k in outcomes)  # outcome records always expire

    (done,) = await store.commit_many([step(store, uid, at=FIRST + 1, request_id="r2", status="finished", retain_s=60)])
    assert done.status == "finished"
    finished = await game_keys_in_redis(probe, uid)
    assert len(finished) == 4 + 3  # hash, seats, events, actions and three outcomes
    assert all(0 < ttl <= store.lifetimes.outcome_s * 1000 for ttl in finished.values()), finished

    for listing in LISTINGS_WITHOUT_TTL:
        assert await probe.zscore(listing, uid) is not None
        assert await probe.pttl(listing) == -1
    (row,) = [line for line in (keys.__doc__ or "").splitlines() if line.startswith("| flotilla:games |")]
    assert "dropped by the janitor" in row


async def test_every_key_of_a_game_is_in_its_one_slot(store: RedisStore, probe: Any, uid: str) -> None:
    await new_game(store, uid)
    await fill(store, uid)
    await store.commit_many([step(store, uid, at=FIRST, request_id="r1")])
    await store.finish_work(rejections=[(uid, 1, "r0", b"refused")], replies=[], acks=[])
    await store.update_clock(uid, FIRST + 1, b'{"0": {}}')
    written = await game_keys_in_redis(probe, uid)
    assert len(written) == 6
    assert all(f"{{{uid}}}" in key for key in written)  # tagged by the game id
    assert slots([*written, *keys.game_keys(uid), keys.revoked_seat(uid, 0), keys.game_replicated(uid)]) == slots(
        [keys.game(uid)]
    )


async def test_a_lease_is_held_by_one_owner_until_it_lapses(store: RedisStore, uid: str) -> None:
    lease = f"{keys.JANITOR_LEASE}:test:{{{uid}}}"
    assert await store.take_lease(lease, "a", 150) is True
    assert await store.take_lease(lease, "b", 150) is False
    await until(lambda: store.take_lease(lease, "b", 60_000), 10, "the lease to lapse", every_s=0.05)
    assert await store.take_lease(lease, "a", 150) is False


async def test_a_claimed_timer_is_leased_and_due_again_once_the_lease_lapses(store: RedisStore, uid: str) -> None:
    """The timer table runs on the caller's clock (`now_ms`): no real time passes here. Times are
    far in the past so that no real game's timer is due with them."""
    game, woken = f"t-{uid}", f"w-{uid}"
    now = 1_000
    await store.wake({game: now - 10, woken: now - 5})
    await store.wake({game: now + 99})  # never later than a wake-up already set
    assert {game, woken} <= set(await store.claim_timers(now, 500, 10_000))
    assert game not in await store.claim_timers(now + 499, 500, 10_000)  # leased
    await store.settle_timer(woken, now + 500, None)  # handled: gone
    await store.wake({game: now + 100})  # woken meanwhile ...
    await store.settle_timer(game, now + 500, now + 10_000)  # ... so the settle leaves it alone
    due = await store.claim_timers(now + 100, 500, 10_000)
    assert game in due
    assert woken not in due
    assert game in await store.claim_timers(now + 100 + 500, 500, 10_000)  # its lease lapsed: due again
    assert woken not in await store.claim_timers(now + 10**6, 500, 10_000)  # settled for good


async def test_an_inbox_is_bounded_by_its_reader_and_work_by_acknowledgement(
    store: RedisStore, probe: Any, uid: str
) -> None:
    inbox, stream = keys.inbox(f"gw-{uid}"), keys.work(f"kind{uid}", "1", 0)
    await store.keep_inbox(inbox, 60_000)
    replies = [(inbox, InboxReply(uid, 0, f"r{i}", outcome(2))) for i in range(50)]
    await store.finish_work(rejections=[], replies=replies, acks=[])
    after = "0-0"
    for _round in range(5):
        read = await store.read_inbox(inbox, after, 10, trim=True)
        after = read[-1][0].decode() if read else after
    assert await probe.xlen(inbox) == 1  # what was read is trimmed as the reader goes on
    await store.ensure_group(stream)
    for _i in range(5):
        await store.enqueue(stream, {"n": 1})
    taken = await store.read_work([stream], "w1", 10, 2000)
    await store.finish_work(rejections=[], replies=[], acks=[(stream, entry) for _s, entry, _f in taken])
    assert await probe.xlen(stream) == 0


async def test_a_finished_game_commit_without_retention_is_kept(store: RedisStore, probe: Any, uid: str) -> None:
    await new_game(store, uid)
    await fill(store, uid)
    (done,) = await store.commit_many([step(store, uid, at=FIRST, request_id="r1", status="finished")])
    assert done.code == CommitCode.COMMITTED
    assert await probe.pttl(keys.game(uid)) == -1  # retain_s 0: FLOTILLA_FINISHED_TTL=0 keeps games
