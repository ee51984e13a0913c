"""The janitor's side of the store (worker/janitor.py): its lease, and sweeps of the listing
indexes for entries of expired games and rooms."""

from __future__ import annotations

from flotilla.store import keys
from flotilla.store.client import Script, StoreClient, as_text
from flotilla.store.transient import own_errors


@own_errors
class Sweeps(StoreClient):
    """Leases and listing sweeps."""

    _drop_gone_game = Script("drop_gone_game.lua")
    _zrem_if_score = Script("zrem_if_score.lua")

    async def take_lease(self, key: str, owner: str, ms: int) -> bool:
        """True when `owner` now holds the lease `key` for `ms` (no one else held it)."""
        return bool(await self.redis.set(key, owner, nx=True, px=ms))

    async def sweep_listing(self, index: str, budget: int) -> tuple[int, int]:
        """Look at about `budget` entries of a listing index (a ZSET of game or room ids), resuming
        where the last sweep of it stopped; drop those whose game or room is gone (and what is
        left of such a game). Returns (entries looked at, entries dropped)."""
        rooms = index.startswith(keys.ROOMS_LISTED)
        cursor = int(await self.redis.hget(keys.JANITOR_CURSORS, index) or 0)
        seen = dropped = 0
        while seen < budget:
            cursor, rows = await self.redis.zscan(index, cursor, count=min(budget - seen, 500))
            seen += len(rows)
            ids = [as_text(member) for member, _score in rows]
            async with self.redis.pipeline(transaction=False) as pipe:
                for entity in ids:
                    pipe.exists(keys.room(entity) if rooms else keys.game(entity))
                exists = await pipe.execute()
            for (member, score), entity, found in zip(rows, ids, exists, strict=True):
                if found:
                    continue
                if not rooms and not await self._drop_gone_game(keys=keys.game_keys(entity)):
                    continue  # re-created meanwhile
                dropped += int(await self._zrem_if_score(keys=[index], args=[member, repr(score)]))
            if cursor == 0:
                break
        await self.redis.hset(keys.JANITOR_CURSORS, index, cursor)
        return seen, dropped
