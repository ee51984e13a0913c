"""A worker's cache of committed states by game, and the prefetch that reads (or skips reading)
what a round needs: earlier outcomes, clocks and states. Checked on every commit by the version
compare-and-set, so a stale entry costs one retry (`FastPath`, worker/plan.py)."""

from __future__ import annotations

from flotilla.app import clocks
from flotilla.app.errors import AppError
from flotilla.app.host import host_for
from flotilla.worker.base import WorkerBase, log
from flotilla.worker.plan import Clocks, Loaded, MessageKey, Work


class Prefetching(WorkerBase):
    """The states cache (a part of `Worker`, worker/base.py)."""

    async def prefetch(
        self, works: list[Work], broken: dict[str, Exception] | None = None
    ) -> tuple[list[bytes | None], list[Clocks], set[MessageKey]]:
        """Earlier outcomes of these request ids, the games' clocks, and their current states;
        and the work left unread (planned on the cache alone). A state the rules cannot decode
        is not cached: what decoding raised goes into `broken` by game (`plan_round` fails its work).

        One round trip for the whole round, or none: while this worker's cached states are
        rarely stale (one worker, or games that stay with it), work on a cached game is planned
        on the cache and the commit script's compare-and-set is the check (`FastPath`). Else
        a cached state is kept when its version is still the stored one (no decode);
        otherwise the stored state is decoded.
        """
        earlier: list[bytes | None] = [None] * len(works)
        clock_rows: list[Clocks] = [Clocks("", clocks.ClockConfig(), None)] * len(works)
        unread: set[MessageKey] = set()
        reading: list[int] = []
        fast = self.fast_path.on()
        for i, work in enumerate(works):
            cached = self.cache.get(work.game_id)
            if fast and cached is not None and cached.clock is not None and work.game_id not in self.verify:
                clock_rows[i] = cached.clock
                unread.add(work.key)
            else:
                reading.append(i)
        if not reading:
            return earlier, clock_rows, unread
        rows = await self.store.prefetch([(works[i].game_id, works[i].seat, works[i].request_id) for i in reading])
        for i, (previous, meta, state, seatclock) in zip(reading, rows, strict=True):
            work = works[i]
            earlier[i] = previous
            self.verify.discard(work.game_id)
            if meta is None:
                self.cache.pop(work.game_id, None)
                continue
            clock = Clocks(meta.status, clocks.ClockConfig.from_plain(meta.clock), seatclock or None)
            clock_rows[i] = clock
            cached = self.cache.get(work.game_id)
            if cached is not None and cached.version == meta.version and cached.lineage == meta.head:
                cached.clock = clock
                continue
            try:
                host = host_for(meta.kind, meta.rules_version)
            except AppError as exc:  # routed to the wrong rules version: never apply other rules
                log.error("worker.wrong_rules_version", game=work.game_id, error=exc.message)
                self.cache.pop(work.game_id, None)
                continue
            self.beat_now()
            try:
                decoded = host.loads(state or b"")
            except Exception as exc:  # a snapshot the rules' codec or upcasters fail on
                self.cache.pop(work.game_id, None)
                if broken is not None:
                    broken[work.game_id] = exc
                continue
            loaded = Loaded(host, meta.version, decoded, meta.status == "finished", meta.seat_count, meta.head, clock)
            self.remember(work.game_id, loaded)
        return earlier, clock_rows, unread

    def remember(self, game_id: str, loaded: Loaded) -> None:
        self.cache[game_id] = loaded
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
