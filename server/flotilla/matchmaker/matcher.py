"""Forming matches from waiting tickets: a pure function of the tickets, the time and a policy.

No I/O here. The matchmaker loop reads one queue's waiting tickets from Redis, calls
`propose_matches`, and claims each proposed match with one Lua script that succeeds only if
every ticket of it is still waiting; a lost race simply drops that proposal.

The rule, per queue (tickets of one game kind with the same options):

* Tickets are taken oldest first as the anchor of a new match.
* The anchor's rating window is `base + widen_per_s * waited`, capped at `max_window`.
  Candidates are the unused tickets whose rating lies within it, closest rating first.
* A seat count the anchor accepts is filled exactly with whole parties (a party never
  splits), every party in it accepting that seat count. Larger seat counts are tried first.
* A user is seated at most once per match: a ticket sharing a user with one already chosen
  is passed over (the ticket store lets a user wait in one ticket per queue; this holds
  even if it did not).
* When the anchor has waited `bot_fill_after_s` (and bots are allowed), the best partial
  fill is completed with bots.
* Tickets older than `expire_after_s` are not matched; `expired` lists them.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ticket:
    """A waiting ticket as the matcher sees it."""

    ticket_id: str
    rating: float
    party_size: int
    seat_counts: tuple[int, ...]
    enqueued_ms: int
    users: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Policy:
    """How wide the rating window is, when bots fill in and when tickets expire."""

    base_window: float = 3.0
    widen_per_s: float = 1.0
    max_window: float = 50.0
    bot_fill_after_s: float = 30.0
    bots_allowed: bool = True
    expire_after_s: float = 300.0


@dataclass(frozen=True, slots=True)
class Match:
    """Tickets that play together at a table of `seat_count`, `bots` seats going to bots."""

    ticket_ids: tuple[str, ...]
    seat_count: int
    bots: int = 0


def window(ticket: Ticket, now_ms: int, policy: Policy) -> float:
    """The rating distance this ticket accepts after waiting until `now_ms`."""
    waited_s = max(0.0, (now_ms - ticket.enqueued_ms) / 1000)
    return min(policy.max_window, policy.base_window + policy.widen_per_s * waited_s)


def is_expired(ticket: Ticket, now_ms: int, policy: Policy) -> bool:
    return now_ms - ticket.enqueued_ms >= policy.expire_after_s * 1000


def expired(tickets: Sequence[Ticket], now_ms: int, policy: Policy) -> list[str]:
    """Ids of the tickets that waited too long."""
    return [t.ticket_id for t in tickets if is_expired(t, now_ms, policy)]


def _fill(anchor: Ticket, candidates: list[Ticket], seats: int) -> list[Ticket]:
    """Greedy exact-or-partial fill of `seats` with the anchor and candidates (closest first)."""
    chosen = [anchor]
    left = seats - anchor.party_size
    seated = set(anchor.users)
    for ticket in candidates:
        if left == 0:
            break
        if ticket.party_size <= left and seats in ticket.seat_counts and seated.isdisjoint(ticket.users):
            chosen.append(ticket)
            left -= ticket.party_size
            seated |= ticket.users
    return chosen


def _closest(
    keys: list[tuple[float, str]], pool: list[Ticket], anchor: Ticket, reach: float, limit: int
) -> list[Ticket]:
    """Up to `limit` tickets of `pool` (sorted as `keys`) within `reach` of the anchor, closest first."""
    here = bisect.bisect_left(keys, (anchor.rating, anchor.ticket_id))
    left, right = here - 1, here
    if right < len(pool) and pool[right].ticket_id == anchor.ticket_id:
        right += 1
    out: list[Ticket] = []
    while len(out) < limit:
        below = anchor.rating - pool[left].rating if left >= 0 else None
        above = pool[right].rating - anchor.rating if right < len(pool) else None
        if below is not None and below <= reach and (above is None or above > reach or below <= above):
            out.append(pool[left])
            left -= 1
        elif above is not None and above <= reach:
            out.append(pool[right])
            right += 1
        else:
            break
    return out


def propose_matches(tickets: Sequence[Ticket], now_ms: int, policy: Policy, *, scan: int = 64) -> list[Match]:
    """Disjoint matches among `tickets` (all of one queue). Deterministic for equal inputs.

    Each anchor looks at no more than `scan` nearest candidates, so a pass is O(n log n).
    """
    live = [t for t in tickets if not is_expired(t, now_ms, policy) and t.party_size >= 1 and t.seat_counts]
    pool = sorted(live, key=lambda t: (t.rating, t.ticket_id))
    keys = [(t.rating, t.ticket_id) for t in pool]
    used: set[str] = set()
    matches: list[Match] = []
    for anchor in sorted(live, key=lambda t: (t.enqueued_ms, t.ticket_id)):
        if anchor.ticket_id in used:
            continue
        candidates = _closest(keys, pool, anchor, window(anchor, now_ms, policy), scan)
        full: tuple[int, list[Ticket]] | None = None
        partial: tuple[int, list[Ticket], int] | None = None
        for seats in sorted(set(anchor.seat_counts), reverse=True):
            if anchor.party_size > seats:
                continue
            chosen = _fill(anchor, candidates, seats)
            missing = seats - sum(t.party_size for t in chosen)
            if missing == 0:
                full = (seats, chosen)
                break
            if partial is None or missing < partial[2]:
                partial = (seats, chosen, missing)
        if full is not None:
            seats, chosen, bots = full[0], full[1], 0
        elif (
            partial is not None
            and policy.bots_allowed
            and now_ms - anchor.enqueued_ms >= policy.bot_fill_after_s * 1000
        ):
            seats, chosen, bots = partial
        else:
            continue
        for ticket in chosen:
            used.add(ticket.ticket_id)
            at = bisect.bisect_left(keys, (ticket.rating, ticket.ticket_id))
            del keys[at]
            del pool[at]
        matches.append(Match(tuple(t.ticket_id for t in chosen), seats, bots))
    return matches
