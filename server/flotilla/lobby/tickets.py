"""Matchmaking tickets: queue a player (or a party), follow the ticket, cancel it. No grpc here.

Tickets of one game kind with the same setting wait in one queue (`<kind>.<options hash>`):
the options are parsed and spelled canonically first (`rules.options.canonical_options`), so
every spelling of one setting names one queue, and a spelling the game does not take is
refused (INVALID_ARGUMENT). Every key of a queue shares its Redis Cluster hash tag, so claiming
a match is one script on one slot. The matchmaker processes (`flotilla.matchmaker`) form the
games and prune the queues that are empty.

At most `max_queues` queues exist at once (FLOTILLA_MM_MAX_QUEUES, 256 by default): a ticket
that would open one more is refused with RESOURCE_EXHAUSTED / QUOTA_EXCEEDED (limit
`matchmaking_queues`). A kind's default setting (no options) is never refused, so filling the
set cannot shut the main queues.

No address fills the queues or the set alone (app/limits.py, docs/security.md): the tickets a
user, and every user of one client address, created that still wait are counted
(`waiting_tickets_per_user`, 8; `_per_address`, 16), and so are the queues an address opened (a
non-default setting nobody waited in) that are still in use (`new_queues_per_address`, 8). A bot
account (API key) has `_per_bot` rows instead. A ticket matched, cancelled or expired, and a
queue emptied, stop counting: they are dropped when a count is full.

A user waits in at most one ticket per queue, as its owner or as a party member: creating
another one meanwhile (another request id) is refused with FAILED_PRECONDITION /
TICKET_ALREADY_WAITING naming the waiting ticket. So no match can hold a user twice.

A ticket seats together only the accepted members of the caller's party, queued by its leader
(`lobby.parties`); a member leaving the party cancels the party's waiting ticket.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import aclosing
from functools import partial
from typing import Any

import orjson

from flotilla import metrics
from flotilla.app.errors import (
    InvalidRequest,
    PartyMemberNotAccepted,
    QuotaExceeded,
    TicketAlreadyWaiting,
    TicketNotFound,
)
from flotilla.app.games import MAX_SEATS
from flotilla.app.host import host_for
from flotilla.app.inputs import echo
from flotilla.app.limits import Limiter
from flotilla.errors import AlreadyWaiting, QueuesFull
from flotilla.lobby.follow import Heartbeat, follow
from flotilla.lobby.parties import Parties, largest_table
from flotilla.lobby.ratings import Ratings
from flotilla.rules.options import canonical_options
from flotilla.store.lobby_store import LobbyStore, StoredTicket

SEARCHING, CLAIMED, MATCHED, EXPIRED, CANCELLED = "searching", "claimed", "matched", "expired", "cancelled"
ENDED = (MATCHED, EXPIRED, CANCELLED)
QUEUES_LIMIT = "matchmaking_queues"  # the ErrorInfo `limit` of a refusal over MAX_QUEUES
WAITING_TICKETS, NEW_QUEUES = "waiting_tickets", "new_queues"  # quotas of app/limits.py (their `_per_` rows)
_WAIT_FEWER = "cancel a waiting ticket or wait for one to be matched or to expire"
_OPEN_FEWER = "queue in a setting others wait in or the game's default one, or cancel a ticket in a setting you opened"
Release = Callable[[], Awaitable[None]]


async def _nothing() -> None:
    """The release of nothing held."""


_TICKET_NAME = re.compile(r"^tickets/([a-z0-9_]{1,40}\.[0-9a-f]{12})-([0-9a-f]{32})$")


def queue_of(kind: str, options: Mapping[str, str]) -> str:
    """The queue of a kind and its options as `canonical_options` spells them."""
    digest = hashlib.sha256(orjson.dumps(dict(options), option=orjson.OPT_SORT_KEYS)).hexdigest()[:12]
    return f"{kind}.{digest}"


def ticket_name(queue: str, ticket_id: str) -> str:
    return f"tickets/{queue}-{ticket_id}"


def parse_ticket_name(name: str) -> tuple[str, str]:
    """(queue, ticket id) of `tickets/{queue}-{id}`; InvalidRequest otherwise."""
    match = _TICKET_NAME.match(name)
    if match is None:
        raise InvalidRequest(f"ticket must look like tickets/<queue>-<id>, got {echo(name)}", field="ticket")
    return match.group(1), match.group(2)


class Tickets:
    """Ticket use cases over one store."""

    def __init__(
        self,
        store: LobbyStore,
        ratings: Ratings,
        *,
        parties: Parties,
        ttl_s: int = 3600,
        heartbeat_s: float = 10.0,
        max_queues: int,
        limiter: Limiter | None = None,
    ) -> None:
        self.store = store
        self.limiter = limiter
        self.max_queues = max_queues
        self.ratings = ratings
        self.parties = parties
        self.ttl_s = ttl_s
        self.heartbeat_s = heartbeat_s

    async def create(
        self,
        user: str,
        name: str,
        kind: str,
        options: Mapping[str, str],
        seat_counts: Sequence[int],
        party: Sequence[str],
        request_id: str,
        party_name: str = "",
        *,
        address: str | None = None,
        bot: bool = False,
    ) -> tuple[str, StoredTicket]:
        """Queue a ticket for the caller and its party (`party_name`, or `party`: its other members,
        users/{id}); the same request id returns the same ticket. See `Parties.ticket_members`.
        `address`: the caller's client address, `bot`: the caller is a bot account (its quotas)."""
        if len(party) > largest_table():
            raise InvalidRequest(f"a party has at most {largest_table()} members", field="party")
        counts, options = _table(kind, seat_counts, options)
        party_id, accepted = await self.parties.ticket_members(user, party_name, party)
        seated = accepted or [(user, name)]
        if len(seated) > max(counts):
            raise InvalidRequest("the party is larger than the largest acceptable table", field="party")
        members = [u for u, _ in seated]
        queue = queue_of(kind, options)
        ticket_id = uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:ticket:{user}:{request_id}").hex
        existing = await self.store.ticket(queue, ticket_id)
        if existing is not None:
            return queue, existing
        now_ms = int(time.time() * 1000)
        data: dict[str, Any] = {
            "kind": kind,
            "options": dict(options),
            "seat_counts": counts,
            "party": [{"user": u, "name": n} for u, n in seated],
            "party_id": party_id,
            "rating": await self.ratings.mean_rating(kind, members),
            "owner": user,
            "enqueued_ms": now_ms,
        }
        release = await self._hold(user, address, bot, queue, ticket_id, opens=bool(options))
        await self._enqueue(user, queue, ticket_id, data, members, release)
        if party_id:  # a member who left meanwhile either sees this ticket (and cancels it) or is caught here
            await self.parties.remember_ticket(party_id, queue, ticket_id)
            gone = await self.parties.departed(party_id, members)
            if gone:
                await self.store.end_ticket(queue, ticket_id, CANCELLED)
                await release()
                raise PartyMemberNotAccepted(f"users/{gone} left the party meanwhile", user=f"users/{gone}")
        stored = await self.store.ticket(queue, ticket_id)
        assert stored is not None
        return queue, stored

    async def _enqueue(
        self,
        user: str,
        queue: str,
        ticket_id: str,
        data: dict[str, Any],
        members: list[str],
        release: Callable[[], Awaitable[None]],
    ) -> None:
        """Store the ticket; when the queues are full or a member waits in another ticket of the
        queue, `release` the caller's quota and refuse (QuotaExceeded, TicketAlreadyWaiting)."""
        bound = self.max_queues if data["options"] else 0  # a kind's default setting is never refused
        try:
            await self.store.create_ticket(
                queue, ticket_id, data, data["enqueued_ms"], self.ttl_s, members, max_queues=bound
            )
        except QueuesFull:
            await release()
            metrics.LIMIT_REFUSALS.labels(QUEUES_LIMIT).inc()
            raise QuotaExceeded(
                f"at most {self.max_queues} matchmaking queues at once, and each setting of a game is one;"
                " queue with the game's default options or a setting others wait in, or retry later",
                limit=QUEUES_LIMIT,
            ) from None
        except AlreadyWaiting as busy:
            await release()
            who = "you wait" if busy.user == user else f"party member users/{busy.user} waits"
            raise TicketAlreadyWaiting(
                f"{who} in another ticket of this queue; cancel it or wait for it to end",
                ticket=ticket_name(queue, busy.ticket_id) if busy.user == user else "",
                user=f"users/{busy.user}",
            ) from None

    async def _hold(
        self, user: str, address: str | None, bot: bool, queue: str, ticket_id: str, *, opens: bool
    ) -> Release:
        """Count the new ticket against the caller's quotas, and its queue against the caller's
        address when the ticket opens it (`opens`: a non-default setting; not in the set of queues
        now), or raise QuotaExceeded counting neither. Returns what stops counting both."""
        if self.limiter is None:
            return _nothing
        limiter = partial(self.limiter.hold_each, user=user, address=address, bot=bot)
        release_queue: Release = _nothing
        if opens and not await self.store.has_queue(queue):
            release_queue = await limiter(NEW_QUEUES, member=queue, still_open=self._queues_in_use, detail=_OPEN_FEWER)
        try:
            release_ticket = await limiter(
                WAITING_TICKETS, member=f"{queue} {ticket_id}", still_open=self._tickets_waiting, detail=_WAIT_FEWER
            )
        except QuotaExceeded:
            await release_queue()
            raise

        async def release() -> None:
            await release_ticket()
            await release_queue()

        return release

    async def _tickets_waiting(self, members: list[str]) -> list[bool]:
        """For each counted ticket ("<queue> <ticket id>"): whether it still waits."""
        pairs = [(queue, ticket_id) for queue, _, ticket_id in (m.partition(" ") for m in members)]
        return [state in (SEARCHING, CLAIMED) for state in await self.store.ticket_states(pairs)]

    async def _queues_in_use(self, queues: list[str]) -> list[bool]:
        """For each counted queue: whether it holds a waiting ticket or a match in progress (one
        that does not is pruned here, as a matchmaker would)."""
        return [not await self.store.prune_queue(queue) for queue in queues]

    async def leave_party(self, party_name: str, user: str) -> None:
        """`user` leaves the party; the party's ticket, if it still waits, is cancelled."""
        ticket = await self.parties.leave(party_name, user)
        if ticket:
            await self.end_party_ticket(ticket)

    async def end_party_ticket(self, ticket: str) -> None:
        """Cancel a party's ticket ("<queue> <ticket id>") if it still waits (a member left)."""
        queue, _, ticket_id = ticket.partition(" ")
        if ticket_id:
            await self.store.end_ticket(queue, ticket_id, CANCELLED)

    async def get(self, queue: str, ticket_id: str, user: str) -> StoredTicket:
        return self._of(await self.store.ticket(queue, ticket_id), queue, ticket_id, user)

    @staticmethod
    def _of(ticket: StoredTicket | None, queue: str, ticket_id: str, user: str) -> StoredTicket:
        """`ticket` if it exists and `user` is in its party; TicketNotFound otherwise."""
        if ticket is None or user not in {m["user"] for m in ticket.data["party"]}:
            raise TicketNotFound(f"no ticket {ticket_name(queue, ticket_id)} of yours", ticket=ticket_id)
        return ticket

    async def cancel(self, queue: str, ticket_id: str, user: str) -> StoredTicket:
        """Cancel a waiting ticket; one already matched or ended is returned as it is."""
        await self.get(queue, ticket_id, user)
        await self.store.end_ticket(queue, ticket_id, CANCELLED)
        return await self.get(queue, ticket_id, user)

    async def watch(self, queue: str, ticket_id: str, user: str) -> AsyncIterator[StoredTicket | None]:
        """The ticket now and after each change, until it is matched, expired or cancelled; None: heartbeat.

        Heartbeats cost no Redis command (see `flotilla.lobby.follow`).
        """
        found = await self.store.ticket_with_expiry(queue, ticket_id)
        ticket = self._of(found[0] if found else None, queue, ticket_id, user)
        shown = ""
        expires_in = partial(self.store.ticket_expires_in, queue, ticket_id)
        async with (
            self.store.ticket_feed(queue, ticket_id) as feed,
            aclosing(
                follow(feed, self.heartbeat_s, expires_in, found[1] if found else 0, self.store.hub.fresh)
            ) as changes,
        ):
            while True:
                state = SEARCHING if ticket.state == CLAIMED else ticket.state
                if state != shown:
                    shown = state
                    yield ticket
                if ticket.state in ENDED:
                    return
                change = await anext(changes, None)
                if isinstance(change, Heartbeat):
                    yield None
                    continue
                ticket = await self.get(queue, ticket_id, user)  # TicketNotFound once it is gone


def _table(kind: str, seat_counts: Sequence[int], options: Mapping[str, str]) -> tuple[list[int], dict[str, str]]:
    """The acceptable seat counts, sorted, and the options in canonical form; InvalidRequest for no
    or bad counts, InvalidConfig for counts or options the game refuses."""
    host = host_for(kind)
    counts = sorted(set(seat_counts))
    if not counts:
        raise InvalidRequest("give at least one acceptable seat count", field="seat_counts")
    for count in counts:
        if not 1 <= count <= MAX_SEATS:
            raise InvalidRequest(f"seat counts must be 1..{MAX_SEATS}, got {count}", field="seat_counts")
        config = host.config(count, options)
    return counts, canonical_options(config)
