"""Admission control: the gateway admits or refuses every call itself, before doing any work.

Three limits per gateway process:

* **starting calls**: unary calls in flight plus streams that have not sent their first message
  yet (a stream's costly part: authentication, Redis reads, the first view). One connection may
  hold at most `starting_per_connection` of them and one client address `starting_per_address`
  (its connections together), so no client takes the gateway's places from the others;
* **open streams**: server-streaming and bidirectional calls, from their start to their end;
* **queue wait**: how long calls wait in grpc core before the event loop takes them.

A call holds its starting place only while it works: a call waiting on something shared (a key
reload) gives it back meanwhile (flotilla/aside.py), and a client stream (`Play`) that sends no
message within `stream_open_timeout_s` of opening is closed (INVALID_ARGUMENT,
ERROR_REASON_INVALID_REQUEST, field `open`), which frees its place.

Why the queue: grpc.aio takes one call per method from grpc core at a time, each after a few
turns of the event loop. When calls arrive faster than the loop takes them, they queue inside
grpc core, unseen by Python: the other two limits never fill, and core cancels queued calls on
its own (`CANCELLED`) once there are more than `grpc.server.max_pending_requests` (at random
above it) or once one has waited 30 s (`grpc.server_max_unrequested_time_in_server`). So
`core_options` raises core's queue far above what the gateway lets wait, and the queue is
measured: its length is the calls core started (its channelz counter) minus the calls Python
took (counted here), less those that never reach Python (cancelled while queued; re-counted
whenever the loop takes nothing for half a second, as then nothing waits); its wait, that length
over the rate at which the loop takes calls. While the wait is over `max_queue_wait_s`, every call taken is refused at
once, which costs the loop little: the queue drains quickly, no call is left for core to
cancel, and calls are admitted again as soon as the wait is back under the limit.

A call over a limit is refused with `RESOURCE_EXHAUSTED`, an ErrorInfo reason
`ERROR_REASON_OVERLOADED` (metadata `limit`: `starting_calls`, `starting_calls_per_connection`,
`starting_calls_per_address`, `open_streams` or `queue_wait`)
and a `google.rpc.RetryInfo` delay, which grows while the overload lasts; the SDK retries after
that delay, with backoff and jitter. Health checks and reflection are never refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
import structlog
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc._cython import cygrpc  # type: ignore[attr-defined]  # channelz, as grpcio-channelz reads it
from grpc_status import rpc_status

from flotilla import metrics
from flotilla.app.errors import InvalidRequest
from flotilla.aside import PLACE
from flotilla.gateway.errors import DOMAIN, abort, retry_info
from flotilla.gateway.handlers import Handler, behavior_of, rewrap
from flotilla.settings import Settings

log = structlog.get_logger("flotilla.gateway")

# Never refused: load balancers and probes must see the truth under load.
EXEMPT = ("/grpc.health.v1.Health/", "/grpc.reflection.")

STARTING, STREAMS, QUEUE = "starting_calls", "open_streams", "queue_wait"
PER_CONNECTION, PER_ADDRESS = "starting_calls_per_connection", "starting_calls_per_address"
POLL_S = 0.1  # how often grpc core's queue is measured, at most
POLL_SHARE = 0.02  # the most of the loop's time the measure may take (`_measure`)
MIN_QUEUE = 32  # fewer queued calls than this never count as waiting (measurement noise)
IDLE_POLLS = 5  # measures in a row with no call taken: the queue is empty
INTAKE_PRIOR = 1000.0  # calls/s the loop is assumed to take until measured under a queue
MAX_RETRY_AFTER_S = 5.0
RETRY_AFTER_GROWTH, RETRY_AFTER_DECAY = 1.25, 0.9  # per measure, while refusing / while not


@dataclass(frozen=True, slots=True)
class Limits:
    """What one gateway process admits at once (see the module docstring)."""

    starting_calls: int = 1000
    open_streams: int = 20_000
    queue_wait_s: float = 2.0
    retry_after_s: float = 0.5
    starting_per_connection: int = 100
    starting_per_address: int = 250
    stream_open_timeout_s: float = 5.0

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            settings.max_starting_calls,
            settings.max_open_streams,
            settings.max_queue_wait_ms / 1000,
            settings.overload_retry_ms / 1000,
            settings.max_starting_per_connection,
            settings.max_starting_per_address,
            settings.stream_open_timeout_ms / 1000,
        )


def core_options(settings: Settings) -> list[tuple[str, int]]:
    """grpc core server options: its queue of calls not yet taken by the server, per method.

    Soft and hard limit are equal: core rejects at random between the two, never below the soft
    one. Admission keeps the queue's wait short; this is only the last resort.
    """
    return [
        ("grpc.server.max_pending_requests", settings.grpc_max_pending),
        ("grpc.server.max_pending_requests_hard_limit", settings.grpc_max_pending),
    ]


def refusal(limit: str, retry_after_s: float) -> grpc.Status:
    """RESOURCE_EXHAUSTED with ErrorInfo OVERLOADED (metadata `limit`) and a RetryInfo delay."""
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason="ERROR_REASON_OVERLOADED", domain=DOMAIN, metadata={"limit": limit}))
    retry = retry_info(retry_after_s)
    message = f"this gateway is at its limit of {limit.replace('_', ' ')}; retry in {retry_after_s:.1f} s"
    status: grpc.Status = rpc_status.to_status(
        status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=message, details=[info, retry])
    )
    return status


def core_server_ids() -> set[int]:
    """The ids of this process's grpc servers in channelz."""
    found = json.loads(cygrpc.channelz_get_servers(0)).get("server", [])
    return {int(s["ref"]["serverId"]) for s in found}


