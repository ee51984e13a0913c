"""One matchmaker's loop over the ticket queues: expire, propose, claim atomically, make the game;
prune the queues left empty (so an idle pass costs one round trip per queue that holds tickets).

Any number of these run side by side. A proposal is only acted on after the claim script
removed every one of its tickets from the queue, so no ticket is ever in two games. A
matchmaker that dies between claiming and finishing a match leaves the match pending; any
matchmaker completes it after `lease_s` (every step is idempotent: the game id comes from
the match id, and a user joining again gets the same seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from collections.abc import Mapping
from typing import Any

import structlog

from flotilla import metrics
from flotilla.app.games import Games
from flotilla.errors import StoreUnreachable
from flotilla.lobby.room_document import bot_user
from flotilla.lobby.tickets import EXPIRED
from flotilla.matchmaker.matcher import Match, Policy, Ticket, expired, propose_matches
from flotilla.records import BotSeat
from flotilla.store.lobby_store import LobbyStore, StoredTicket
from flotilla.store.transient import RETRY_PAUSE_S, log_survived

log = structlog.get_logger("flotilla.matchmaker")


def as_matcher_ticket(ticket: StoredTicket) -> Ticket:
    data = ticket.data
    return Ticket(
        ticket.ticket_id,
        float(data["rating"]),
        len(data["party"]),
        tuple(data["seat_counts"]),
        int(data["enqueued_ms"]),
        frozenset(member["user"] for member in data["party"]),
    )


class Former:
    """Forms games from the ticket queues in Redis."""

    def __init__(
        self,
        store: LobbyStore,
        games: Games,
        policy: Policy,
        *,
        batch: int = 5000,
        lease_s: float = 15.0,
        concurrency: int = 16,
        bot_policy: str = "random",
        bot_difficulty: int | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self.policy = policy
        self.batch = batch
        self.lease_s = lease_s
        self.concurrency = concurrency
        self.bot_policy = bot_policy
        self.bot_difficulty = bot_difficulty  # None: the bot runner's default
        self.matched = 0
        self.lost = 0
        self.gauged: set[str] = set()  # queues with a series in the waiting gauge

    async def pass_once(self) -> int:
        """One pass over every queue; returns the number of tickets seated."""
        seated = 0
        queues = await self.store.queues()
        for queue in queues:
            try:
                seated += await self.pass_queue(queue)
            except StoreUnreachable:  # Redis, not this queue: the pass ends (`run` waits it out)
                raise
            except Exception:  # one broken queue must not stall the others
                log.exception("matchmaker.queue_failed", queue=queue)
        for gone in self.gauged - set(queues):  # pruned (here or by another matchmaker): no stale series
            self.forget(gone)
        return seated

    def forget(self, queue: str) -> None:
        """Drop a pruned queue's series of the waiting gauge."""
        self.gauged.discard(queue)
        with contextlib.suppress(KeyError):
            metrics.TICKETS_WAITING.remove(queue)

    async def pass_queue(self, queue: str) -> int:
        """Match one queue; a queue with no waiting ticket and no pending match is pruned instead."""
        waiting_count, pending = await self.store.queue_load(queue)
        if not waiting_count and not pending and await self.store.prune_queue(queue):
            self.forget(queue)
            return 0
        metrics.TICKETS_WAITING.labels(queue).set(waiting_count)
        self.gauged.add(queue)
        waiting = await self.store.waiting(queue, self.batch)
        now_ms = int(time.time() * 1000)
        by_id = {t.ticket_id: t for t in waiting}
        tickets = [as_matcher_ticket(t) for t in waiting]
        for ticket_id in expired(tickets, now_ms, self.policy):
            if await self.store.end_ticket(queue, ticket_id, EXPIRED):
                log.info("matchmaker.ticket_expired", queue=queue, ticket=ticket_id)
        proposals = propose_matches(tickets, now_ms, self.policy)
        random.shuffle(proposals)  # matchmakers see the same proposals: claim them in different orders
        stale = await self.store.stale_matches(queue, now_ms - int(self.lease_s * 1000))
        gate = asyncio.Semaphore(self.concurrency)

        async def claim_and_make(match: Match) -> int:
            async with gate:
                match_id = uuid.uuid4().hex
                data = self.match_data(match, by_id)
                if not await self.store.claim(queue, match_id, data, match.ticket_ids, int(time.time() * 1000)):
                    self.lost += 1
                    return 0
                return await self.make_game(queue, match_id, data)

        async def finish(match_id: str, data: dict[str, Any]) -> int:
            async with gate:
                log.info("matchmaker.completing_stale_match", queue=queue, match=match_id)
                return await self.make_game(queue, match_id, data)

        done = await asyncio.gather(
            *(claim_and_make(m) for m in proposals), *(finish(m, d) for m, d in stale), return_exceptions=True
        )
        for failure in (d for d in done if isinstance(d, BaseException)):
            if isinstance(failure, StoreUnreachable):
                raise failure
            log.error("matchmaker.match_failed", queue=queue, error=repr(failure))  # retried after the lease
        return sum(d for d in done if isinstance(d, int))

    @staticmethod
    def match_data(match: Match, by_id: Mapping[str, StoredTicket]) -> dict[str, Any]:
        first = by_id[match.ticket_ids[0]].data
        return {
            "kind": first["kind"],
            "options": first["options"],
            "seat_count": match.seat_count,
            "bots": match.bots,
            "tickets": [{"id": t, "party": by_id[t].data["party"]} for t in match.ticket_ids],
        }

    async def make_game(self, queue: str, match_id: str, data: Mapping[str, Any]) -> int:
        """Create the match's (rated) game with everyone seated (in a shuffled order; all or none, and
        nobody else may join it), queue the bots, mark the tickets."""
        order = list(range(data["seat_count"]))
        random.Random(match_id).shuffle(order)
        seats_by_ticket: dict[str, dict[str, int]] = {}
        holders: dict[int, tuple[str, str]] = {}
        for ticket in data["tickets"]:
            seats_by_ticket[ticket["id"]] = {}
            for member in ticket["party"]:
                seat = order[len(holders)]
                holders[seat] = (member["user"], member["name"])
                seats_by_ticket[ticket["id"]][member["user"]] = seat
        bot_seats = order[len(holders) :]
        for seat in bot_seats:
            holders[seat] = (bot_user(match_id, seat), f"Bot {seat + 1} ({self.bot_policy})")
        players = [holders[seat] for seat in range(data["seat_count"])]
        meta = await self.games.create(
            data["kind"], data["seat_count"], data["options"], f"match:{match_id}", seated=players
        )
        await self.store.mark_rated_game(meta.game_id)  # before any move: it cannot have ended yet
        bots = [BotSeat(meta.game_id, seat, *holders[seat], self.bot_policy, self.bot_difficulty) for seat in bot_seats]
        await self.store.request_bots(bots)
        if await self.store.match_done(queue, match_id, meta.game_id, seats_by_ticket):
            seated = sum(len(s) for s in seats_by_ticket.values())
            self.matched += seated
            log.info("matchmaker.matched", queue=queue, match=match_id, game=meta.game_id, players=seated)
            return seated
        return 0

    async def run(self, stop: asyncio.Event, interval_s: float = 0.2) -> None:
        """Pass over the queues until `stop` is set; rest `interval_s` after a pass that seated no one."""
        while not stop.is_set():
            pause = interval_s
            try:
                seated = await self.pass_once()
            except Exception as exc:  # Redis unreachable or failing over, or a bug: the next pass goes on
                log_survived(log, "matchmaker", exc)
                seated, pause = 0, max(interval_s, RETRY_PAUSE_S)
            if not seated:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), pause)
