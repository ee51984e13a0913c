"""The worker loop: XREADGROUP -> apply the rules -> commit script -> outcome to the gateway -> XACK.

Stateless: the only thing kept between batches is a cache of committed states by game,
checked on every commit by the version compare-and-set, so a stale entry costs one retry.

A worker keeps a liveness key (`flotilla:worker:{consumer}`, see `store.liveness`) and its
score in the worker registry. Every worker sweeps every `sweep_ms`: when the registry names a
worker whose liveness key is gone (the process died), the work streams' consumers are listed,
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
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import time
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Self

import orjson
import structlog

from flotilla import metrics
from flotilla.app import clocks
from flotilla.app.errors import AppError, EngineFailure
from flotilla.app.host import host_for
from flotilla.app.outcome import Outcome
from flotilla.bots.takeover import Takeover
from flotilla.errors import StoreError, StoreUnreachable, WorkGroupLost
from flotilla.games import REGISTRY, served
from flotilla.records import ACT, CLOCK, InboxReply, WorkItem
from flotilla.rules import Seat
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.deadletter import DELIVERIES, ENGINE, DeadLetter, DeadLetters
from flotilla.store.liveness import Liveness
from flotilla.store.redis_store import RedisStore
from flotilla.store.transient import RETRY_PAUSE_S
from flotilla.worker.janitor import janitor_pass
from flotilla.worker.plan import (
    NOT_REPLICATED,
    SERVER_REQUEST,
    Clocks,
    FastPath,
    Loaded,
    MessageKey,
    Reply,
    RoundPlan,
    RoundResult,
    Work,
    plan_round,
    reannounced,
    settle_round,
)

log = structlog.get_logger("flotilla.worker")

STATS_INTERVAL_S = 5.0
BEAT_S = 0.1  # how often the event loop tells the watchdog it runs (FLOTILLA_WORKER_STALL_S)
FULL_SWEEP_EVERY = 50
"""A worker's first sweep, and then every this many (5 s at the default 100 ms), lists every work
stream's consumers whatever the worker registry says (the backstop for consumers it does not name)."""


Message = tuple[str, bytes, dict[bytes, bytes]]  # (work stream, message id, fields) as read

ISOLATE_FROM = 3
"""A reclaimed entry delivered this many times or more is applied in a batch of its own: when one
entry of a batch kills its worker, the batch's other entries are redelivered with it; alone, they
are acknowledged before the entry that kills, so only that one reaches the dead letters."""


def incident_of(where: str, exc: BaseException) -> str:
    """Log an unexpected exception a worker's loop survives, under a new incident id."""
    incident = uuid.uuid4().hex[:12]
    log.error("worker.loop_failed", loop=where, incident=incident, exc_info=exc)
    metrics.HELPER_FAILURES.labels(where).inc()
    return incident


def parse_work(stream: str, msg_id: bytes, fields: dict[bytes, bytes]) -> Work:
    return Work(**WorkItem.decode_fields(fields), stream=stream, msg_id=msg_id)


def work_streams(shards: int, kinds: Sequence[str] | None = None) -> list[str]:
    """Every work stream this process's rules can serve: each served rules version of each kind."""
    names = kinds or list(REGISTRY)
    return [keys.work(name, r.version, shard) for name in names for r in served(name) for shard in range(shards)]


def _now_ms() -> int:
    return int(time.time() * 1000)


