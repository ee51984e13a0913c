"""Admission control: the gateway admits or refuses every call itself, before doing any work.

Three limits per gateway process:

* **starting calls**: unary calls in flight plus streams that have not sent their first message
  yet (a stream's costly part: authentication, Redis reads, the first view);
* **open streams**: server-streaming and bidirectional calls, from their start to their end;
* **queue wait**: how long calls wait in grpc core before the event loop takes them.

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
`ERROR_REASON_OVERLOADED` (metadata `limit`: `starting_calls`, `open_streams` or `queue_wait`)
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
from flotilla.gateway.errors import DOMAIN, retry_info
from flotilla.gateway.handlers import Handler, behavior_of, rewrap
from flotilla.settings import Settings

log = structlog.get_logger("flotilla.gateway")

# Never refused: load balancers and probes must see the truth under load.
EXEMPT = ("/grpc.health.v1.Health/", "/grpc.reflection.")

STARTING, STREAMS, QUEUE = "starting_calls", "open_streams", "queue_wait"
POLL_S = 0.1  # how often grpc core's queue is measured
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

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            settings.max_starting_calls,
            settings.max_open_streams,
            settings.max_queue_wait_ms / 1000,
            settings.overload_retry_ms / 1000,
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


class Admission(grpc.aio.ServerInterceptor):
    """Counts starting calls and open streams, measures core's queue; refuses calls beyond the limits.

    The decision is taken when the handler starts (not in `intercept_service`, which grpc runs
    before reading the request: a call cancelled in between would never release its place);
    `intercept_service` only counts the calls taken from grpc core.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.starting = 0
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
        loop = asyncio.get_running_loop()
        then, busy, idle = loop.time(), False, IDLE_POLLS
        while True:
            await asyncio.sleep(POLL_S)
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

    def _admit(self, streaming: bool) -> str | None:
        """Take a place (None), or name the limit that refuses the call."""
        if self.queue_wait_s() > self.limits.queue_wait_s:
            return QUEUE
        if self.starting >= self.limits.starting_calls:
            return STARTING
        if streaming and self.streams >= self.limits.open_streams:
            return STREAMS
        self.starting += 1
        metrics.CALLS_STARTING.set(self.starting)
        if streaming:
            self.streams += 1
            metrics.ADMITTED_STREAMS.set(self.streams)
        return None

    def _started(self) -> None:
        self.starting -= 1
        metrics.CALLS_STARTING.set(self.starting)

    def _ended(self) -> None:
        self.streams -= 1
        metrics.ADMITTED_STREAMS.set(self.streams)

    async def _refuse(self, context: Context, name: str, limit: str) -> None:
        metrics.CALLS_REFUSED.labels(name, limit).inc()
        delay_ds = round(self.retry_after_s * 10)  # refusals built once per limit and 100 ms of delay
        status = self._refusals.get((limit, delay_ds))
        if status is None:
            status = self._refusals[limit, delay_ds] = refusal(limit, delay_ds / 10)
        await context.abort_with_status(status)

    def _wrap(self, handler: Handler, method: str) -> Handler:
        if method.startswith(EXEMPT):
            return handler
        behavior = behavior_of(handler)
        name = method.rpartition("/")[2]
        admitted: Callable[..., Any]
        if handler.response_streaming and inspect.isasyncgenfunction(behavior):
            admitted = self._stream(behavior, name)
        else:  # unary, or a stream that writes with context.write(): started once it runs
            admitted = self._unary(behavior, name, streaming=handler.response_streaming)
        return rewrap(handler, admitted)

    def _unary(
        self, behavior: Callable[..., Awaitable[Any]], name: str, *, streaming: bool
    ) -> Callable[..., Awaitable[Any]]:
        async def admitted(request: Any, context: Context) -> Any:
            limit = self._admit(streaming)
            if limit is not None:
                await self._refuse(context, name, limit)
            try:
                return await behavior(request, context)
            finally:
                self._started()
                if streaming:
                    self._ended()

        return admitted

    def _stream(self, behavior: Callable[..., AsyncIterator[Any]], name: str) -> Callable[..., AsyncIterator[Any]]:
        async def admitted(request: Any, context: Context) -> AsyncIterator[Any]:
            limit = self._admit(streaming=True)
            if limit is not None:
                await self._refuse(context, name, limit)
            starting = True
            try:
                async for item in behavior(request, context):
                    if starting:
                        starting = False
                        self._started()
                    yield item
            finally:
                if starting:
                    self._started()
                self._ended()

        return admitted
