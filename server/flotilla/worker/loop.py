"""The worker loop: XREADGROUP -> apply the rules -> commit script -> outcome to the gateway -> XACK.

Stateless: the only thing kept between batches is a cache of committed states by game,
checked on every commit by the version compare-and-set, so a stale entry costs one retry.

A worker keeps a liveness key (`flotilla:worker:{consumer}`, see `store.liveness`) and its
score in the worker registry. Every worker reads the registry when its next score lapses (every
`sweep_ms` at most often, the liveness TTL at least): when it names a worker whose liveness key
is gone (the process died), the work streams' consumers are listed,
the dead consumer's pending messages are claimed at once and applied, and it is removed.
A live worker stuck on its messages for `claim_idle_ms` loses
them to XAUTOCLAIM (the backstop). Either way the version compare-and-set and the
per-request outcome record make applying a message twice harmless (applied at most once).
An applied message is acknowledged and deleted from its stream.

Per batch, each game advances at most one action per round (rounds repeat until the
batch is done), so a commit is only ever computed from a committed state.

Beside the work streams, every worker runs the timer pass (`flotilla:timers`): it claims
games whose clock needs a look, plays the default action of a seat whose time ran out (or
of an absent seat), and starts the clocks of games whose seats just filled up.

`Worker` is assembled from parts by subject: worker/base.py (its knobs and state), deliveries.py
(entries as read, the dead letters), reclaim.py (the sweep), timers.py (the timer pass), prefetch.py
(the states cache); here its loops and the rounds of one batch (`handle`, `round`), whose pure
decisions are worker/plan.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Set as AbstractSet
from typing import Any

from flotilla import metrics
from flotilla.app.outcome import Outcome
from flotilla.errors import StoreError, StoreUnreachable, WorkGroupLost
from flotilla.records import ACT, CLOCK, InboxReply
from flotilla.store import keys
from flotilla.store.commit_script import CommitRequest, Committed
from flotilla.store.liveness import Liveness
from flotilla.store.transient import RETRY_PAUSE_S
from flotilla.worker.base import incident_of, log, wall_clock_ms, work_streams
from flotilla.worker.deliveries import ISOLATE_FROM, Message, parse_work
from flotilla.worker.janitor import janitor_pass
from flotilla.worker.plan import (
    NOT_REPLICATED,
    MessageKey,
    Reply,
    RoundPlan,
    RoundResult,
    Work,
    plan_round,
    reannounced,
    settle_round,
)
from flotilla.worker.prefetch import Prefetching
from flotilla.worker.reclaim import Reclaiming
from flotilla.worker.timers import Timers

__all__ = ["ISOLATE_FROM", "Message", "Worker", "parse_work", "work_streams"]  # their old home

STATS_INTERVAL_S = 5.0
READ_AHEAD_UP_TO = 1
"""A batch of at most this many new messages sends the work loop's next read with its commits (one
write fewer per move when moves come one at a time); a larger batch means work queues up, and the
read sent after the batch gathers more (a read sent ahead returns with the first entry to come)."""
BEAT_S = 0.1  # how often the event loop tells the watchdog it runs (FLOTILLA_WORKER_STALL_S)


class Worker(Reclaiming, Timers, Prefetching):
    """Applies submitted actions and fires turn clocks. Run any number side by side.

    Its parts by subject: worker/base.py (knobs and state), deliveries.py, reclaim.py, timers.py,
    prefetch.py; here the loops and one batch's rounds."""

    def stop(self) -> None:
        """Finish the batch in hand, then return from `run` (SIGTERM)."""
        self._stopping.set()

    async def run(self) -> None:
        """Serve the work streams and the timers until `stop()`, also one called before it started
        (then it returns at once). Once it returned, the worker may be run again."""
        self.beat_now()
        beat = asyncio.create_task(self._beat_loop(), name="beat")  # before the watchdog (asyncio.run ends it)
        liveness = Liveness.of(
            self.store,
            self.consumer,
            ttl_ms=self.liveness_ttl_ms,
            refresh_ms=self.liveness_refresh_ms,
            stalled_for=lambda: time.monotonic() - self.beat,
            stall_s=self.stall_s,
        )
        await asyncio.to_thread(liveness.start)
        for stream in self.streams:
            await self.store.ensure_group(stream)
        log.info("worker.started", consumer=self.consumer, streams=len(self.streams))
        helpers = [
            asyncio.create_task(self._timer_loop(), name="timers"),
            asyncio.create_task(self._sweep_loop(), name="sweep"),
            asyncio.create_task(self._janitor_loop(), name="janitor"),
            beat,
        ]
        try:
            await self._work_loop()
        finally:
            for task in helpers:
                task.cancel()
            await asyncio.wait(helpers, timeout=1)
            with contextlib.suppress(StoreUnreachable):
                await self.store.retire_consumer(self.streams, self.consumer)
            await asyncio.to_thread(liveness.stop)
            self._stopping.clear()  # this stop is served: a later run serves until the next one
        log.info(
            "worker.stopped",
            consumer=self.consumer,
            applied=self.applied,
            rejected=self.rejected,
            timeouts=self.timeouts,
            reclaimed=self.reclaimed,
        )

    async def _work_loop(self) -> None:
        last_claim = last_stats = 0.0
        while not self._stopping.is_set():
            try:
                if time.monotonic() - last_stats > STATS_INTERVAL_S:
                    last_stats = time.monotonic()
                    for stream, pending, lag in await self.store.work_stats(self.streams):
                        metrics.WORK_PENDING.labels(stream).set(pending)
                        if lag is not None:
                            metrics.WORK_LAG.labels(stream).set(lag)
                    metrics.DEAD_LETTERS_KEPT.set(await self.dead_letters.length())
                messages: list[Message] = []
                reclaimed: list[Message] = []
                ahead = self.take_ahead()
                if ahead is not None:  # sent with the last batch's commits
                    messages = await self.store.read_reply(ahead)
                if self.orphans:
                    self.orphans = False
                    messages = []  # delivered to this consumer: read again just below
                    reclaimed = await self.store.read_own_pending(self.streams, self.consumer, self.batch)
                    if reclaimed:
                        self._count_reclaimed("own", reclaimed)
                elif ahead is None:
                    messages = await self.store.read_work(self.streams, self.consumer, self.batch, self.block_ms)
                if time.monotonic() - last_claim > self.claim_idle_ms / 2000:
                    last_claim = time.monotonic()
                    stuck = await self.store.reclaim_work(self.streams, self.consumer, self.claim_idle_ms, 100)
                    if stuck:
                        self._count_reclaimed("idle", stuck)
                    reclaimed += stuck
                read_ahead = len(messages) <= READ_AHEAD_UP_TO and not reclaimed
                await self.handle_messages(messages, reclaimed, read_ahead=read_ahead)
                self._failures = 0
            except StoreUnreachable as exc:  # unreachable, failing over (a cluster's CLUSTERDOWN, TRYAGAIN, ...)
                log.warning("worker.redis_unavailable", error=str(exc))
                self.cache.clear()
                self.orphans = True
                await asyncio.sleep(RETRY_PAUSE_S)
            except WorkGroupLost as exc:
                log.warning("worker.group_missing", error=str(exc))  # Redis lost its data: start over
                self.cache.clear()
                for stream in self.streams:
                    await self.store.ensure_group(stream)
            except Exception as exc:  # a bug
                await self._survive(exc)
        await self._drain_ahead()

    def take_ahead(self) -> asyncio.Future[Any] | None:
        """The reply to come of the read sent ahead, if one was (then it is no longer kept)."""
        ahead, self.ahead = self.ahead, None
        return ahead

    async def _drain_ahead(self) -> None:
        """Stopping: apply what a read sent ahead delivered (else it waits for another worker's claim)."""
        ahead = self.take_ahead()
        if ahead is not None:
            try:
                await self.handle_messages(await self.store.read_reply(ahead), [])
            except StoreError as exc:
                log.warning("worker.redis_unavailable", error=str(exc))

    async def _survive(self, exc: Exception) -> None:
        """After an unexpected error in the work loop: log it, and read what this consumer holds
        again (a move that keeps failing that way is set aside by its delivery count)."""
        incident_of("work", exc)
        self.cache.clear()
        self.orphans = True
        # Backing off (0.5 s, doubling, at most 30 s): each re-read is one more delivery, so a cause
        # that lasts (a Redis out of memory) reaches FLOTILLA_MAX_DELIVERIES only after ~15 s.
        await asyncio.sleep(min(0.5 * 2 ** min(self._failures, 16), 30.0))  # (2**1024 overflows)
        self._failures += 1

    async def _beat_loop(self) -> None:
        """Tell the liveness thread's watchdog that the event loop runs."""
        while True:
            self.beat_now()
            await asyncio.sleep(BEAT_S)

    # --- the janitor -------------------------------------------------------------------
    async def _janitor_loop(self) -> None:
        lease_ms = int(self.janitor_interval_s * 1000)
        while lease_ms > 0 and not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.janitor_interval_s)
            try:
                if not self._stopping.is_set() and await self.store.take_lease(
                    keys.JANITOR_LEASE, self.consumer, lease_ms
                ):
                    await janitor_pass(self.store)
            except StoreError as exc:
                log.warning("worker.janitor_failed", error=str(exc))
            except Exception as exc:  # a bug: logged, and the next pass goes on
                incident_of("janitor", exc)

    # --- one batch ---------------------------------------------------------------------
    async def handle(self, batch: list[Work], *, read_ahead: bool = False) -> None:
        """Apply a batch: one action per game per round, until every message is answered.
        `read_ahead`: the work loop's next read goes with the commits of the last round."""
        pending: OrderedDict[str, list[Work]] = OrderedDict()
        for work in batch:
            pending.setdefault(work.game_id, []).append(work)
        attempts: dict[MessageKey, int] = {}
        while pending:
            round_ = [queue[0] for queue in pending.values()]
            last = read_ahead and all(len(queue) == 1 for queue in pending.values())
            retry = await self.round(round_, attempts, read_ahead=last)
            for work in round_:
                if work.key in retry:
                    continue
                queue = pending[work.game_id]
                queue.pop(0)
                if not queue:
                    del pending[work.game_id]

    async def round(
        self, works: list[Work], attempts: dict[MessageKey, int], *, read_ahead: bool = False
    ) -> set[MessageKey]:
        """Process one piece of work of each game; returns the messages to retry (version moved).

        Three round trips: the prefetch, the commit scripts (and WAIT, with the durability knob
        on), and the answers with the acknowledgements; on one Redis usually only the commits,
        with the work loop's next read in their write (`read_ahead`, `commit`). The decisions
        between them are pure (worker/plan.py)."""
        broken: dict[str, Exception] = {}
        earlier, clock_rows, unread = await self.prefetch(works, broken)
        now_ms = wall_clock_ms()
        plan = plan_round(
            works,
            self.cache,
            earlier,
            clock_rows,
            now_ms,
            self.store.commit_args,
            retain_s=self.finished_ttl_s,
            settles_work=self.store.settles_work,
            takeover=self.takeover,
            broken=broken,
            beat=self.beat_now,
        )
        recheck = self.recheck(plan, unread)
        if plan.failed:
            await self.set_aside(plan.failed)
        started = time.perf_counter()
        done = await self.commit([pending.call for pending in plan.commits], read_ahead)
        if plan.commits:
            metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        result = settle_round(plan, done, attempts, now_ms)
        self.fast_path.count(plan.commits, done, unread)
        self._account(result)
        replies = await self.confirmed(result.replies, result.unconfirmed)
        finished = result.finished + reannounced(replies, result.unconfirmed)
        await self.finish(replies, result.wake, finished, result.answered, result.acked)
        for game_id, next_ms in plan.settle.items():
            leased = next(w.leased_until for w in works if w.game_id == game_id)
            await self.store.settle_timer(game_id, leased, next_ms)
        return result.retry | recheck

    async def commit(self, calls: list[CommitRequest], read_ahead: bool) -> list[Committed]:
        """Run a round's commits; where asked, allowed (one Redis, no replica waits) and no read is
        ahead already, the work loop's next XREADGROUP goes in the same write (`self.ahead`)."""
        if not (read_ahead and calls and self.ahead is None and self.store.settles_work) or self.orphans:
            return await self.store.commit_many(calls)
        if self._stopping.is_set():
            return await self.store.commit_many(calls)
        read = self.store.read_command(self.streams, self.consumer, self.batch, self.block_ms)
        done, self.ahead = await self.store.commit_then_read(calls, read)
        return done

    def recheck(self, plan: RoundPlan, unread: set[MessageKey]) -> set[MessageKey]:
        """Take out of the plan the answers given without a commit to work planned on a cached
        state: the request may have been applied already (its first outcome wins) or the state
        may be stale. They go round again, read from the store."""
        again = {r.work.key for r in plan.replies if r.work.key in unread}
        if again:
            for reply in plan.replies:
                if reply.work.key in again:
                    self.verify.add(reply.work.game_id)
                    plan.settle.pop(reply.work.game_id, None)
            plan.replies = [r for r in plan.replies if r.work.key not in again]
            plan.failed = [(work, error) for work, error in plan.failed if work.key not in again]
        return again

    def _account(self, result: RoundResult) -> None:
        """The cache, counters, metrics and logs of a settled round."""
        for game_id in result.forget:
            self.cache.pop(game_id, None)
        for game_id, after in result.remember.items():
            self.remember(game_id, after)
        for pending in result.applied:
            work = pending.work
            self.applied += 1
            metrics.MOVES_APPLIED.labels(pending.after.host.rules.name, "server" if work.kind != ACT else "seat").inc()
            if work.kind == CLOCK:
                self.timeouts += 1
                metrics.CLOCK_TIMEOUTS.inc()
        metrics.DEDUPLICATED.inc(result.duplicates)
        metrics.COMMIT_CONFLICTS.inc(result.conflicts)
        metrics.RETRIES.inc(len(result.retry))
        for reply in result.replies:
            if not reply.outcome.ok:
                self.rejected += 1
                work = reply.work
                kind = self.cache[work.game_id].host.rules.name if work.game_id in self.cache else "unknown"
                metrics.MOVES_REJECTED.labels(kind, reply.outcome.reason).inc()
                log.info(
                    "worker.rejected",
                    game=work.game_id,
                    seat=work.seat,
                    request_id=work.request_id,
                    reason=reply.outcome.reason,
                )

    async def confirmed(self, replies: list[Reply], unconfirmed: set[MessageKey]) -> list[Reply]:
        """With the durability knob on, an outcome recorded earlier is only given out once it is
        on the replicas (the first attempt may have died before its WAIT)."""
        games = sorted({r.work.game_id for r in replies if r.outcome.ok and r.work.key in unconfirmed})
        if not games or await self.store.confirm(games):
            return replies
        return [
            Reply(r.work, Outcome.rejected(NOT_REPLICATED), r.cache_it)
            if r.outcome.ok and r.work.key in unconfirmed
            else r
            for r in replies
        ]

    async def finish(
        self,
        replies: list[Reply],
        wake: dict[str, int],
        finished: list[str],
        answered: AbstractSet[MessageKey] = frozenset(),
        acked: AbstractSet[MessageKey] = frozenset(),
    ) -> None:
        """Cache rejections, answer the gateways (but not for what the committed entry announces),
        acknowledge the work, set the timers and announce finished games: one round trip."""
        await self.store.finish_work(
            rejections=[
                (r.work.game_id, r.work.seat, r.work.request_id, r.outcome.dumps()) for r in replies if r.cache_it
            ],
            replies=[
                (r.work.inbox, InboxReply(r.work.game_id, r.work.seat, r.work.request_id, r.outcome.dumps()))
                for r in replies
                if r.work.inbox and r.work.key not in answered
            ],
            acks=[r.work.key for r in replies if r.work.stream and r.work.key not in acked],
            wake=wake,
            finished=finished,
        )
