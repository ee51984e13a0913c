"""Parties in Redis (keys in `store.keys`, all under the `{party}` tag): one script per change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as aioredis

from flotilla.store import keys
from flotilla.store.client import script_source
from flotilla.store.redis_store import RedisStore
from flotilla.store.transient import own_errors
from flotilla.store.users import user_names


@dataclass(frozen=True, slots=True)
class StoredParty:
    """A party as stored: members as (user, display name) in join order, the leader first."""

    party_id: str
    leader: str
    members: tuple[tuple[str, str], ...]
    expires_ms: int
    invites: tuple[tuple[str, int], ...]  # (user, lapses ms), pending only
    ticket: str = ""  # "<queue> <ticket id>" of its latest ticket
    kinds: tuple[str, ...] = ()  # each member's kind (identity/principal.py) from their user record

    def has(self, user: str) -> bool:
        return any(u == user for u, _ in self.members)


@own_errors
class PartyStore:
    """The Redis side of parties; every change is one atomic script on the `{party}` slot."""

    @classmethod
    def of(cls, store: RedisStore) -> PartyStore:
        """The party store on `store`'s connections (callers never hold a Redis client)."""
        return cls(store.redis)

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis: Any = client
        self._create = client.register_script(script_source("party_create.lua"))
        self._invite = client.register_script(script_source("party_invite.lua"))
        self._accept = client.register_script(script_source("party_accept.lua"))
        self._leave = client.register_script(script_source("party_leave.lua"))
        self._ticket = client.register_script(script_source("party_ticket.lua"))

    async def create(self, party_id: str, user: str, name: str, now_ms: int, expires_ms: int) -> tuple[int, str]:
        """(1, "") formed, (0, "") exists already, (-1, other party) the user is in another one."""
        reply = await self._create(
            keys=[keys.party(party_id), keys.party_of_user(user)], args=[party_id, user, name, now_ms, expires_ms]
        )
        return int(reply[0]), reply[1].decode() if len(reply) > 1 else ""

    async def get(self, party_id: str, now_ms: int) -> StoredParty | None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(keys.party(party_id), ("leader", "members", "expires_ms", "ticket"))
            pipe.zrangebyscore(keys.party_invites(party_id), f"({now_ms}", "+inf", withscores=True)
            (leader, members, expires, ticket), invites = await pipe.execute()
        if leader is None or members is None:
            return None
        listed = tuple((m["user"], m["name"]) for m in orjson.loads(members))
        return StoredParty(
            party_id,
            leader.decode(),
            listed,
            int(expires),
            tuple((u.decode(), int(score)) for u, score in invites),
            (ticket or b"").decode(),
            tuple(kind for _, kind in await user_names(self.redis, [user for user, _ in listed])),
        )

    async def party_of(self, user: str) -> str:
        """The user's party id ("" for none)."""
        found = await self.redis.get(keys.party_of_user(user))
        return found.decode() if found else ""

    async def invite(
        self, party_id: str, caller: str, invitee: str, now_ms: int, ttl_ms: int, max_size: int, max_invites: int
    ) -> tuple[int, int]:
        """(1, lapses ms) or (code, 0) with the codes of party_invite.lua."""
        reply = await self._invite(
            keys=[keys.party(party_id), keys.party_invites(party_id), keys.party_invited(invitee)],
            args=[party_id, caller, invitee, now_ms, ttl_ms, max_size, max_invites],
        )
        return int(reply[0]), int(reply[1]) if len(reply) > 1 else 0

    async def accept(self, party_id: str, user: str, name: str, now_ms: int, max_size: int) -> tuple[int, str]:
        """(code, other party) with the codes of party_accept.lua."""
        reply = await self._accept(
            keys=[
                keys.party(party_id),
                keys.party_invites(party_id),
                keys.party_invited(user),
                keys.party_of_user(user),
            ],
            args=[party_id, user, name, now_ms, max_size],
        )
        return int(reply[0]), reply[1].decode() if len(reply) > 1 else ""

    async def decline(self, party_id: str, user: str) -> bool:
        """Drop the user's invitation; False if there was none."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(keys.party_invites(party_id), user)
            pipe.zrem(keys.party_invited(user), party_id)
            removed, _ = await pipe.execute()
        return bool(removed)

    async def leave(self, party_id: str, user: str) -> tuple[int, str]:
        """(code, the party's latest ticket) with the codes of party_leave.lua."""
        reply = await self._leave(
            keys=[keys.party(party_id), keys.party_invites(party_id), keys.party_of_user(user)], args=[party_id, user]
        )
        return int(reply[0]), reply[1].decode() if len(reply) > 1 else ""

    async def invites_of(self, user: str, now_ms: int, count: int) -> list[tuple[str, int]]:
        """The user's pending invitations (party id, lapses ms), newest first."""
        rows: Sequence[tuple[bytes, float]] = await self.redis.zrevrangebyscore(
            keys.party_invited(user), "+inf", f"({now_ms}", start=0, num=count, withscores=True
        )
        return [(p.decode(), int(score)) for p, score in rows]

    async def user_exists(self, user: str) -> bool:
        return bool(await self.redis.exists(keys.user(user)))

    async def remember_ticket(self, party_id: str, queue: str, ticket_id: str) -> None:
        await self._ticket(keys=[keys.party(party_id)], args=[f"{queue} {ticket_id}"])
