"""Users: a user's record (display name, kind), made at sign-in, kept while their sessions live."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flotilla.records import ACCOUNT, GUEST
from flotilla.store import keys
from flotilla.store.client import StoreClient
from flotilla.store.transient import own_errors


async def user_names(client: Any, users: Sequence[str]) -> list[tuple[str, str]]:
    """Each user's (display name, kind) from their record (`create_user`; a guest's made before
    kinds were kept says `guest` only); ("", "") once it is gone."""
    async with client.pipeline(transaction=False) as pipe:
        for user in users:
            pipe.hmget(keys.user(user), ("name", "kind", "guest"))
        rows = await pipe.execute()
    return [((n or b"").decode(), k.decode() if k else GUEST if g else "") for n, k, g in rows]


@own_errors
class UserRecords(StoreClient):
    """The user records (keys.user)."""

    async def create_user(self, user_id: str, name: str, created_ms: int, *, kind: str = ACCOUNT) -> None:
        """A user's record; it expires with the user's sessions (`lifetimes.user_s`). Its `kind`
        (identity/principal.py) is shown beside the name; a guest's also has field `guest`: games
        with guests move no ratings (lobby/ratings.py)."""
        record: dict[str, str | int] = {"name": name, "created_ms": created_ms, "kind": kind}
        if kind == GUEST:
            record["guest"] = 1
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(keys.user(user_id), mapping=record)
            if self.lifetimes.user_s:
                pipe.expire(keys.user(user_id), self.lifetimes.user_s)
            await pipe.execute()

    async def keep_user(self, user_id: str) -> None:
        """A guest who refreshes a session keeps their record as long (a rated user's has no TTL)."""
        if self.lifetimes.user_s and await self.redis.ttl(keys.user(user_id)) > 0:
            await self.redis.expire(keys.user(user_id), self.lifetimes.user_s)
