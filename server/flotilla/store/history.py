"""A game's history as the gateways read it: its event stream (one entry per commit, records.Entry),
ranges of it, blocking reads of one or many games' streams, and the games' heads (store/feeds.py
multiplexes these reads)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from flotilla.records import Entry
from flotilla.store import keys
from flotilla.store.client import StoreClient
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

    async def wait_entries_many(self, client: Any, cursors: Mapping[str, int], block_ms: int) -> dict[str, list[Entry]]:
        """Block on many games' streams at once (single Redis); entries after each cursor, by game."""
        reply = await client.xread(
            {keys.game_events(g): f"0-{v}" for g, v in cursors.items()}, block=block_ms, count=256
        )
        out: dict[str, list[Entry]] = {}
        for key, rows in reply or []:
            game_id = keys.game_of_events(key.decode())
            out[game_id] = [Entry.decode(fields) for _id, fields in rows]
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
