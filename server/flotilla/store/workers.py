"""The workers as the store sees them: the group's pending work and lag per stream, the registry
of live workers (store/liveness.py), and taking over the work of dead ones."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from redis.exceptions import ResponseError

from flotilla.store import keys
from flotilla.store.client import Script, StoreClient, as_text, flat_fields
from flotilla.store.transient import own_errors


@own_errors
class WorkerRegistry(StoreClient):
    """The consumers of the workers' group and the registry keys.WORKERS."""

    _claim_dead = Script("claim_dead.lua")
    _workers_lapsed = Script("workers_lapsed.lua")

    async def work_stats(self, streams: Sequence[str]) -> list[tuple[str, int, int | None]]:
        """(stream, pending, lag) of the workers' group on each stream; lag is None before Redis 7.
        One pipelined round trip (a worker far from Redis must not pay one per stream)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xinfo_groups(stream)
            replies = await pipe.execute(raise_on_error=False)
        out = []
        for stream, groups in zip(streams, replies, strict=True):
            if isinstance(groups, ResponseError):  # the stream does not exist yet
                continue
            if isinstance(groups, Exception):
                raise groups
            for group in groups:
                name = group.get("name")
                if name in (keys.WORKER_GROUP, keys.WORKER_GROUP.encode()):
                    lag = group.get("lag")
                    out.append((stream, int(group.get("pending", 0)), None if lag is None else int(lag)))
        return out

    async def retire_consumer(self, streams: Sequence[str], consumer: str) -> None:
        """Remove a stopping worker from the group on streams where it holds no pending message
        (where it does, the consumer stays until another worker reclaims those)."""
        for stream in streams:
            pending = await self.redis.xpending_range(stream, keys.WORKER_GROUP, "-", "+", 1, consumername=consumer)
            if not pending:
                await self.redis.xgroup_delconsumer(stream, keys.WORKER_GROUP, consumer)

    async def lapsed_workers(self) -> list[str]:
        """Registered workers whose liveness key is gone (`lapsed_and_next`'s first part)."""
        return (await self.lapsed_and_next())[0]

    async def lapsed_and_next(self) -> tuple[list[str], int | None]:
        """Registered workers whose liveness key is gone (the registry's lapsed scores, checked
        against the keys themselves), and in how many ms the next registered worker lapses unless
        it renews (None: nobody else registered): usually one cheap read that finds nobody."""
        names, next_in = await self._workers_lapsed(keys=[keys.WORKERS])
        lapsed = [as_text(name) for name in names]
        next_ms = None if int(next_in) < 0 else int(next_in)
        if not lapsed:
            return [], next_ms
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in lapsed:
                pipe.exists(keys.worker(name))
            alive = await pipe.execute()
        return [name for name, live in zip(lapsed, alive, strict=True) if not live], next_ms

    async def forget_workers(self, names: Sequence[str]) -> None:
        """Drop swept dead workers from the registry."""
        if names:
            await self.redis.zrem(keys.WORKERS, *names)

    async def claim_from_dead(
        self, streams: Sequence[str], consumer: str, *, quiet_ms: int, count: int
    ) -> list[tuple[str, bytes, dict[bytes, bytes]]]:
        """Take over the pending work of dead workers (their liveness key is gone) and remove them.

        One pipelined round trip lists each stream's consumers; only if another consumer holds
        pending work, or has been quiet for `quiet_ms`, a second one checks their liveness keys;
        dead ones are claimed and removed by `claim_dead.lua` (atomic: one sweeper wins).
        """
        async with self.redis.pipeline(transaction=False) as pipe:
            for stream in streams:
                pipe.xinfo_consumers(stream, keys.WORKER_GROUP)
            listed = await pipe.execute(raise_on_error=False)
        suspects: list[tuple[str, str]] = []
        for stream, consumers in zip(streams, listed, strict=True):
            if isinstance(consumers, Exception):  # no such stream or group yet
                continue
            for row in consumers:
                name = as_text(row["name"])
                if name != consumer and (int(row["pending"]) > 0 or int(row["idle"]) > quiet_ms):
                    suspects.append((stream, name))
        if not suspects:
            return []
        names = sorted({name for _stream, name in suspects})
        async with self.redis.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.exists(keys.worker(name))
            alive = dict(zip(names, await pipe.execute(), strict=True))
        dead = [(stream, name) for stream, name in suspects if not alive[name]]
        replies = await asyncio.gather(
            *(self._claim_dead(keys=[stream], args=[keys.WORKER_GROUP, name, consumer, count]) for stream, name in dead)
        )
        return [
            (stream, entry[0], flat_fields(entry[1]))
            for (stream, _name), claimed in zip(dead, replies, strict=True)
            for entry in claimed
            if entry and entry[1]
        ]