def core_calls_started(server_id: int) -> int:
    """Calls grpc core has started on this server since it began."""
    return int(json.loads(cygrpc.channelz_get_server(server_id))["server"].get("data", {}).get("callsStarted", 0))


Context = grpc.aio.ServicerContext[Any, Any]
Subjects = Callable[[Context], tuple[str, str]]  # a call's (connection, client address)


class _Place:
    """One admitted call's starting place, counted for its connection and address too."""

    __slots__ = ("address", "admission", "connection", "held")

    def __init__(self, admission: Admission, connection: str, address: str) -> None:
        self.admission, self.connection, self.address = admission, connection, address
        self.held = False
        self.retake()

    def release(self) -> bool:
        if not self.held:
            return False
        self.held = False
        self.admission._count(self, -1)
        return True

    def retake(self) -> None:
        if not self.held:
            self.held = True
            self.admission._count(self, 1)


class _Opening:
    """Waits for a client stream's first message: after `timeout_s` without one, the call's task
    is cancelled and `expired` tells the call why (it is then refused).

    It is the call's request iterator: the first message is awaited in a coroutine of its own
    (which stops the timer); every later one is the stream's own awaitable, handed on with no
    frame of ours around it (a wrapping generator cost a resume and a yield per message)."""

    __slots__ = ("expired", "requests", "started", "task", "timer")

    def __init__(self, timeout_s: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.task = task
        self.expired = False
        self.started = False
        self.requests: AsyncIterator[Any] | None = None
        self.timer = asyncio.get_running_loop().call_later(timeout_s, self._expire)

    def _expire(self) -> None:
        self.expired = True
        self.task.cancel()

    def watch(self, requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
        self.requests = aiter(requests)
        return self

    def __aiter__(self) -> _Opening:
        return self

    def __anext__(self) -> Awaitable[Any]:
        assert self.requests is not None
        return self.requests.__anext__() if self.started else self._first()

    async def _first(self) -> Any:
        assert self.requests is not None
        request = await anext(self.requests)
        self.started = True
        self.timer.cancel()
        return request


class Admission(grpc.aio.ServerInterceptor):
    """Counts starting calls and open streams, measures core's queue; refuses calls beyond the limits.

    `subjects` names a call's connection and client address (gateway/limiting.py, as the
    per-address rate limits count them).

    The decision is taken when the handler starts (not in `intercept_service`, which grpc runs
    before reading the request: a call cancelled in between would never release its place);
    `intercept_service` only counts the calls taken from grpc core.
    """

    def __init__(self, limits: Limits, subjects: Subjects) -> None:
        self.limits = limits
        self.subjects = subjects
        self.starting = 0
        self.by_connection: dict[str, int] = {}  # starting places held, by connection and address
        self.by_address: dict[str, int] = {}
        self.streams = 0
        self.queued = 0  # calls waiting in grpc core (estimate)
        self.intake_rate = INTAKE_PRIOR  # calls taken from grpc core per second while some wait (smoothed)
        self._taken = 0  # calls taken since the last measure
        self._taken_total = 0
        self._unseen = 0  # calls started by core that never reached Python (cancelled while queued)
        self.retry_after_s = limits.retry_after_s  # the RetryInfo delay of refusals now
        self._wrapped: dict[str, Handler] = {}
        self._refusals: dict[tuple[str, int], grpc.Status] = {}
        self._monitor: asyncio.Task[None] | None = None

    def queue_wait_s(self) -> float:
        """About how long a call arriving now would wait in grpc core's queue."""
        return max(self.queued, 0) / max(self.intake_rate, 1.0) if self.queued >= MIN_QUEUE else 0.0

    def _adjust_retry_after(self) -> None:
        """The RetryInfo delay grows while calls must be refused for their wait in the queue and
        shrinks back to `limits.retry_after_s` once they need not: refused clients then come
        back spread out over the time the gateway needs, instead of refilling the queue at once."""
        if self.queue_wait_s() > self.limits.queue_wait_s:
            self.retry_after_s = min(MAX_RETRY_AFTER_S, self.retry_after_s * RETRY_AFTER_GROWTH)
        else:
            self.retry_after_s = max(self.limits.retry_after_s, self.retry_after_s * RETRY_AFTER_DECAY)

    def watch_queue(self, server_id: int | None) -> None:
        """Measure grpc core's queue of the server with this channelz id (None: no queue limit)."""
        if server_id is not None:
            self._monitor = asyncio.get_running_loop().create_task(self._measure(server_id), name="admission")

    async def close(self) -> None:
        if self._monitor is not None:
            self._monitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._monitor

    async def _measure(self, server_id: int) -> None:
        """Every POLL_S, or less often when one measure costs more than POLL_SHARE of that: channelz's
        read of a server holds the loop for a time that grows with its connections (~0.2 ms with
        one, ~8 ms with 300), and at 10 Hz it took a tenth of a busy gateway's CPU."""
        loop = asyncio.get_running_loop()
        then, busy, idle, pause = loop.time(), False, IDLE_POLLS, POLL_S
        while True:
            await asyncio.sleep(pause)
            now = loop.time()
            taken, self._taken = self._taken, 0
            if busy:  # calls were waiting all along: the loop took them as fast as it could
                self.intake_rate = 0.7 * self.intake_rate + 0.3 * taken / max(now - then, 1e-3)
            then = now
            try:
                waiting = core_calls_started(server_id) - self._taken_total
            except (ValueError, KeyError) as exc:  # channelz gone (server stopped) or changed
                log.warning("admission.queue_unavailable", error=str(exc))
                self.queued = 0
                return
            pause = max(POLL_S, (loop.time() - now) / POLL_SHARE)
            idle = idle + 1 if not taken else 0
            if idle >= IDLE_POLLS:  # the loop took nothing for a while although it ran: nothing waits
                self._unseen = waiting
            self.queued = waiting - self._unseen
            busy = self.queued >= MIN_QUEUE
            self._adjust_retry_after()
            metrics.CALLS_QUEUED.set(max(self.queued, 0))

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        self.queued -= 1  # this call left core's queue (until the next measure)
        self._taken += 1
        self._taken_total += 1
        method: str = details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(details)
        if handler is None:
            return None
        wrapped = self._wrapped[method] = self._wrap(handler, method)
        return wrapped

    def _admit(self, context: Context, streaming: bool) -> _Place | str:
        """Take a place, or name the limit that refuses the call."""
        if self.queue_wait_s() > self.limits.queue_wait_s:
            return QUEUE
        if self.starting >= self.limits.starting_calls:
            return STARTING
        connection, address = self.subjects(context)
        if self.by_connection.get(connection, 0) >= self.limits.starting_per_connection:
            return PER_CONNECTION
        if self.by_address.get(address, 0) >= self.limits.starting_per_address:
            return PER_ADDRESS
        if streaming and self.streams >= self.limits.open_streams:
            return STREAMS
        if streaming:
            self.streams += 1
            metrics.ADMITTED_STREAMS.set(self.streams)
        return _Place(self, connection, address)

    def _count(self, place: _Place, change: int) -> None:
        self.starting += change
        metrics.CALLS_STARTING.set(self.starting)
        for counts, subject in ((self.by_connection, place.connection), (self.by_address, place.address)):
            held = counts.get(subject, 0) + change
            if held > 0:
                counts[subject] = held
            else:
                del counts[subject]

    def _ended(self) -> None:
        self.streams -= 1
        metrics.ADMITTED_STREAMS.set(self.streams)

    async def _enter(self, context: Context, name: str, streaming: bool) -> _Place:
        """The call's place (also in flotilla.aside.PLACE), or the call refused."""
        place = self._admit(context, streaming)
        if isinstance(place, str):
            await self._refuse(context, name, place)
            raise AssertionError("unreachable: abort raises")
        PLACE.set(place)  # each grpc.aio call runs in a task (and context) of its own
        return place

    def _opening(self, handler: Handler) -> Callable[[], _Opening | None]:
        timeout_s = self.limits.stream_open_timeout_s
        if not handler.request_streaming or timeout_s <= 0:
            return lambda: None
        return lambda: _Opening(timeout_s)

    async def _closed_idle(self, context: Context, name: str, opening: _Opening) -> None:
        """Refuse a client stream that sent nothing in time (its task was cancelled for that)."""
        opening.task.uncancel()
        metrics.STREAMS_IDLE_CLOSED.labels(name).inc()
        timeout_s = self.limits.stream_open_timeout_s
        error = InvalidRequest(
            f"the stream sent no message within {timeout_s:g} s of opening: send the first one (Play: `open`) "
            "at once (FLOTILLA_STREAM_OPEN_TIMEOUT_MS)",
            field="open",
        )
        await abort(context, error)

    def _refusal(self, name: str, limit: str) -> grpc.Status:
        metrics.CALLS_REFUSED.labels(name, limit).inc()
        delay_ds = round(self.retry_after_s * 10)  # refusals built once per limit and 100 ms of delay
        status = self._refusals.get((limit, delay_ds))
        if status is None:
            status = self._refusals[limit, delay_ds] = refusal(limit, delay_ds / 10)
        return status

    async def _refuse(self, context: Context, name: str, limit: str) -> None:
        await context.abort_with_status(self._refusal(name, limit))

    def _refuse_stream(self, context: Context, name: str, limit: str) -> None:
        """A server stream refused with no exception: it ends with this status and no message. An
        abort's exception, traceback and frames would be a cycle of a few KB per refusal, and a burst
        of opens makes thousands of them."""
        status = self._refusal(name, limit)
        context.set_trailing_metadata(status.trailing_metadata)
        context.set_code(status.code)
        context.set_details(status.details)

    def _wrap(self, handler: Handler, method: str) -> Handler:
        if method.startswith(EXEMPT):
            return handler
        behavior = behavior_of(handler)
        name = method.rpartition("/")[2]
        opening = self._opening(handler)
        admitted: Callable[..., Any]
        if handler.response_streaming and inspect.isasyncgenfunction(behavior):
            admitted = self._stream(behavior, name, opening)
        else:  # unary, or a stream that writes with context.write(): started once it runs
            admitted = self._unary(behavior, name, opening, streaming=handler.response_streaming)
        return rewrap(handler, admitted)

    def _leave(self, place: _Place, first: _Opening | None, streaming: bool) -> None:
        if first is not None:
            first.timer.cancel()
        place.release()
        if streaming:
            self._ended()

    # The wrappers hold the place in try/finally of their own frame: an asynccontextmanager was an
    # object and a generator frame more per call (kept by every idle stream) and a resume per call.
    def _unary(
        self,
        behavior: Callable[..., Awaitable[Any]],
        name: str,
        opening: Callable[[], _Opening | None],
        *,
        streaming: bool,
    ) -> Callable[..., Awaitable[Any]]:
        async def admitted(request: Any, context: Context) -> Any:
            place = await self._enter(context, name, streaming)
            first = opening()
            try:
                return await behavior(request if first is None else first.watch(request), context)
            except asyncio.CancelledError:
                if first is None or not first.expired:
                    raise
                await self._closed_idle(context, name, first)  # a client stream's silence
            finally:
                self._leave(place, first, streaming)

        return admitted

    def _stream(
        self, behavior: Callable[..., AsyncIterator[Any]], name: str, opening: Callable[[], _Opening | None]
    ) -> Callable[..., AsyncIterator[Any]]:
        async def admitted(request: Any, context: Context) -> AsyncIterator[Any]:
            place = self._admit(context, True)
            if isinstance(place, str):
                self._refuse_stream(context, name, place)
                return
            PLACE.set(place)
            first = opening()
            try:
                async for item in behavior(request if first is None else first.watch(request), context):
                    place.release()  # started: the stream's costly start is over
                    yield item
            except asyncio.CancelledError:
                if first is None or not first.expired:
                    raise
                await self._closed_idle(context, name, first)  # a client stream's silence
            finally:
                self._leave(place, first, streaming=True)

        return admitted
