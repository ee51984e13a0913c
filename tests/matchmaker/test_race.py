"""Three matchmaker processes on thousands of tickets, one killed midway: every ticket lands in exactly one game."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from flotilla.lobby.tickets import MATCHED, queue_of
from flotilla.matchmaker.forming import as_matcher_ticket
from flotilla.matchmaker.matcher import Policy, Ticket, propose_matches
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from lobby.mm_support import start_matchmaker_env, stop

pytestmark = [pytest.mark.redis, pytest.mark.timeout(240)]

TICKETS = 3000


async def _queue_tickets(lobby: LobbyStore, rng: random.Random) -> dict[str, tuple[str, dict[str, Any]]]:
    """Counter (2 seats, solo) and Sail Away (2-4 seats, parties of 1-2) tickets with spread ratings."""
    tag = str(rng.randint(10_000, 99_999))
    counter_options = {"moves": tag}
    sail_options = {"max_rounds": tag[:3]}
    now_ms = int(time.time() * 1000)
    tickets: dict[str, tuple[str, dict[str, Any]]] = {}
    for i in range(TICKETS):
        if i % 3:
            kind, options, counts, party = "counter", counter_options, [2], 1
        else:
            kind, options = "sail_away", sail_options
            counts = rng.choice(([2], [3], [4], [2, 3], [3, 4], [2, 3, 4]))
            party = 2 if rng.random() < 0.3 and min(counts) >= 2 else 1
        data = {
            "kind": kind,
            "options": options,
            "seat_counts": counts,
            "party": [{"user": uuid.uuid4().hex, "name": f"p{i}.{m}"} for m in range(party)],
            "rating": rng.gauss(25, 8),
            "owner": "",
            "enqueued_ms": now_ms - rng.randint(0, 5000),
        }
        tickets[uuid.uuid4().hex] = (queue_of(kind, options), data)
    gate = asyncio.Semaphore(64)

    async def put(ticket_id: str, queue: str, data: dict[str, Any]) -> None:
        async with gate:
            await lobby.create_ticket(queue, ticket_id, data, data["enqueued_ms"], 3600)

    await asyncio.gather(*(put(t, q, d) for t, (q, d) in tickets.items()))
    return tickets


async def test_no_ticket_lands_in_two_games(redis_url: str, tmp_path: Path) -> None:
    store = RedisStore.from_url(redis_url)
    lobby = LobbyStore(store.redis)
    procs = []
    queues: list[str] = []
    try:
        tickets = await _queue_tickets(lobby, random.Random(11))
        queues = sorted({q for q, _ in tickets.values()})
        env = dict(
            os.environ,
            REDIS_URL=redis_url,
            FLOTILLA_LOG_FORMAT="json",
            FLOTILLA_MM_ROLES="match",
            FLOTILLA_MM_WINDOW="2",
            FLOTILLA_MM_WIDEN="10",
            FLOTILLA_MM_MAX_WINDOW="200",
            FLOTILLA_MM_BOT_FILL_AFTER="off",
            FLOTILLA_MM_LEASE="2",
        )
        procs = [start_matchmaker_env(env, tmp_path, str(i)) for i in range(3)]

        async def waiting() -> int:
            return sum([await lobby.waiting_count(q) for q in queues])

        for _ in range(1200):  # at most 60 s
            if await waiting() <= TICKETS * 2 // 3:
                break
            await asyncio.sleep(0.05)
        procs[0].send_signal(signal.SIGKILL)  # mid-pass: it may hold claimed matches whose games it never made
        procs[0].wait(10)

        async def pending() -> int:
            return sum([int(await store.redis.zcard(keys.mm_pending(q))) for q in queues])

        deadline = time.monotonic() + 120
        last, stable_since = -1, time.monotonic()
        while time.monotonic() < deadline:  # until the queues stop shrinking and no match is pending
            now_waiting = await waiting()
            if now_waiting != last:
                last, stable_since = now_waiting, time.monotonic()
            elif time.monotonic() - stable_since > 3 and not await pending():
                break
            await asyncio.sleep(0.2)
        assert await pending() == 0, "a claimed match was never completed"

        game_of: dict[str, str] = {}
        seats_of_game: dict[str, dict[str, int]] = {}
        leftovers: dict[str, list[Ticket]] = {}
        for ticket_id, (queue, data) in tickets.items():
            stored = await lobby.ticket(queue, ticket_id)
            assert stored is not None
            if stored.state != MATCHED:
                leftovers.setdefault(queue, []).append(as_matcher_ticket(stored))
                continue
            assert stored.seats is not None
            assert set(stored.seats) == {m["user"] for m in data["party"]}, "a party was split"
            game_of[ticket_id] = stored.game
            for user, seat in stored.seats.items():
                assert user not in seats_of_game.setdefault(stored.game, {})
                seats_of_game[stored.game][user] = seat
        assert sum(len(t) for t in leftovers.values()) < TICKETS // 100
        for left in leftovers.values():  # what is left cannot form a table without bots
            assert propose_matches(left, int(time.time() * 1000), Policy(base_window=1000, bots_allowed=False)) == []
        for game_id, by_user in seats_of_game.items():
            meta = await store.game_meta(game_id)
            assert meta is not None
            stored_seats = await store.seats(game_id)
            assert {h["user"]: s for s, h in stored_seats.items()} == by_user, "a seat holder is not its ticket's"
            assert len(by_user) == meta.seat_count == len(set(by_user.values()))
        users = [u for by_user in seats_of_game.values() for u in by_user]
        assert len(users) == len(set(users)), "a player sits in two games"
    finally:
        for proc in procs:
            stop(proc)
        if queues:  # the leftovers must not reach later tests' matchmakers (which would seat bots with them)
            await store.redis.srem(keys.MM_QUEUES, *queues)
        await store.close()