class Worker:
    """Applies submitted actions and fires turn clocks. Run any number side by side."""

    def __init__(
        self,
        store: RedisStore,
        *,
        shards: int = 4,
        consumer: str | None = None,
        batch: int = 128,
        block_ms: int = 1000,
        claim_idle_ms: int = 10_000,
        liveness_ttl_ms: int = 500,
        liveness_refresh_ms: int = 100,
        sweep_ms: int = 100,
        janitor_interval_s: float = 60.0,
        cache_size: int = 50_000,
        kinds: Sequence[str] | None = None,
        timer_interval_s: float = 0.2,
        timer_lease_ms: int = 2_000,
        finished_ttl_s: int = 30 * 24 * 3600,
        takeover: Takeover | None = None,
        max_deliveries: int = 5,
        dead_letter_maxlen: int = 10_000,
        stall_s: float = 0.0,
    ) -> None:
        self.store = store
        self.kinds = list(kinds or REGISTRY)
        self.streams = work_streams(shards, self.kinds)
        # Unique per process start: a restarted container may have the same host name and pid.
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.batch = batch
        self.block_ms = block_ms
        self.claim_idle_ms = claim_idle_ms
        self.liveness_ttl_ms = liveness_ttl_ms
        self.liveness_refresh_ms = liveness_refresh_ms
        self.sweep_ms = sweep_ms
        self.janitor_interval_s = janitor_interval_s
        self.cache: OrderedDict[str, Loaded] = OrderedDict()
        self.cache_size = cache_size
        self.timer_interval_s = timer_interval_s
        self.timer_lease_ms = timer_lease_ms
        self.finished_ttl_s = finished_ttl_s
        self.takeover = takeover  # plays absent seats (None: the game's default action)
        self.max_deliveries = max(max_deliveries, 1)
        self.dead_letters = DeadLetters.of(store, dead_letter_maxlen)
        self.stall_s = stall_s  # the event loop blocked this long: the process ends (0: never)
        self.beat = time.monotonic()  # the event loop last ran (a task renews it)
        self._failures = 0  # unexpected errors of the work loop in a row (its back-off)
        self.applied = 0
        self.rejected = 0
        self.timeouts = 0
        self.reclaimed = 0
        self._sweeps = 0
        self._stopping = asyncio.Event()
        self.fast_path = FastPath()
        self.verify: set[str] = set()  # games to read before acting again (an answer given on the cache alone)
        # Set when a read, a claim or a batch broke with Redis: entries given to this consumer may
        # be unapplied (a reply lost with its connection), so the work loop reads them again
        # (XREADGROUP from 0) instead of leaving them to XAUTOCLAIM. Also at start: a consumer
        # name given again after a restart may hold entries already.
        self.orphans = True

    @classmethod
    def from_settings(cls, store: RedisStore, settings: Settings, consumer: str | None = None) -> Self:
        """A worker with every knob from the settings (what `flotilla worker` runs)."""
        return cls(
            store,
            consumer=consumer,
            shards=settings.shards,
            finished_ttl_s=settings.finished_ttl_s,
            takeover=Takeover.of(settings.takeover_policy, settings.takeover_difficulty),
            claim_idle_ms=settings.reclaim_idle_ms,
            liveness_ttl_ms=settings.worker_ttl_ms,
            liveness_refresh_ms=settings.worker_refresh_ms,
            sweep_ms=settings.reclaim_sweep_ms,
            janitor_interval_s=settings.janitor_interval_s,
            timer_lease_ms=settings.timer_lease_ms,
            max_deliveries=settings.max_deliveries,
            dead_letter_maxlen=settings.dead_letter_maxlen,
            stall_s=settings.worker_stall_s,
        )

    def stop(self) -> None:
        """Finish the batch in hand, then return from `run` (SIGTERM)."""
        self._stopping.set()

    async def run(self) -> None:
        """Serve the work streams and the timers until `stop()`."""
        self._stopping.clear()
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
                if self.orphans:
                    self.orphans = False
                    reclaimed = await self.store.read_own_pending(self.streams, self.consumer, self.batch)
                    if reclaimed:
                        self._count_reclaimed("own", reclaimed)
                else:
                    messages = await self.store.read_work(self.streams, self.consumer, self.batch, self.block_ms)
                if time.monotonic() - last_claim > self.claim_idle_ms / 2000:
                    last_claim = time.monotonic()
                    stuck = await self.store.reclaim_work(self.streams, self.consumer, self.claim_idle_ms, 100)
                    if stuck:
                        self._count_reclaimed("idle", stuck)
                    reclaimed += stuck
                await self.handle_messages(messages, reclaimed)
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

    async def handle_messages(self, fresh: list[Message], reclaimed: list[Message]) -> None:
        """Apply new messages and reclaimed ones (delivered before, to this or another consumer).

        A reclaimed message delivered more than `max_deliveries` times is set aside in the dead
        letters (it took a worker down each time); one delivered `ISOLATE_FROM` times or more is
        applied alone, after the others."""
        alone: list[Message] = []
        if reclaimed:
            counts = await self.dead_letters.deliveries([(stream, msg_id) for stream, msg_id, _f in reclaimed])
            together: list[Message] = []
            doomed: list[tuple[Message, int]] = []
            for message, count in zip(reclaimed, counts, strict=True):
                if count > self.max_deliveries:
                    doomed.append((message, count))
                elif count >= ISOLATE_FROM:
                    alone.append(message)
                else:
                    together.append(message)
            await self.bury(doomed)
            fresh = fresh + together
        if fresh:
            await self.handle(await self.parsed(fresh))
        for message in alone:
            await self.handle(await self.parsed([message]))

    async def bury(self, doomed: list[tuple[Message, int]]) -> None:
        """Set aside messages delivered too often: dead letters, an INTERNAL answer to whoever still
        waits (never recorded as the request's outcome), then acknowledged."""
        if not doomed:
            return
        letters, replies, acks = [], [], []
        for (stream, msg_id, fields), count in doomed:
            incident = uuid.uuid4().hex[:12]
            letters.append(DeadLetter(stream, msg_id.decode(), fields, DELIVERIES, incident, count))
            acks.append((stream, msg_id))
            try:
                work = parse_work(stream, msg_id, fields)
            except (KeyError, ValueError, UnicodeDecodeError):  # malformed: nobody to answer
                log.error("worker.dead_lettered", incident=incident, stream=stream, deliveries=count)
                continue
            log.error(
                "worker.dead_lettered",
                incident=incident,
                stream=stream,
                deliveries=count,
                game=work.game_id,
                seat=work.seat,
                request_id=work.request_id,
            )
            message = f"this request was delivered {count} times without an answer (incident {incident}); set aside"
            outcome = Outcome.rejected(EngineFailure(message, incident=incident))
            if work.inbox:
                replies.append((work.inbox, InboxReply(work.game_id, work.seat, work.request_id, outcome.dumps())))
        await self.dead_letters.add(letters)
        metrics.DEAD_LETTERS.labels(DELIVERIES).inc(len(letters))
        await self.store.finish_work(rejections=[], replies=replies, acks=acks)

    async def parsed(self, messages: list[Message]) -> list[Work]:
        """The messages as work; a malformed one (not written by a gateway) is acknowledged and dropped."""
        works, bad = [], []
        for stream, msg_id, fields in messages:
            try:
                works.append(parse_work(stream, msg_id, fields))
            except (KeyError, ValueError, UnicodeDecodeError):
                log.warning("worker.malformed_message", stream=stream, message=msg_id.decode())
                bad.append((stream, msg_id))
        if bad:
            await self.store.finish_work(rejections=[], replies=[], acks=bad)
        return works

    # --- taking over a dead worker's work ----------------------------------------------
    async def _sweep_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                await self.reclaim_dead()
            except StoreError as exc:  # a failover, a lost group, ...: sweep again next time
                log.warning("worker.sweep_failed", error=str(exc))
                self.orphans = True  # a claim whose reply was lost, a batch cut short: ours now
            except Exception as exc:  # a bug: logged, and the next sweep goes on
                incident_of("sweep", exc)
                self.orphans = True
            await asyncio.sleep(self.sweep_ms / 1000)

    async def reclaim_dead(self, *, full: bool | None = None) -> int:
        """One sweep: claim and apply the pending work of workers whose liveness key is gone.

        Usually one read of the worker registry that finds no lapsed worker and ends there; the
        work streams' consumers are listed only when it finds one, and every `FULL_SWEEP_EVERY`
        sweeps as a backstop (consumers missing from the registry: a worker of an older version,
        a registry lost with a Redis restart). A dead worker leaves the registry once a sweep
        finds nothing more to claim; `full` forces (True) or skips (False) the backstop."""
        self._sweeps += 1
        lapsed = await self.store.lapsed_workers()
        if full is None:
            full = self._sweeps % FULL_SWEEP_EVERY == 1  # the first sweep of a worker, then every 50th
        if not lapsed and not full:
            return 0
        quiet_ms = self.block_ms + self.liveness_ttl_ms  # a live idle worker reads again within block_ms
        claimed = await self.store.claim_from_dead(self.streams, self.consumer, quiet_ms=quiet_ms, count=self.batch)
        if claimed:
            self._count_reclaimed("dead", claimed)
            await self.handle_messages([], claimed)
        else:
            await self.store.forget_workers(lapsed)
        return len(claimed)

    def _count_reclaimed(self, how: str, messages: list[Message]) -> None:
        self.reclaimed += len(messages)
        metrics.WORK_RECLAIMED.labels(how).inc(len(messages))
        log.info("worker.reclaimed", how=how, messages=len(messages))

    async def _beat_loop(self) -> None:
        """Tell the liveness thread's watchdog that the event loop runs."""
        while True:
            self.beat_now()
            await asyncio.sleep(BEAT_S)

    def beat_now(self) -> None:
        """The event loop runs (also called between the pieces of work of a round, and between the
        states a prefetch decodes: the watchdog bounds one piece of rules work, not a batch)."""
        self.beat = time.monotonic()

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

    # --- timers ------------------------------------------------------------------------
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
        now = _now_ms()
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

    # --- one batch ---------------------------------------------------------------------
    async def handle(self, batch: list[Work]) -> None:
        """Apply a batch: one action per game per round, until every message is answered."""
        pending: OrderedDict[str, list[Work]] = OrderedDict()
        for work in batch:
            pending.setdefault(work.game_id, []).append(work)
        attempts: dict[MessageKey, int] = {}
        while pending:
            round_ = [queue[0] for queue in pending.values()]
            retry = await self.round(round_, attempts)
            for work in round_:
                if work.key in retry:
                    continue
                queue = pending[work.game_id]
                queue.pop(0)
                if not queue:
                    del pending[work.game_id]

    async def round(self, works: list[Work], attempts: dict[MessageKey, int]) -> set[MessageKey]:
        """Process one piece of work of each game; returns the messages to retry (version moved).

        Three round trips: the prefetch, the commit scripts (and WAIT, with the durability knob
        on), and the answers with the acknowledgements. The decisions between them are pure
        (worker/plan.py)."""
        broken: dict[str, Exception] = {}
        earlier, clock_rows, unread = await self.prefetch(works, broken)
        now_ms = _now_ms()
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
        done = await self.store.commit_many([pending.call for pending in plan.commits])
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

    async def set_aside(self, failed: list[tuple[Work, EngineFailure]]) -> None:
        """The work entries the rules failed on, into the dead letters (before they are acknowledged)."""
        letters = [
            DeadLetter(work.stream, work.msg_id.decode(), _raw(work), ENGINE, error.metadata["incident"], 1)
            for work, error in failed
            if work.stream
        ]
        await self.dead_letters.add(letters)
        metrics.DEAD_LETTERS.labels(ENGINE).inc(len(letters))

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


def _loads(raw: bytes | None) -> Any:
    return orjson.loads(raw) if raw else None


def _raw(work: Work) -> dict[bytes, bytes]:
    """A work entry's fields as read from its stream (what `flotilla deadletter retry` queues again)."""
    return {
        name.encode(): value if isinstance(value, bytes) else str(value).encode()
        for name, value in work.fields().items()
    }
