"""A game's history as the gateways read it: its event stream (one entry per commit, records.Entry),
ranges of it, blocking reads of one or many games' streams, and the games' heads (store/feeds.py
multiplexes these reads)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence

from flotilla.records import Entry
from flotilla.store import keys
from flotilla.store.client import StoreClient, stream_messages
from flotilla.store.held import HeldConnection, pack
from flotilla.store.transient import own_errors


@own_errors
class History(StoreClient):
    """Reads of the games' event streams (keys.game_events)."""

    async def entries_after(self, game_id: str, after_version: int, count: int | None = None) -> list[Entry]:
        """Commits whose last event id is greater than `after_version`, oldest first."""
        rows = await self.redis.xrange(keys.game_events(game_id), f"(0-{after_version}", "+", count=count)
        return [Entry.decode(fields) for _id, fields in rows]

    async def entry_fields_from(self, game_id: str, version: int, count: int) -> list[Mapping[bytes, bytes]]:
        """At most `count` commits from the one ending at `version` (included, if it is a commit),
        oldest first, as stored (decode each with `Entry.decode`)."""
        rows = await self.redis.xrange(keys.game_events(game_id), f"0-{version}", "+", count=count)
        return [fields for _id, fields in rows]

    async def heads(self, game_ids: Sequence[str]) -> list[tuple[int, str] | None]:
        """Each game's (version, lineage) now, in one round trip; None for a game that is gone."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game(game_id), (b"version", b"head"))
            rows = await pipe.execute()
        return [None if v is None else (int(v), (h or b"").decode()) for v, h in rows]

    async def wait_entries_many(
        self, held: HeldConnection, cursors: Mapping[str, int], block_ms: int
    ) -> dict[str, list[Entry]]:
        """Block on many games' streams at once (single Redis) on `held`, a reader's own connection:
        entries after each cursor, by game. The XREAD packed here and its raw reply parsed here
        (`stream_messages`), not by redis-py's generic layers."""
        streams = [keys.game_events(g) for g in cursors]
        command = pack(
            ("XREAD", "COUNT", 256, "BLOCK", block_ms, "STREAMS", *streams, *[f"0-{v}" for v in cursors.values()])
        )
        (reply,) = await held.round_trip([command])
        if isinstance(reply, Exception):
            raise reply
        out: dict[str, list[Entry]] = {}
        for stream, _id, fields in stream_messages(reply):
            out.setdefault(keys.game_of_events(stream), []).append(Entry.decode(fields))
        return out

    async def wait_entries(self, game_id: str, after_version: int, block_ms: int) -> list[Entry]:
        """Block until commits after `after_version` exist (or `block_ms` passes)."""
        reply = await self.redis.xread({keys.game_events(game_id): f"0-{after_version}"}, block=block_ms)
        if not reply:
            return []
        return [Entry.decode(fields) for _id, fields in reply[0][1]]

    async def iter_events(self, game_id: str, after_version: int, block_ms: int) -> AsyncIterator[list[Entry]]:
        """Entries after `after_version` as they arrive: batches, empty on a quiet `block_ms`."""
        cursor = after_version
        while True:
            batch = await self.wait_entries(game_id, cursor, block_ms)
            if batch:
                cursor = batch[-1].version
            yield batch
