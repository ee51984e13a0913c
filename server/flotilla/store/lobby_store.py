"""Rooms, matchmaking tickets, bot seats and ratings in Redis (keys in `store.keys`); live reads of
their change streams go through one `StreamHub` (store/stream_hub.py)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from flotilla.errors import AlreadyWaiting, QueuesFull
from flotilla.records import BotSeat, RoomRow
from flotilla.store import keys
from flotilla.store.client import script_source
from flotilla.store.reach import StoreReach
from flotilla.store.redis_store import RedisStore
from flotilla.store.stream_hub import StreamEntries, StreamHub
from flotilla.store.transient import own_errors
from flotilla.store.users import user_names

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


def _seconds_left(pttl_ms: int) -> float | None:
    """A PTTL reply in seconds: None when the key is gone, inf when it never expires."""
    if pttl_ms == -2:
        return None
    return math.inf if pttl_ms < 0 else pttl_ms / 1000


@own_errors
class LobbyStore:
    """The Redis side of lobbies, matchmaking and ratings; every script is atomic on its own."""

    @classmethod
    def of(cls, store: RedisStore, reach: StoreReach | None = None) -> LobbyStore:
        """The lobby store on `store`'s connections (callers never hold a Redis client)."""
        return cls(store.redis, reach)

    def __init__(self, client: aioredis.Redis, reach: StoreReach | None = None) -> None:
        """`reach`: the gateway's probe of Redis; its watch streams end once it says lost (`StreamHub`)."""
        self.redis: Any = client
        self._room_update = client.register_script(script_source("room_update.lua"))
        self._ticket_create = client.register_script(script_source("ticket_create.lua"))
        self._queue_admit = client.register_script(script_source("queue_admit.lua"))
        self._ticket_claim = client.register_script(script_source("ticket_claim.lua"))
        self._match_done = client.register_script(script_source("match_done.lua"))
        self._ticket_end = client.register_script(script_source("ticket_end.lua"))
        self._rate_game = client.register_script(script_source("rate_game.lua"))
        self._mark_rated = client.register_script(script_source("mark_rated.lua"))
        self._presence_take = client.register_script(script_source("presence_take.lua"))
        self.hub = StreamHub(client, reach=reach)

    async def close(self) -> None:
        """Stop the live reads (their connections are outside the shared pool)."""
        await self.hub.close()

    # --- rooms -------------------------------------------------------------------------
    async def next_room_seq(self) -> int:
        return int(await self.redis.incr(keys.ROOMS_SEQ))

    async def room(self, room_id: str) -> RoomRow | None:
        version, data = await self.redis.hmget(keys.room(room_id), (b"version", b"data"))
        if data is None:
            return None
        return RoomRow(int(version), orjson.loads(data))

    async def claim_room_code(self, code: str, room_id: str) -> bool:
        """Make `code` find `room_id` for a room's lifetime; False when another room has it."""
        return bool(await self.redis.set(keys.room_code(code), room_id, nx=True, ex=ROOM_TTL_S))

    async def room_of_code(self, code: str) -> str | None:
        """The id of the room whose join code `code` is (None: none, or it expired)."""
        found = await self.redis.get(keys.room_code(code))
        return None if found is None else found.decode()

    async def rooms(self, room_ids: Sequence[str]) -> list[RoomRow | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in room_ids:
                pipe.hmget(keys.room(room_id), (b"version", b"data"))
            rows = await pipe.execute()
        return [None if data is None else RoomRow(int(version), orjson.loads(data)) for version, data in rows]

    async def write_room(
        self, room_id: str, expected: int, room: Mapping[str, Any], listing: float | None
    ) -> int | None:
        """Compare-and-set the room; then list it under `listing` (None: unlist). None if it moved."""
        reply = await self._room_update(
            keys=[keys.room(room_id), keys.room_changes(room_id)], args=[expected, orjson.dumps(room), ROOM_TTL_S]
        )
        if int(reply[0]) < 0:
            return None
        await self.relist(room_id, str(room["kind"]), listing, code=str(room.get("code") or ""))
        return int(reply[0])

    async def relist(self, room_id: str, kind: str, listing: float | None, *, code: str = "") -> None:
        """The listing indexes are derived from rooms (a crash between the two is healed on read).
        With the room's join `code`, its lookup key lives as long as the room (each change renews both)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in (keys.ROOMS_LISTED, keys.rooms_listed(kind)):
                if listing is None:
                    pipe.zrem(key, room_id)
                else:
                    pipe.zadd(key, {room_id: listing})
            if code:
                pipe.expire(keys.room_code(code), ROOM_TTL_S)
            await pipe.execute()

    async def unlist(self, room_id: str, kind: str) -> None:
        """Drop a room that no longer exists from the listing (the kind's index too, if known)."""
        await self.redis.zrem(keys.ROOMS_LISTED, room_id)
        if kind:
            await self.redis.zrem(keys.rooms_listed(kind), room_id)

    async def listed_rooms(self, kind: str, low: float, after: float | None, count: int) -> list[tuple[str, float]]:
        """(room id, score) ascending, from `low` (inclusive) or after the cursor `after` (exclusive)."""
        key = keys.rooms_listed(kind) if kind else keys.ROOMS_LISTED
        start = f"({after}" if after is not None and after >= low else str(low)
        rows = await self.redis.zrangebyscore(key, start, "+inf", start=0, num=count, withscores=True)
        return [(room_id.decode(), score) for room_id, score in rows]

    async def room_with_expiry(self, room_id: str) -> tuple[int, dict[str, Any], float] | None:
        """The room (version, data) and the seconds until it expires (inf: never), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(keys.room(room_id), (b"version", b"data"))
            pipe.pttl(keys.room(room_id))
            (version, data), pttl = await pipe.execute()
        left = _seconds_left(pttl)
        if data is None or left is None:
            return None
        return int(version), orjson.loads(data), left

    async def room_expires_in(self, room_id: str) -> float | None:
        """Seconds until the room expires (inf: never); None if it is gone."""
        return _seconds_left(await self.redis.pttl(keys.room(room_id)))

    def room_feed(self, room_id: str, after_version: int) -> Any:
        """Live batches of the room's change stream after `after_version` (see `StreamHub.subscribe`)."""
        return self.hub.subscribe(keys.room_changes(room_id), f"0-{after_version}")

    async def room_changes(self, room_id: str, after_version: int) -> list[RoomRow]:
        """Stored room versions after `after_version` (what a feed's None asks to re-read)."""
        return self.parse_room_changes(await self.redis.xrange(keys.room_changes(room_id), f"(0-{after_version}", "+"))

    @staticmethod
    def parse_room_changes(batch: StreamEntries) -> list[RoomRow]:
        return [RoomRow.of_change(msg_id, fields) for msg_id, fields in batch]

    async def mark_starting(self, room_id: str, now_ms: int) -> None:
        await self.redis.zadd(keys.ROOMS_STARTING, {room_id: now_ms}, nx=True)

    async def done_starting(self, room_id: str) -> None:
        await self.redis.zrem(keys.ROOMS_STARTING, room_id)

    async def stale_starting(self, older_than_ms: int, count: int) -> list[str]:
        rows = await self.redis.zrangebyscore(keys.ROOMS_STARTING, "-inf", older_than_ms, start=0, num=count)
        return [r.decode() for r in rows]

    async def touch_presence(self, room_id: str, user: str, now_ms: int) -> None:
        await self.redis.zadd(keys.ROOMS_PRESENCE, {f"{room_id}:{user}": now_ms})

    async def touch_presences(self, members: Sequence[tuple[str, str]], now_ms: int) -> None:
        """`touch_presence` for many (room id, user) at once, in chunks of one command."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for i in range(0, len(members), 1000):
                pipe.zadd(keys.ROOMS_PRESENCE, {f"{r}:{u}": now_ms for r, u in members[i : i + 1000]})
            await pipe.execute()

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
    async def create_ticket(
        self,
        queue: str,
        ticket_id: str,
        data: Mapping[str, Any],
        now_ms: int,
        ttl_s: int,
        users: Sequence[str] = (),
        *,
        max_queues: int = 0,
    ) -> bool:
        """Queue a ticket (False: that ticket id exists already). Raises AlreadyWaiting when one of
        `users` (the party) still waits in another ticket of this queue, QueuesFull when the queue
        is new and `max_queues` (0: no bound) are there already.

        The queue set and the queue are on different slots: the queue is added before the ticket
        (within the bound) and again after it, so a `prune_queue` in between cannot lose it."""
        if not await self._queue_admit(keys=[keys.MM_QUEUES], args=[queue, max_queues]):
            raise QueuesFull(queue)
        reply = await self._ticket_create(
            keys=[
                keys.mm_waiting(queue),
                keys.mm_ticket(queue, ticket_id),
                keys.mm_ticket_changes(queue, ticket_id),
                *(keys.mm_user(queue, u) for u in users),
            ],
            args=[ticket_id, orjson.dumps(dict(data)), now_ms, ttl_s],
        )
        if int(reply[0]) < 0:
            raise AlreadyWaiting(reply[1].decode(), users[int(reply[2])])
        if int(reply[0]):
            await self.redis.sadd(keys.MM_QUEUES, queue)
        return bool(int(reply[0]))

    async def queue_load(self, queue: str) -> tuple[int, int]:
        """(waiting tickets, claimed matches not yet done) of a queue, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(keys.mm_waiting(queue))
            pipe.zcard(keys.mm_pending(queue))
            waiting, pending = await pipe.execute()
        return int(waiting), int(pending)

    async def prune_queue(self, queue: str) -> bool:
        """Drop a queue seen empty from the set of queues; False (and kept) if it holds something now.

        Removed first, then looked at again: a ticket queued meanwhile is seen here, or its
        creator adds the queue back after it (`create_ticket`), so no waiting ticket is left out."""
        await self.redis.srem(keys.MM_QUEUES, queue)
        if any(await self.queue_load(queue)):
            await self.redis.sadd(keys.MM_QUEUES, queue)
            return False
        return True

    async def has_queue(self, queue: str) -> bool:
        """Whether `queue` is in the set of queues now (someone waits in it, or it awaits pruning)."""
        return bool(await self.redis.sismember(keys.MM_QUEUES, queue))

    async def ticket_states(self, tickets: Sequence[tuple[str, str]]) -> list[str | None]:
        """The state of each (queue, ticket id), None when the ticket is gone, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for queue, ticket_id in tickets:
                pipe.hget(keys.mm_ticket(queue, ticket_id), b"state")
            states = await pipe.execute()
        return [None if state is None else state.decode() for state in states]

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

    async def ticket_with_expiry(self, queue: str, ticket_id: str) -> tuple[StoredTicket, float] | None:
        """The ticket and the seconds until it expires (inf: never), in one round trip."""
        key = keys.mm_ticket(queue, ticket_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(key, (b"data", b"state", b"game", b"seats"))
            pipe.pttl(key)
            raw, pttl = await pipe.execute()
        ticket, left = _ticket(ticket_id, raw), _seconds_left(pttl)
        return None if ticket is None or left is None else (ticket, left)

    async def ticket_expires_in(self, queue: str, ticket_id: str) -> float | None:
        """Seconds until the ticket expires (inf: never); None if it is gone."""
        return _seconds_left(await self.redis.pttl(keys.mm_ticket(queue, ticket_id)))

    def ticket_feed(self, queue: str, ticket_id: str) -> Any:
        """Live batches of the ticket's change stream (any batch: the ticket may have changed)."""
        return self.hub.subscribe(keys.mm_ticket_changes(queue, ticket_id), "0-0")

    # --- bots --------------------------------------------------------------------------
    async def request_bots(self, seats: Sequence[BotSeat]) -> None:
        """Queue bot seats for the bot runners of the matchmaker processes."""
        if not seats:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for seat in seats:
                pipe.xadd(keys.BOTS, seat.fields(), maxlen=100_000, approximate=True)
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
        """Acknowledge and delete a handled message (each of these streams has one group)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xack(stream, group, msg_id)
            pipe.xdel(stream, msg_id)
            await pipe.execute()

    # --- ratings -----------------------------------------------------------------------
    async def mark_rated_game(self, game_id: str) -> bool:
        """Mark a game whose end is to move ratings (a field of the game: it goes with the game)."""
        return bool(await self._mark_rated(keys=[keys.game(game_id)]))

    async def is_rated_game(self, game_id: str) -> bool:
        """Whether the game was marked rated when it was made (`mark_rated_game`)."""
        return bool(await self.redis.hget(keys.game(game_id), "rated") == b"1")

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
        keep_guard_ms: int = 0,
    ) -> int:
        """1 rated now, 0 rated before (guard), -1 a rating moved meanwhile (re-read and retry).

        The guard is kept `keep_guard_ms` (0: for good): it need not outlive the game, which
        cannot be rated once it is gone."""
        reply = await self._rate_game(
            keys=[
                keys.rated(kind, game_id),
                keys.ratings(kind),
                keys.leaderboard(kind),
                *(keys.rating_history(kind, u) for u in users),
            ],
            args=[len(users), *users, *(p or b"" for p in previous), *new, *ordinals, *history, keep_guard_ms],
        )
        if int(reply) == 1:  # a rated user's name stays on the leaderboard: keep the record
            async with self.redis.pipeline(transaction=False) as pipe:
                for user in users:
                    pipe.persist(keys.user(user))
                await pipe.execute()
        return int(reply)

    async def is_rated(self, kind: str, game_id: str) -> bool:
        return bool(await self.redis.exists(keys.rated(kind, game_id)))

    async def leaderboard(self, kind: str, offset: int, count: int) -> list[tuple[str, float]]:
        rows = await self.redis.zrevrange(keys.leaderboard(kind), offset, offset + count - 1, withscores=True)
        return [(u.decode(), float(s)) for u, s in rows]

    async def history(self, kind: str, user: str, offset: int, count: int) -> list[dict[str, Any]]:
        rows = await self.redis.lrange(keys.rating_history(kind, user), offset, offset + count - 1)
        return [orjson.loads(r) for r in rows]

    async def user_names(self, users: Sequence[str]) -> list[tuple[str, str]]:
        """Each user's (display name, kind) (redis_store.user_names)."""
        return await user_names(self.redis, users)
