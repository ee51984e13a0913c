"""The matchmaking and rating scripts on a real Redis: atomic claims, one-time completion, exactly-once ratings."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import orjson
import pytest

from flotilla.errors import QueuesFull
from flotilla.lobby.ratings import Rating
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore

pytestmark = [pytest.mark.redis]


@pytest.fixture
async def lobby(redis_url: str) -> AsyncIterator[LobbyStore]:
    store = RedisStore.from_url(redis_url)
    yield LobbyStore(store.redis)
    for queue in await store.redis.smembers(keys.MM_QUEUES):  # keep these test queues away from matchmakers
        if queue.startswith(b"scripts."):
            await store.redis.srem(keys.MM_QUEUES, queue)
    await store.close()


async def _tickets(lobby: LobbyStore, queue: str, n: int) -> list[str]:
    ids = [uuid.uuid4().hex for _ in range(n)]
    for i, ticket_id in enumerate(ids):
        data = {
            "kind": "counter",
            "options": {},
            "seat_counts": [2],
            "party": [{"user": f"u{ticket_id}", "name": "x"}],
            "rating": 25.0,
            "owner": "",
            "enqueued_ms": 1000 + i,
        }
        assert await lobby.create_ticket(queue, ticket_id, data, 1000 + i, 60)
    return ids


class TestClaim:
    async def test_a_claim_takes_all_its_tickets_or_none(self, lobby: LobbyStore) -> None:
        queue = f"scripts.{uuid.uuid4().hex[:12]}"
        a, b, c = await _tickets(lobby, queue, 3)
        assert await lobby.claim(queue, "m1", {"x": 1}, [a, b], 5000)
        assert not await lobby.claim(queue, "m2", {"x": 2}, [b, c], 5000)  # b is taken: c stays waiting
        assert [t.ticket_id for t in await lobby.waiting(queue, 10)] == [c]
        ticket_b = await lobby.ticket(queue, b)
        assert ticket_b is not None
        assert ticket_b.state == "claimed"
        assert await lobby.stale_matches(queue, 6000) == [("m1", {"x": 1})]

    async def test_a_match_completes_once_and_cancel_only_ends_waiting_tickets(self, lobby: LobbyStore) -> None:
        queue = f"scripts.{uuid.uuid4().hex[:12]}"
        a, b, c = await _tickets(lobby, queue, 3)
        assert await lobby.claim(queue, "m1", {}, [a, b], 5000)
        seats = {a: {f"u{a}": 1}, b: {f"u{b}": 0}}
        assert await lobby.match_done(queue, "m1", "g1", seats)
        assert not await lobby.match_done(queue, "m1", "g2", seats)
        ticket_a = await lobby.ticket(queue, a)
        assert ticket_a is not None
        assert (ticket_a.state, ticket_a.game, ticket_a.seats) == ("matched", "g1", {f"u{a}": 1})
        assert not await lobby.end_ticket(queue, a, "cancelled")  # matched: stays matched
        assert await lobby.end_ticket(queue, c, "expired")
        assert not await lobby.end_ticket(queue, c, "cancelled")
        ticket_c = await lobby.ticket(queue, c)
        assert ticket_c is not None
        assert ticket_c.state == "expired"

    async def test_a_queue_is_pruned_only_when_empty_and_the_set_is_bounded(self, lobby: LobbyStore) -> None:
        queue = f"scripts.{uuid.uuid4().hex[:12]}"
        (a,) = await _tickets(lobby, queue, 1)
        assert not await lobby.prune_queue(queue)  # a waiting ticket: kept
        assert queue.encode() in await lobby.redis.smembers(keys.MM_QUEUES)
        assert await lobby.claim(queue, "m1", {}, [a], 5000)
        assert not await lobby.prune_queue(queue)  # a match in progress: kept
        assert await lobby.match_done(queue, "m1", "g1", {a: {f"u{a}": 0}})
        assert await lobby.prune_queue(queue)
        assert queue.encode() not in await lobby.redis.smembers(keys.MM_QUEUES)
        # A bound at the set's size refuses a new queue, storing nothing; a queue in the set is admitted.
        assert await lobby.create_ticket(queue, "t", {}, 1, 60, ["u"])
        size = int(await lobby.redis.scard(keys.MM_QUEUES))
        other = f"scripts.{uuid.uuid4().hex[:12]}"
        with pytest.raises(QueuesFull):
            await lobby.create_ticket(other, "t", {}, 1, 60, ["u"], max_queues=size)
        assert not await lobby.redis.exists(
            keys.mm_waiting(other), keys.mm_ticket(other, "t"), keys.mm_user(other, "u")
        )
        assert await lobby.create_ticket(queue, "t2", {}, 1, 60, ["v"], max_queues=1)  # in the set already

    async def test_the_same_ticket_id_is_queued_once(self, lobby: LobbyStore) -> None:
        queue = f"scripts.{uuid.uuid4().hex[:12]}"
        (a,) = await _tickets(lobby, queue, 1)
        assert not await lobby.create_ticket(queue, a, {"other": True}, 1, 60)
        assert await lobby.waiting_count(queue) == 1


class TestRateScript:
    async def test_a_game_is_rated_once_and_a_moved_rating_is_refused(self, lobby: LobbyStore) -> None:
        kind = f"k{uuid.uuid4().hex[:8]}"
        users = ["ada", "bob"]
        new = [Rating(27.0, 8.0, 1).dumps(), Rating(23.0, 8.0, 1).dumps()]
        history = [orjson.dumps({"game": "g1"})] * 2
        assert await lobby.store_ratings(kind, "g1", users, [None, None], new, [3.0, -1.0], history) == 1
        assert await lobby.store_ratings(kind, "g1", users, [None, None], new, [3.0, -1.0], history) == 0
        # Another game computed from stale ratings (read before g1 was stored) is refused, not lost.
        assert await lobby.store_ratings(kind, "g2", users, [None, None], new, [3.0, -1.0], history) == -1
        assert await lobby.history(kind, "ada", 0, 10) == [{"game": "g1"}]
        assert await lobby.leaderboard(kind, 0, 10) == [("ada", 3.0), ("bob", -1.0)]
        assert await lobby.is_rated(kind, "g1")
        assert not await lobby.is_rated(kind, "g2")
        assert await lobby.redis.exists(keys.rated(kind, "g1"))
