"""The gateways' inboxes: a stream per gateway process where workers put the outcomes addressed
to it (records.InboxReply; app/inbox.py reads it)."""

from __future__ import annotations

from flotilla.store.client import Script, StoreClient
from flotilla.store.transient import own_errors


@own_errors
class Inboxes(StoreClient):
    """Keeping, reading and dropping an inbox."""

    _keep_inbox = Script("keep_inbox.lua")

    async def keep_inbox(self, inbox: str, ttl_ms: int) -> bool:
        """Create the inbox if it is missing (True then) and (re)set its TTL."""
        return bool(await self._keep_inbox(keys=[inbox], args=[ttl_ms]))

    async def read_inbox(
        self, inbox: str, after: str, block_ms: int, *, trim: bool = False
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Outcomes after `after`, waiting up to `block_ms`; `trim` first drops the entries before
        `after` (read already), in the same round trip on a single Redis."""
        trim = trim and after != "0-0"
        if trim and not self.cluster:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.xtrim(inbox, minid=after, approximate=False)
                pipe.xread({inbox: after}, block=block_ms, count=1000)
                reply = (await pipe.execute())[-1]
        else:
            if trim:
                await self.redis.xtrim(inbox, minid=after, approximate=False)
            reply = await self.redis.xread({inbox: after}, block=block_ms, count=1000)
        return list(reply[0][1]) if reply else []

    async def drop_inbox(self, inbox: str) -> None:
        await self.redis.delete(inbox)
