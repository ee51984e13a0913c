"""Turn clocks: the timer index (keys.TIMERS) of when a worker must look at a game's clocks, and
the leases workers take on due games."""

from __future__ import annotations

from collections.abc import Mapping

from flotilla.store import keys
from flotilla.store.client import Script, StoreClient
from flotilla.store.transient import own_errors


@own_errors
class Timers(StoreClient):
    """Scheduling, claiming and settling the games' wake-ups."""

    _claim_timers = Script("claim_timers.lua")
    _settle_timer = Script("settle_timer.lua")

    async def wake(self, wakeups: Mapping[str, int]) -> None:
        """Have a worker look at each game's clocks at the given ms at the latest (never later)."""
        if wakeups:
            await self.redis.zadd(keys.TIMERS, dict(wakeups), lt=True)

    async def claim_timers(self, now_ms: int, lease_ms: int, count: int) -> list[str]:
        """Due games, each leased to this caller until now + lease (claim_timers.lua)."""
        due = await self._claim_timers(keys=[keys.TIMERS], args=[now_ms, lease_ms, count])
        return [g.decode() for g in due]

    async def settle_timer(self, game_id: str, leased_until_ms: int, next_ms: int | None) -> None:
        """Move a claimed timer to its next wake-up, unless the game was woken meanwhile."""
        await self._settle_timer(
            keys=[keys.TIMERS], args=[game_id, leased_until_ms, "" if next_ms is None else next_ms]
        )
