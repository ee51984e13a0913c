"""The timer pass (`flotilla:timers`): claim games whose clock needs a look, play the default action
of a seat whose time ran out (or of an absent seat), start the clocks of games whose seats just filled."""

from __future__ import annotations

import asyncio

from flotilla.app import clocks
from flotilla.errors import StoreUnreachable
from flotilla.records import CLOCK
from flotilla.rules import Seat
from flotilla.worker.base import WorkerBase, incident_of, log, wall_clock_ms
from flotilla.worker.plan import SERVER_REQUEST, Work


class Timers(WorkerBase):
    """Turn clocks (a part of `Worker`, worker/base.py)."""

    async def _timer_loop(self) -> None:
        while not self._stopping.is_set():
            busy = False
            try:
                busy = await self.timer_pass()
            except StoreUnreachable as exc:
                log.warning("worker.timers_unavailable", error=str(exc))
            except Exception as exc:  # a bug (a Redis error included): logged, and the timers go on
                incident_of("timers", exc)
            if not busy:  # while timers keep coming due (bots playing absent seats), go on at once
                await asyncio.sleep(self.timer_interval_s)

    async def timer_pass(self) -> bool:
        """Claim due timers; fire timeouts, start clocks, settle each timer to its next wake-up.

        Returns whether any timer was due.
        """
        now = wall_clock_ms()
        leased_until = now + self.timer_lease_ms
        claimed = await self.store.claim_timers(now, self.timer_lease_ms, 100)
        if not claimed:
            return False
        works = []
        for game_id, meta in zip(claimed, await self.store.metas(claimed), strict=True):
            if meta is not None and meta.kind not in self.kinds:
                continue  # another worker's rules: its lease runs out and one of those claims it
            if meta is None or meta.status in ("finished", "abandoned"):
                await self.store.settle_timer(game_id, leased_until, None)
                continue
            config = clocks.ClockConfig.from_plain(meta.clock)
            seat_clocks = clocks.load(meta.seatclock, config, meta.seat_count)
            due = clocks.due(seat_clocks, meta.to_act, now)
            if due:
                works.append(
                    Work(
                        game_id=game_id,
                        seat=Seat(due[0]),
                        request_id=f"{SERVER_REQUEST}clock:{meta.version}",
                        kind=CLOCK,
                        msg_id=f"clock:{game_id}:{meta.version}".encode(),
                        leased_until=leased_until,
                    )
                )
                continue
            started = clocks.schedule(config, seat_clocks, meta.to_act, None, now, running=meta.status == "active")
            if started != seat_clocks and not await self.store.update_clock(
                game_id, meta.version, clocks.dumps(started)
            ):
                await self.store.settle_timer(game_id, leased_until, now)  # moved meanwhile: look again soon
                continue
            await self.store.settle_timer(game_id, leased_until, clocks.next_deadline(started))
        if works:
            await self.handle(works)
        return True
