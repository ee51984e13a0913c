"""The worker's pure steps: what a round of work commits, and what the commit results mean.

No I/O here. `plan_round` turns one piece of work per game (with the games' cached states,
earlier outcomes and clocks, as the prefetch read them) into the commits to run and the
answers known at once; `settle_round` turns the commit script's results into answers,
retries, cache updates and timers. `Worker.round` (worker/loop.py) runs them around its
three round trips.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import structlog

from flotilla.app import clocks, lineage
from flotilla.app.errors import (
    AppError,
    EngineFailure,
    GameNotFound,
    InvalidRequest,
    SeatAbsent,
    StaleVersion,
    StoreUnavailable,
)
from flotilla.app.host import GameHost, Step, result_plain
from flotilla.app.host_events import ABSENT, FINISHED, LEFT, TIMED_OUT, TIMEOUTS, Absent, HostPayload, TimedOut
from flotilla.app.outcome import Outcome
from flotilla.bots.takeover import Takeover
from flotilla.records import ACT, CLOCK, LEAVE, WorkItem, action_record, dump_rows
from flotilla.rules import Result, RulesError, Seat
from flotilla.store.commit_script import CommitCode, CommitRequest, Committed

log = structlog.get_logger("flotilla.worker")

CAS_RETRIES = 5
NOT_REPLICATED = StoreUnavailable("the move is stored but not yet on a replica; retry with the same request_id")
SERVER_REQUEST = "@"  # starts the worker's own request ids: never a client's (app.games.check_request_id)

CommitCall = CommitRequest  # one run of the commit script (RedisStore.commit_args)
MessageKey = tuple[str, bytes]  # (stream, entry id): an entry id alone is unique only in its stream
ENGINE_RETRY_MS = 60_000
"""A turn clock whose default or takeover action made the rules fail is looked at again this much
later (not at once, in a loop): a fixed worker deployed meanwhile moves the game on."""


class MalformedAction(Exception):
    """The work's action does not decode as this game's action (not written by a gateway)."""


def engine_failure(work: WorkItem, exc: BaseException) -> EngineFailure:
    """Log an exception the rules (or the state's codec) raised on `work` under a new incident id;
    the error its client gets (INTERNAL / ENGINE_FAILURE, never blamed on the action)."""
    incident = uuid.uuid4().hex[:12]
    log.error(
        "worker.engine_failed",
        incident=incident,
        game=work.game_id,
        seat=work.seat,
        request_id=work.request_id,
        work_kind=work.kind,
        exc_info=exc,
    )
    message = f"the rules failed on this request (incident {incident}); nothing was applied: report the incident"
    return EngineFailure(message, incident=incident)


@dataclass(slots=True)
class Work(WorkItem):
    """A work item as this worker holds it: where it came from, to acknowledge it."""

    stream: str = ""  # "" when not from a work stream (clock work)
    msg_id: bytes = b""
    leased_until: int = 0  # clock work: the timer lease to settle afterwards

    @property
    def key(self) -> MessageKey:
        """What names this message in a batch: two shards' streams give out the same entry ids."""
        return self.stream, self.msg_id


@dataclass(slots=True)
class Clocks:
    """A game's status, clock configuration and seat clocks as its record holds them (joins and
    clock starts change them without a new version: the commit compares them too)."""

    status: str
    config: clocks.ClockConfig
    raw: bytes | None


@dataclass(slots=True)
class Loaded:
    """A committed game state held in the worker's cache."""

    host: GameHost
    version: int
    state: Any
    finished: bool
    seats: int
    lineage: str = ""  # of `version` (app/lineage.py): a rewound and replayed history differs here
    clock: Clocks | None = None  # as of `version` (None: not known, read it before acting)


@dataclass(slots=True)
class Reply:
    """An answer to one piece of work; `cache_it`: record the rejection under its request id."""

    work: Work
    outcome: Outcome
    cache_it: bool = False


@dataclass(slots=True)
class Pending:
    """A commit planned for one piece of work, and what holds once it applies."""

    work: Work
    after: Loaded
    outcome: Outcome
    next_deadline: int | None
    call: CommitCall
    settled: bool = False  # the commit script also acknowledges the work and answers the gateway


@dataclass(slots=True)
class RoundPlan:
    """What `plan_round` decided: commits to run, answers known already, timers to settle."""

    commits: list[Pending] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    settle: dict[str, int | None] = field(default_factory=dict)
    duplicates: int = 0  # answered from an earlier attempt's outcome (read by the prefetch)
    failed: list[tuple[Work, EngineFailure]] = field(default_factory=list)  # the rules failed: dead letters


@dataclass(slots=True)
class RoundResult:
    """What `settle_round` decided once the commits ran."""

    replies: list[Reply] = field(default_factory=list)
    retry: set[MessageKey] = field(default_factory=set)
    remember: dict[str, Loaded] = field(default_factory=dict)  # new cache entries
    forget: set[str] = field(default_factory=set)  # stale cache entries
    wake: dict[str, int] = field(default_factory=dict)
    finished: list[str] = field(default_factory=list)
    answered: set[MessageKey] = field(default_factory=set)  # need no inbox reply (the entry or the script answered)
    acked: set[MessageKey] = field(default_factory=set)  # acknowledged by the commit script
    unconfirmed: set[MessageKey] = field(default_factory=set)  # answered from an earlier attempt's record
    applied: list[Pending] = field(default_factory=list)
    duplicates: int = 0  # answered from an earlier attempt's outcome
    conflicts: int = 0  # commits refused because the version moved


class FastPath:
    """Whether to plan work on cached states without reading the games first.

    Worth it while cached states are rarely stale: a stale one costs a refused commit and a
    second round. Every `window` commits planned that way, the share refused decides: over
    `max_refused`, the worker reads every game first for the next `pause_rounds` rounds.
    """

    def __init__(self, *, window: int = 256, max_refused: float = 0.25, pause_rounds: int = 2000) -> None:
        self.window, self.max_refused, self.pause_rounds = window, max_refused, pause_rounds
        self.tried = self.refused = self.paused = 0

    def on(self) -> bool:
        """Whether this round may plan on the cache (call once per round)."""
        if self.paused:
            self.paused -= 1
            return False
        return True

    def count(self, commits: Sequence[Pending], done: Sequence[Committed], unread: set[MessageKey]) -> None:
        """Count the round's commits planned on the cache, and whether they were refused."""
        for pending, committed in zip(commits, done, strict=True):
            if pending.work.key in unread:
                self.tried += 1
                self.refused += committed.code == CommitCode.MOVED
        if self.tried >= self.window:
            if self.refused > self.max_refused * self.tried:
                self.paused = self.pause_rounds
            self.tried = self.refused = 0


def plan_step(
    work: Work, loaded: Loaded, clock: Clocks, now_ms: int, takeover: Takeover | None = None
) -> tuple[Step, tuple[clocks.SeatClock, ...], bytes] | None:
    """The step this work makes, its seat clocks and action record (raises RulesError /
    AppError), or None when there is nothing to do. An absent seat is played by `takeover`
    (None: the game's default action, as for a single timeout)."""
    host, state, version = loaded.host, loaded.state, loaded.version
    config = clock.config
    running = clock.status == "active"
    seat_clocks = clocks.load(_loads(clock.raw), config, loaded.seats)
    seat = Seat(work.seat)

    def forfeits(result: Result) -> Result:
        return clocks.apply_forfeits(result, seat_clocks)

    if work.kind == ACT:
        if 0 <= seat < len(seat_clocks) and seat_clocks[seat].absent:  # left, or timed out too often
            raise SeatAbsent(f"seat {seat} is absent: its absence policy plays it now", seat=str(int(seat)))
        try:
            action = host.loads(work.action)
        except (ValueError, TypeError, KeyError) as exc:
            raise MalformedAction(str(exc)) from exc
        step = host.step(state, seat, action, version, now_ms, adjust=forfeits)
        seat_clocks = clocks.schedule(
            config, clocks.voluntary(seat_clocks, seat), step.to_act, seat, now_ms, running=running
        )
        return step, seat_clocks, action_record(int(seat), work.action, step.version, "", work.request_id)
    if work.kind == LEAVE:
        if not 0 <= seat < loaded.seats:
            raise InvalidRequest(f"no seat {seat}")
        if seat_clocks[seat].absent or loaded.finished:
            return None
        seat_clocks = clocks.leave(config, seat_clocks, seat, now_ms)
        left: list[tuple[str, HostPayload]] = [(ABSENT, Absent(seat=int(seat), reason=LEFT, policy=config.policy))]
        if config.policy == clocks.ABORT:
            return host.abort(state, version, now_ms, left, f"seat {seat} left"), seat_clocks, b""
        step = host.note(state, version, now_ms, left)
        seat_clocks = clocks.schedule(config, seat_clocks, step.to_act, None, now_ms, running=running)
        return step, seat_clocks, b""
    # CLOCK: the seat's time is up (its default action) or it is absent (the takeover policy).
    if seat not in clocks.due(seat_clocks, host.rules.to_act(state), now_ms):
        return None
    before: list[tuple[str, HostPayload]] = []
    if not seat_clocks[seat].absent:
        seat_clocks, became_absent = clocks.time_out(config, seat_clocks, seat)
        before.append((TIMED_OUT, TimedOut(seat=int(seat), consecutive=seat_clocks[seat].timeouts)))
        if became_absent:
            before.append((ABSENT, Absent(seat=int(seat), reason=TIMEOUTS, policy=config.policy)))
            if config.policy == clocks.ABORT:
                reason = f"seat {seat} timed out {config.max_timeouts} times in a row"
                return host.abort(state, version, now_ms, before, reason), seat_clocks, b""
    if takeover is not None and seat_clocks[seat].absent:
        action = takeover.action(host.rules, state, seat, version)
    else:
        action = host.rules.default_action(state, seat)
    plain = host.dumps(action)
    step = host.step(state, seat, action, version, now_ms, before=before, adjust=forfeits)
    seat_clocks = clocks.schedule(config, seat_clocks, step.to_act, seat, now_ms, running=running)
    return step, seat_clocks, action_record(int(seat), plain, step.version, CLOCK)


def plan_round(
    works: Sequence[Work],
    cache: Mapping[str, Loaded],
    earlier: Sequence[bytes | None],
    clock_rows: Sequence[Clocks],
    now_ms: int,
    commit_args: Callable[..., CommitCall],
    *,
    retain_s: int,
    settles_work: bool = False,
    new_lineage: Callable[[], str] = lineage.new_lineage,
    takeover: Takeover | None = None,
    broken: Mapping[str, Exception] | None = None,
    beat: Callable[[], None] | None = None,
) -> RoundPlan:
    """One piece of work per game: the commits it makes and the answers known without one.

    `settles_work`: the commit script acknowledges the work and answers the gateway itself
    (RedisStore.settles_work); otherwise the worker does both after the commits. `broken`: games
    whose stored state the prefetch could not decode (what it raised). Whatever the rules raise
    other than their own errors fails that work alone (`engine_failure`, in `plan.failed`): never
    the round, never recorded as the request's outcome. `beat` is called before each piece of
    work (the worker's watchdog times one piece, not a round of many bots' decisions)."""
    plan = RoundPlan()
    for work, previous, clock in zip(works, earlier, clock_rows, strict=True):
        if beat is not None:
            beat()
        if previous is not None:  # applied before (a retry, or a redelivery): its first outcome
            plan.replies.append(Reply(work, Outcome.loads(previous)))
            plan.duplicates += 1
            continue
        loaded = cache.get(work.game_id)
        try:
            if broken and work.game_id in broken:
                raise broken[work.game_id]
            if loaded is None:
                raise GameNotFound(f"no game games/{work.game_id}", game=work.game_id)
            if work.etag:
                lineage.check(loaded.version, loaded.lineage, work.etag)
            planned = plan_step(work, loaded, clock, now_ms, takeover)
            if planned is None:
                _nothing_to_do(plan, work, loaded, clock)
                continue
            pending = _pending(work, loaded, clock, planned, commit_args, new_lineage(), retain_s, settles_work)
        except (RulesError, AppError) as exc:
            plan.replies.append(Reply(work, Outcome.rejected(exc), isinstance(exc, RulesError)))
            continue
        except MalformedAction as exc:  # an undecodable action in the stream
            log.warning("worker.bad_message", game=work.game_id, request_id=work.request_id, error=str(exc)[:200])
            plan.replies.append(Reply(work, Outcome(False, reason="INVALID_ACTION", message="malformed action")))
            continue
        except Exception as exc:  # a bug in the rules: this work fails, the round goes on
            _engine_failed(plan, work, exc, now_ms)
            continue
        plan.commits.append(pending)
    return plan


def _nothing_to_do(plan: RoundPlan, work: Work, loaded: Loaded, clock: Clocks) -> None:
    """Work that commits nothing (a clock that is no longer due, a seat already gone): accepted as
    is; a clock's timer settles to the next deadline."""
    if work.kind == CLOCK:
        seat_clocks = clocks.load(_loads(clock.raw), clock.config, loaded.seats)
        plan.settle[work.game_id] = clocks.next_deadline(seat_clocks)
    plan.replies.append(Reply(work, Outcome.accepted(loaded.version, [], loaded.lineage)))


def _engine_failed(plan: RoundPlan, work: Work, exc: Exception, now_ms: int) -> None:
    """What the rules raised beyond their own errors: this work fails (and is set aside); a clock's
    timer is looked at again after `ENGINE_RETRY_MS`."""
    failure = engine_failure(work, exc)
    plan.replies.append(Reply(work, Outcome.rejected(failure)))
    plan.failed.append((work, failure))
    if work.kind == CLOCK:
        plan.settle[work.game_id] = now_ms + ENGINE_RETRY_MS


def _pending(
    work: Work,
    loaded: Loaded,
    clock: Clocks,
    planned: tuple[Step, tuple[clocks.SeatClock, ...], bytes],
    commit_args: Callable[..., CommitCall],
    head: str,
    retain_s: int,
    settles_work: bool,
) -> Pending:
    """The commit of a planned step (encoding what the rules returned may raise too)."""
    step, seat_clocks, record = planned
    outcome = Outcome.accepted(step.version, step.events, head)
    seatclock = clocks.dumps(seat_clocks)
    call = commit_args(
        work.game_id,
        work.seat,
        work.request_id,
        expected=loaded.version,
        version=step.version,
        state=loaded.host.dumps(step.state),
        events=dump_rows(step.events),
        prompts=orjson.dumps(step.prompts),
        to_act=orjson.dumps(step.to_act),
        status=step.status,
        result=orjson.dumps(result_plain(step.result)) if step.result is not None else b"",
        record=record,
        outcome=outcome.dumps(),
        seatclock=seatclock,
        retain_s=retain_s,
        expected_lineage=loaded.lineage,
        lineage=head,
        expected_clocks=(clock.status, clock.raw or b""),
        ack=work.key if work.stream else None,
        answer_to=work.inbox,
        answer_commit=not work.follows,  # a follower is answered by the committed entry; a duplicate is not
    )
    after_clock = Clocks(step.status or clock.status, clock.config, seatclock)
    after = Loaded(loaded.host, step.version, step.state, step.status != "", loaded.seats, head, after_clock)
    return Pending(work, after, outcome, clocks.next_deadline(seat_clocks), call, settles_work)


def settle_round(
    plan: RoundPlan, done: Sequence[Committed], attempts: dict[MessageKey, int], now_ms: int
) -> RoundResult:
    """What the commit results (store.commit_script.Committed, one per planned commit) mean.

    1 committed: answer the outcome (or NOT_REPLICATED when the replicas did not confirm it);
    0 applied before: answer that first outcome; -1 the version moved: retry, up to
    CAS_RETRIES times. `attempts` counts retries per message across rounds.
    """
    result = RoundResult(replies=list(plan.replies))
    result.unconfirmed = {r.work.key for r in plan.replies if r.outcome.ok}  # answered from an earlier outcome
    result.duplicates = plan.duplicates
    for pending, committed in zip(plan.commits, done, strict=True):
        work, after = pending.work, pending.after
        if committed.code == CommitCode.COMMITTED:
            result.applied.append(pending)
            result.remember[work.game_id] = after
            durable = committed.durable
            result.replies.append(Reply(work, pending.outcome if durable else Outcome.rejected(NOT_REPLICATED)))
            if (work.follows and durable) or pending.settled:
                result.answered.add(work.key)  # by the committed entry on the gateway's feed, or the script
            if pending.settled:
                result.acked.add(work.key)
            if pending.next_deadline is not None:
                result.wake[work.game_id] = pending.next_deadline
            if work.kind == CLOCK:
                plan.settle[work.game_id] = pending.next_deadline
            if after.finished:
                result.finished.append(work.game_id)
        elif committed.code == CommitCode.ALREADY_APPLIED:
            result.forget.add(work.game_id)
            result.wake[work.game_id] = now_ms  # the first attempt may have died before setting the timer
            result.replies.append(Reply(work, Outcome.loads(committed.outcome or b"")))
            result.unconfirmed.add(work.key)
            if pending.settled:
                result.answered.add(work.key)
                result.acked.add(work.key)
            result.duplicates += 1
        else:
            result.conflicts += 1
            result.forget.add(work.game_id)
            attempts[work.key] = attempts.get(work.key, 0) + 1
            if attempts[work.key] < CAS_RETRIES:
                result.retry.add(work.key)
            else:
                error = StaleVersion("the game kept moving; retry", game=work.game_id)
                result.replies.append(Reply(work, Outcome.rejected(error)))
    return result


def reannounced(replies: Sequence[Reply], unconfirmed: set[MessageKey]) -> list[str]:
    """Games an earlier attempt may have finished without announcing it (it died between its
    commit and the announcement): announce them again (the ratings consumer rates each once)."""
    return [
        r.work.game_id
        for r in replies
        if r.work.key in unconfirmed and r.outcome.ok and any(row.tag == FINISHED for row in r.outcome.events)
    ]


def _loads(raw: bytes | None) -> Any:
    return orjson.loads(raw) if raw else None
