"""Parties: players who queue together, formed by invitation and acceptance. No grpc here.

The trust model: a party's leader (its creator, then its oldest member) invites users by id;
an invitation is for that user only and lapses after FLOTILLA_PARTY_INVITE_TTL; the invitee
joins by accepting it. A user is in at most one party; a party holds at most `largest_table()`
members and pending invitations together (no game seats more), and a user holds at most
MAX_INVITES_PER_USER pending invitations. A party lives FLOTILLA_PARTY_TTL from its creation.
Only the leader queues a ticket for the party, and a ticket names exactly its accepted members
(`ticket_members`), so no one can be queued, or seated, by someone they did not accept.
Parties other than your own are invisible unless you are invited (PARTY_NOT_FOUND).
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from flotilla.app.errors import (
    AlreadyInParty,
    InvalidRequest,
    NotPartyLeader,
    PartyFull,
    PartyInviteNotFound,
    PartyMemberNotAccepted,
    PartyNotFound,
    TooManyInvites,
)
from flotilla.app.games import MAX_SEATS
from flotilla.app.host import host_for
from flotilla.app.inputs import echo
from flotilla.clock import SYSTEM, Clock, now_ms
from flotilla.games import REGISTRY
from flotilla.rules.errors import InvalidConfig
from flotilla.store.party_store import PartyStore, StoredParty

MAX_INVITES_PER_USER = 32  # pending invitations one user can hold (a bound on what others make them keep)
_PARTY_NAME = re.compile(r"^parties/([0-9a-f]{32})$")
_USER_NAME = re.compile(r"^users/([0-9a-f]{32})$")


@functools.cache
def largest_table() -> int:
    """The most seats any game has: no party can be larger."""
    largest = 1
    for kind in REGISTRY:
        for seats in range(largest + 1, MAX_SEATS + 1):
            try:
                host_for(kind).config(seats, {})
            except InvalidConfig:
                continue
            largest = seats
    return largest


def parse_party_name(name: str, field: str = "party") -> str:
    match = _PARTY_NAME.match(name)
    if match is None:
        raise InvalidRequest(f"{field} must look like parties/<id>, got {echo(name)}", field=field)
    return match.group(1)


def parse_user_name(name: str, field: str = "user") -> str:
    match = _USER_NAME.match(name)
    if match is None:
        raise InvalidRequest(f"{field} must look like users/<id>, got {echo(name)}", field=field)
    return match.group(1)


@dataclass(frozen=True, slots=True)
class Invite:
    party_id: str
    user: str
    leader: str
    lapses_ms: int


class Parties:
    """Party use cases over one store."""

    def __init__(
        self, store: PartyStore, *, ttl_s: int = 4 * 3600, invite_ttl_s: int = 300, clock: Clock = SYSTEM
    ) -> None:
        self.store = store
        self.ttl_s = ttl_s
        self.invite_ttl_s = invite_ttl_s
        self.clock = clock  # when parties and invitations lapse (flotilla/clock.py)

    def _now_ms(self) -> int:
        return now_ms(self.clock)

    async def _visible(self, party_id: str, user: str) -> StoredParty:
        """The party if `user` is a member or holds a pending invitation; PartyNotFound otherwise."""
        party = await self.store.get(party_id, self._now_ms())
        if party is None or not (party.has(user) or any(u == user for u, _ in party.invites)):
            raise PartyNotFound(f"no party parties/{party_id} of yours", party=f"parties/{party_id}")
        return party

    async def create(self, user: str, name: str, request_id: str) -> StoredParty:
        """A new party led by `user`; the same request id returns the same party."""
        seed = f"flotilla:party:{user}:{request_id}" if request_id else uuid.uuid4().hex  # ids scoped to the user
        party_id = uuid.uuid5(uuid.NAMESPACE_URL, seed).hex
        now = self._now_ms()
        code, other = await self.store.create(party_id, user, name, now, now + self.ttl_s * 1000)
        if code < 0:
            raise AlreadyInParty(
                "you are in a party already; leave it first", user=f"users/{user}", party=f"parties/{other}"
            )
        party = await self.store.get(party_id, now)
        if party is None or not party.has(user):  # that request id made a party the caller has left since
            raise InvalidRequest("this request_id made a party you have left; use a new one", field="request_id")
        return party

    async def get(self, party_name: str, user: str) -> StoredParty:
        """A party the user is in or invited to; "" names the user's own party."""
        if not party_name:
            party_id = await self.store.party_of(user)
            if not party_id:
                raise PartyNotFound("you are in no party")
            return await self._visible(party_id, user)
        return await self._visible(parse_party_name(party_name), user)

    async def invite(self, party_name: str, leader: str, invitee_name: str) -> Invite:
        party_id = parse_party_name(party_name)
        invitee = parse_user_name(invitee_name)
        if invitee == leader:
            raise InvalidRequest("you cannot invite yourself", field="user")
        if not await self.store.user_exists(invitee):
            raise InvalidRequest(f"no user users/{invitee}", field="user")
        limit = largest_table()
        code, lapses = await self.store.invite(
            party_id, leader, invitee, self._now_ms(), self.invite_ttl_s * 1000, limit, MAX_INVITES_PER_USER
        )
        if code == -1:
            raise PartyNotFound(f"no party {party_name} of yours", party=party_name)
        if code == -2:
            raise NotPartyLeader("only the party's leader invites", party=party_name)
        if code == -3:
            raise AlreadyInParty(f"users/{invitee} is a member already", user=f"users/{invitee}", party=party_name)
        if code == -4:
            raise PartyFull(f"a party holds at most {limit} members and invitations", limit=str(limit))
        if code == -5:
            raise TooManyInvites(
                f"users/{invitee} has {MAX_INVITES_PER_USER} pending invitations", limit=str(MAX_INVITES_PER_USER)
            )
        return Invite(party_id, invitee, leader, lapses)

    async def accept(self, party_name: str, user: str, name: str) -> StoredParty:
        party_id = parse_party_name(party_name)
        limit = largest_table()
        code, other = await self.store.accept(party_id, user, name, self._now_ms(), limit)
        if code == -1:
            raise PartyInviteNotFound(f"no pending invitation of yours to {party_name}", party=party_name)
        if code == -2:
            raise AlreadyInParty("you are in another party; leave it first", party=f"parties/{other}")
        if code == -3:
            raise PartyFull(f"the party has {limit} members", limit=str(limit))
        return await self._visible(party_id, user)

    async def decline(self, party_name: str, user: str) -> None:
        party_id = parse_party_name(party_name)
        if not await self.store.decline(party_id, user):
            raise PartyInviteNotFound(f"no pending invitation of yours to {party_name}", party=party_name)

    async def leave(self, party_name: str, user: str) -> str:
        """Leave; the party's latest ticket ("<queue> <ticket id>", "" if none) for the caller to cancel."""
        party_id = parse_party_name(party_name)
        code, ticket = await self.store.leave(party_id, user)
        if code < 0:
            raise PartyNotFound(f"no party {party_name} of yours", party=party_name)
        return ticket

    async def invites(self, user: str) -> list[Invite]:
        """The user's pending invitations, newest first (those of parties gone since are left out)."""
        out = []
        for party_id, lapses in await self.store.invites_of(user, self._now_ms(), MAX_INVITES_PER_USER):
            party = await self.store.get(party_id, self._now_ms())
            if party is not None and any(u == user for u, _ in party.invites):
                out.append(Invite(party_id, user, party.leader, lapses))
        return out

    async def ticket_members(
        self, user: str, party_name: str, listed: Sequence[str]
    ) -> tuple[str, list[tuple[str, str]]]:
        """Who a ticket of `user` may seat together: (party id, [(user, name)], the caller first).

        No party named and no one listed: ("", []), a ticket of one. Otherwise the caller must
        lead the party, and `listed` (users/{id}; the caller may be in it) must be exactly its
        other accepted members: anyone else is PARTY_MEMBER_NOT_ACCEPTED.
        """
        others: list[str] = []
        for member in listed:
            found = parse_user_name(member, "party")
            if found != user and found not in others:
                others.append(found)
        party_id = parse_party_name(party_name, "party_name") if party_name else await self.store.party_of(user)
        if not party_id:
            if others:
                raise PartyMemberNotAccepted(
                    f"users/{others[0]} is not in a party of yours: form one (CreateParty, InviteToParty)",
                    user=f"users/{others[0]}",
                )
            return "", []
        party = await self.store.get(party_id, self._now_ms())
        if party is None or not party.has(user):
            if party_name:
                raise PartyNotFound(f"no party {party_name} of yours", party=party_name)
            if others:
                raise PartyMemberNotAccepted(f"users/{others[0]} is not in a party of yours", user=f"users/{others[0]}")
            return "", []
        if not party_name and not others:
            return "", []  # queueing alone while in a party
        if party.leader != user:
            raise NotPartyLeader("only the party's leader queues it", party=f"parties/{party_id}")
        members = {u for u, _ in party.members if u != user}
        for other in others:
            if other not in members:
                raise PartyMemberNotAccepted(
                    f"users/{other} has not accepted an invitation to your party", user=f"users/{other}"
                )
        if others and set(others) != members:
            raise InvalidRequest("list every member of your party, or name it in party_name", field="party")
        mine = [m for m in party.members if m[0] == user]
        return party_id, [*mine, *(m for m in party.members if m[0] != user)]

    async def remember_ticket(self, party_id: str, queue: str, ticket_id: str) -> None:
        await self.store.remember_ticket(party_id, queue, ticket_id)

    async def departed(self, party_id: str, users: Sequence[str]) -> str:
        """One of `users` no longer in the party ("" if all still are)."""
        party = await self.store.get(party_id, self._now_ms())
        return next((u for u in users if party is None or not party.has(u)), "")
