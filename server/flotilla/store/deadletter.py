"""The dead-letter stream (`flotilla:deadletter`): work entries the workers set aside.

An entry lands here when the rules failed on it (`cause` = engine: answered INTERNAL at once) or
when it was delivered more than FLOTILLA_MAX_DELIVERIES times (`cause` = deliveries: it took
workers down with it, one after the other). Its stream, id and fields are kept (`w.<field>`), so
`flotilla deadletter retry` queues it again, as it was, once the bug is fixed: the request id's
outcome record still makes it apply at most once. The stream is capped (MAXLEN ~), never
unbounded. The entry's fields are `records.FIELDS["DeadLetter"]`; `cause` was `why` before
issue 25 (an outcome's reason elsewhere): still written too, and read when `cause` is absent.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flotilla.records import required_field, with_old_names
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.store.transient import own_errors

ENGINE = "engine"
DELIVERIES = "deliveries"
_FIELD = b"w."


@dataclass(frozen=True, slots=True)
class DeadLetter:
    """One set-aside work entry; `id` is its id in the dead-letter stream (empty before it is added)."""

    stream: str
    entry: str  # its id in `stream`
    fields: Mapping[bytes, bytes]  # the work entry's fields, as they were
    why: str  # ENGINE | DELIVERIES
    incident: str
    deliveries: int
    at_ms: int = 0
    id: str = ""

    def record(self) -> dict[bytes | str, bytes | str | int]:
        """The dead-letter stream entry's fields."""
        head: dict[str, bytes | str | int] = {
            "stream": self.stream,
            "entry": self.entry,
            "cause": self.why,
            "incident": self.incident,
            "deliveries": self.deliveries,
            "at": self.at_ms or int(time.time() * 1000),
        }
        out: dict[bytes | str, bytes | str | int] = dict(with_old_names("DeadLetter", head).items())
        return out | {_FIELD + name: value for name, value in self.fields.items()}

    @classmethod
    def decode(cls, entry_id: bytes, record: Mapping[bytes, bytes]) -> DeadLetter:
        return cls(
            stream=record[b"stream"].decode(),
            entry=record[b"entry"].decode(),
            fields={name[len(_FIELD) :]: value for name, value in record.items() if name.startswith(_FIELD)},
            why=required_field("DeadLetter", record, "cause").decode(),
            incident=record[b"incident"].decode(),
            deliveries=int(record[b"deliveries"]),
            at_ms=int(record[b"at"]),
            id=entry_id.decode(),
        )


@own_errors
class DeadLetters:
    """The dead-letter stream of one Redis (or cluster: it is one key, touched alone)."""

    @classmethod
    def of(cls, store: RedisStore, maxlen: int = 10_000) -> DeadLetters:
        """The dead letters on `store`'s connections (callers never hold a Redis client)."""
        return cls(store.redis, maxlen)

    def __init__(self, redis: Any, maxlen: int = 10_000) -> None:
        self.redis = redis
        self.maxlen = maxlen

    async def add(self, letters: Sequence[DeadLetter]) -> None:
        """Append `letters` (before their work entries are acknowledged: a crash between the two
        sets an entry aside twice, never loses it)."""
        if not letters:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for letter in letters:
                pipe.xadd(keys.DEAD_LETTERS, letter.record(), maxlen=self.maxlen, approximate=True)
            await pipe.execute()

    async def deliveries(self, entries: Sequence[tuple[str, bytes]]) -> list[int]:
        """How many times each (work stream, entry id) was delivered (0: no longer pending)."""
        if not entries:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream, entry_id in entries:
                pipe.xpending_range(stream, keys.WORKER_GROUP, entry_id, entry_id, 1)
            rows = await pipe.execute()
        return [int(found[0]["times_delivered"]) if found else 0 for found in rows]

    async def length(self) -> int:
        return int(await self.redis.xlen(keys.DEAD_LETTERS))

    async def page(self, count: int, after: str = "-") -> list[DeadLetter]:
        """The oldest `count` dead letters after id `after` (exclusive; "-": from the first)."""
        start = after if after == "-" else f"({after}"
        rows = await self.redis.xrange(keys.DEAD_LETTERS, start, "+", count=count)
        return [DeadLetter.decode(entry_id, record) for entry_id, record in rows]

    async def retry(self, ids: Sequence[str]) -> list[DeadLetter]:
        """Queue these dead letters' entries again on their work streams, as they were, and drop them
        from the dead-letter stream; returns those found (an unknown id is skipped)."""
        done = []
        for letter_id in ids:
            rows = await self.redis.xrange(keys.DEAD_LETTERS, letter_id, letter_id)
            if not rows:
                continue
            letter = DeadLetter.decode(*rows[0])
            await self.redis.xadd(letter.stream, dict(letter.fields))
            await self.redis.xdel(keys.DEAD_LETTERS, letter_id)
            done.append(letter)
        return done
