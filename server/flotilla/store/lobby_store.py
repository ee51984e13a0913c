"""Rooms, matchmaking tickets, bot seats and ratings in Redis (keys in `store.keys`)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from flotilla.store import keys
from flotilla.store.redis_store import _script

ROOM_TTL_S = 24 * 3600
LISTING_STEP = 10**13  # listing score = open seats * LISTING_STEP + sequence number


@dataclass(frozen=True, slots=True)
class StoredTicket:
    """A ticket hash as stored."""

    ticket_id: str
    data: dict[str, Any]
    state: str
    game: str = ""
    seats: dict[str, int] | None = None


def _ticket(ticket_id: str, raw: Sequence[bytes | None]) -> StoredTicket | None:
    data, state, game, seats = raw
    if data is None:
        return None
    return StoredTicket(
        ticket_id,
        orjson.loads(data),
        (state or b"").decode(),
        (game or b"").decode(),
        orjson.loads(seats) if seats else None,
    )


class LobbyStore:
    """The Redis side of lobbies, matchmaking and ratings; every script is atomic on its own."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis: Any = client
        self._room_update = client.register_script(_script("room_update.lua"))
        self._ticket_create = client.register_script(_script("ticket_create.lua"))
        self._ticket_claim = client.register_script(_script("ticket_claim.lua"))
        self._match_done = client.register_script(_script("match_done.lua"))
        self._ticket_end = client.register_script(_script("ticket_end.lua"))
        self._rate_game = client.register_script(_script("rate_game.lua"))
        self._presence_take = client.register_script(_script("presence_take.lua"))

    # --- rooms -------------------------------------------------------------------------
    async def next_room_seq(self) -> int:
        return int(await self.redis.incr(keys.ROOMS_SEQ))

    async def room(self, room_id: str) -> tuple[int, dict[str, Any]] | None:
        version, data = await self.redis.hmget(keys.room(room_id), (b"version", b"data"))
        if data is None:
            return None
        return int(version), orjson.loads(data)

    async def rooms(self, room_ids: Sequence[str]) -> list[tuple[int, dict[str, Any]] | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in room_ids:
                pipe.hmget(keys.room(room_id), (b"version", b"data"))
            rows = await pipe.execute()
        return [None if data is None else (int(version), orjson.loads(data)) for version, data in rows]

    async def write_room(
        self, room_id: str, expected: int, room: Mapping[str, Any], listing: float | None
    ) -> int | None:
        """Compare-and-set the room; then list it under `listing` (None: unlist). None if it moved."""
        reply = await self._room_update(
            keys=[keys.room(room_id), keys.room_changes(room_id)], args=[expected, orjson.dumps(room), ROOM_TTL_S]
        )
        if int(reply[0]) < 0:
            return None
        await self.relist(room_id, str(room["kind"]), listing)
        return int(reply[0])

    async def relist(self, room_id: str, kind: str, listing: float | None) -> None:
        """The listing indexes are derived from rooms (a crash between the two is healed on read)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in (keys.ROOMS_LISTED, keys.rooms_listed(kind)):
                if listing is None:
                    pipe.zrem(key, room_id)
                else:
                    pipe.zadd(key, {room_id: listing})
            await pipe.execute()

    async def listed_rooms(self, kind: str, low: float, after: float | None, count: int) -> list[tuple[str, float]]:
        """(room id, score) ascending, from `low` (inclusive) or after the cursor `after` (exclusive)."""
        key = keys.rooms_listed(kind) if kind else keys.ROOMS_LISTED
        start = f"({after}" if after is not None and after >= low else str(low)
        rows = await self.redis.zrangebyscore(key, start, "+inf", start=0, num=count, withscores=True)
        return [(room_id.decode(), score) for room_id, score in rows]

    async def room_changes(self, room_id: str, after_version: int, block_ms: int) -> list[tuple[int, dict[str, Any]]]:
        """Room versions after `after_version`, blocking up to `block_ms` for the first."""
        reply = await self.redis.xread({keys.room_changes(room_id): f"0-{after_version}"}, block=block_ms)
        if not reply:
            return []
        return [(int(msg_id.split(b"-")[1]), orjson.loads(fields[b"d"])) for msg_id, fields in reply[0][1]]

    async def touch_presence(self, room_id: str, user: str, now_ms: int) -> None:
        await self.redis.zadd(keys.ROOMS_PRESENCE, {f"{room_id}:{user}": now_ms})

    async def drop_presence(self, room_id: str, user: str) -> None:
        await self.redis.zrem(keys.ROOMS_PRESENCE, f"{room_id}:{user}")

    async def stale_presence(self, older_than_ms: int, count: int) -> list[tuple[str, str, bytes]]:
        """(room id, user, score as stored) of players whose room stream is gone since before `older_than_ms`."""
        rows = await self.redis.zrangebyscore(
            keys.ROOMS_PRESENCE, "-inf", older_than_ms, start=0, num=count, withscores=True
        )
        out = []
        for member, score in rows:
            room_id, _, user = member.decode().partition(":")
            out.append((room_id, user, member + b"|" + repr(int(score)).encode()))
        return out

    async def take_presence(self, handle: bytes) -> bool:
        member, _, score = handle.rpartition(b"|")
        return bool(await self._presence_take(keys=[keys.ROOMS_PRESENCE], args=[member, score]))

    # --- tickets -----------------------------------------------------------------------
    async def create_ticket(self, queue: str, ticket_id: str, data: Mapping[str, Any], now_ms: int, ttl_s: int) -> bool:
        await self.redis.sadd(keys.MM_QUEUES, queue)
        created = await self._ticket_create(
            keys=[keys.mm_waiting(queue), keys.mm_ticket(queue, ticket_id), keys.mm_ticket_changes(queue, ticket_id)],
            args=[ticket_id, orjson.dumps(dict(data)), now_ms, ttl_s],
        )
        return bool(created)

    async def ticket(self, queue: str, ticket_id: str) -> StoredTicket | None:
        raw = await self.redis.hmget(keys.mm_ticket(queue, ticket_id), (b"data", b"state", b"game", b"seats"))
        return _ticket(ticket_id, raw)

    async def queues(self) -> list[str]:
        return sorted(q.decode() for q in await self.redis.smembers(keys.MM_QUEUES))

    async def waiting(self, queue: str, count: int) -> list[StoredTicket]:
        """The `count` oldest waiting tickets of a queue."""
        ids = [t.decode() for t in await self.redis.zrange(keys.mm_waiting(queue), 0, count - 1)]
        async with self.redis.pipeline(transaction=False) as pipe:
            for ticket_id in ids:
                pipe.hmget(keys.mm_ticket(queue, ticket_id), (b"data", b"state", b"game", b"seats"))
            rows = await pipe.execute()
        tickets = [_ticket(i, r) for i, r in zip(ids, rows, strict=True)]
        gone = [i for i, t in zip(ids, tickets, strict=True) if t is None]
        if gone:  # the ticket's hash outlived its TTL while queued: drop it from the queue
            await self.redis.zrem(keys.mm_waiting(queue), *gone)
        return [t for t in tickets if t is not None]

    async def waiting_count(self, queue: str) -> int:
        return int(await self.redis.zcard(keys.mm_waiting(queue)))

    async def claim(
        self, queue: str, match_id: str, match: Mapping[str, Any], ticket_ids: Sequence[str], now_ms: int
    ) -> bool:
        reply = await self._ticket_claim(
            keys=[
                keys.mm_waiting(queue),
                keys.mm_pending(queue),
                keys.mm_match(queue, match_id),
                *(keys.mm_ticket(queue, t) for t in ticket_ids),
            ],
            args=[match_id, orjson.dumps(dict(match)), now_ms, *ticket_ids],
        )
        return bool(reply)

    async def stale_matches(self, queue: str, older_than_ms: int) -> list[tuple[str, dict[str, Any]]]:
        """Claimed matches whose game was not finished by the claimer within the lease."""
        ids = await self.redis.zrangebyscore(keys.mm_pending(queue), "-inf", older_than_ms, start=0, num=100)
        out = []
        for raw_id in ids:
            match_id = raw_id.decode()
            data = await self.redis.get(keys.mm_match(queue, match_id))
            if data is not None:
                out.append((match_id, orjson.loads(data)))
        return out

    async def match_done(
        self, queue: str, match_id: str, game_id: str, seats_by_ticket: Mapping[str, Mapping[str, int]]
    ) -> bool:
        ticket_keys: list[str] = []
        for ticket_id in seats_by_ticket:
            ticket_keys += [keys.mm_ticket(queue, ticket_id), keys.mm_ticket_changes(queue, ticket_id)]
        reply = await self._match_done(
            keys=[keys.mm_pending(queue), keys.mm_match(queue, match_id), *ticket_keys],
            args=[match_id, game_id, *(orjson.dumps(dict(s)) for s in seats_by_ticket.values())],
        )
        return bool(reply)

    async def end_ticket(self, queue: str, ticket_id: str, state: str) -> bool:
        reply = await self._ticket_end(
            keys=[keys.mm_waiting(queue), keys.mm_ticket(queue, ticket_id), keys.mm_ticket_changes(queue, ticket_id)],
            args=[ticket_id, state],
        )
        return bool(reply)

    async def ticket_changes(self, queue: str, ticket_id: str, after: str, block_ms: int) -> str | None:
        """The id of the latest change after `after` (blocking up to `block_ms`), None if none."""
        reply = await self.redis.xread({keys.mm_ticket_changes(queue, ticket_id): after}, block=block_ms)
        if not reply:
            return None
        return str(reply[0][1][-1][0].decode())

    # --- bots --------------------------------------------------------------------------
    async def request_bots(self, seats: Sequence[Mapping[str, str | int]]) -> None:
        """Queue bot seats for the bot runners of the matchmaker processes."""
        if not seats:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for seat in seats:
                pipe.xadd(keys.BOTS, dict(seat), maxlen=100_000, approximate=True)
            await pipe.execute()

    async def ensure_group(self, stream: str, group: str) -> None:
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(stream, group, id="0", mkstream=True)

    async def read_group(
        self, stream: str, group: str, consumer: str, count: int, block_ms: int
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        reply = await self.redis.xreadgroup(group, consumer, {stream: ">"}, count=count, block=block_ms)
        return [(msg_id, fields) for _stream, messages in reply or [] for msg_id, fields in messages]

    async def reclaim(
        self, stream: str, group: str, consumer: str, min_idle_ms: int, count: int
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        reply = await self.redis.xautoclaim(stream, group, consumer, min_idle_ms, "0-0", count=count)
        return [(msg_id, fields) for msg_id, fields in reply[1] if fields]

    async def keep(self, stream: str, group: str, consumer: str, msg_ids: Sequence[bytes]) -> None:
        """Reset the idle time of messages this consumer still works on (so no one reclaims them)."""
        if msg_ids:
            await self.redis.xclaim(stream, group, consumer, 0, list(msg_ids), justid=True)

    async def ack(self, stream: str, group: str, msg_id: bytes) -> None:
        await self.redis.xack(stream, group, msg_id)

    # --- ratings -----------------------------------------------------------------------
    async def read_ratings(self, kind: str, users: Sequence[str]) -> list[bytes | None]:
        if not users:
            return []
        return list(await self.redis.hmget(keys.ratings(kind), list(users)))

    async def store_ratings(
        self,
        kind: str,
        game_id: str,
        users: Sequence[str],
        previous: Sequence[bytes | None],
        new: Sequence[bytes],
        ordinals: Sequence[float],
        history: Sequence[bytes],
    ) -> int:
        """1 rated now, 0 rated before (guard), -1 a rating moved meanwhile (re-read and retry)."""
        reply = await self._rate_game(
            keys=[
                keys.rated(kind, game_id),
                keys.ratings(kind),
                keys.leaderboard(kind),
                *(keys.rating_history(kind, u) for u in users),
            ],
            args=[len(users), *users, *(p or b"" for p in previous), *new, *ordinals, *history],
        )
        return int(reply)

    async def is_rated(self, kind: str, game_id: str) -> bool:
        return bool(await self.redis.exists(keys.rated(kind, game_id)))

    async def leaderboard(self, kind: str, offset: int, count: int) -> list[tuple[str, float]]:
        rows = await self.redis.zrevrange(keys.leaderboard(kind), offset, offset + count - 1, withscores=True)
        return [(u.decode(), float(s)) for u, s in rows]

    async def history(self, kind: str, user: str, offset: int, count: int) -> list[dict[str, Any]]:
        rows = await self.redis.lrange(keys.rating_history(kind, user), offset, offset + count - 1)
        return [orjson.loads(r) for r in rows]

    async def user_names(self, users: Sequence[str]) -> list[str]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for user in users:
                pipe.hget(keys.user(user), "name")
            return [(n or b"").decode() for n in await pipe.execute()]
