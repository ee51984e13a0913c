"""Admission control: the gateway admits or refuses every call itself, before doing any work.

Three limits per gateway process:

* **starting calls**: unary calls in flight plus streams that have not sent their first message
  yet (a stream's costly part: authentication, Redis reads, the first view);
* **open streams**: server-streaming and bidirectional calls, from their start to their end;
* **backlog**: calls that reached grpc core but that the event loop has not taken yet.

Why the backlog: grpc.aio takes one call per method from grpc core at a time, each after a few
turns of the event loop. When calls arrive faster than the loop takes them, they queue inside
grpc core, unseen by Python: the other two limits never fill, and core cancels queued calls on
its own (`CANCELLED`) once there are more than `grpc.server.max_pending_requests` (at random
above it) or once one has waited 30 s (`grpc.server_max_unrequested_time_in_server`). So
`core_options` raises core's queue far above `max_backlog`, and the backlog is measured: calls
alive in core (its channelz counters: started - succeeded - failed) minus the calls running in
Python. Over `max_backlog`, every call taken is refused at once, which costs the loop little,
so the queue drains quickly and no call is left for core to cancel.

A call over a limit is refused with `RESOURCE_EXHAUSTED`, an ErrorInfo reason
`ERROR_REASON_OVERLOADED` (metadata `limit`: `starting_calls`, `open_streams` or `backlog`) and
a `google.rpc.RetryInfo` delay; the SDK retries it after that delay, with backoff and jitter.
Health checks and reflection are never refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import grpc
import structlog
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc._cython import cygrpc  # type: ignore[attr-defined]  # channelz, as grpcio-channelz reads it
from grpc_status import rpc_status

from flotilla import metrics
from flotilla.gateway.errors import DOMAIN
from flotilla.settings import Settings

log = structlog.get_logger("flotilla.gateway")

# Never refused (only counted): load balancers and probes must see the truth under load.
EXEMPT = ("/grpc.health.v1.Health/", "/grpc.reflection.")

STARTING, STREAMS, BACKLOG = "starting_calls", "open_streams", "backlog"
BACKLOG_POLL_S = 0.05
MAX_RETRY_AFTER_S = 30.0


@dataclass(frozen=True, slots=True)
class Limits:
    """What one gateway process admits at once (see the module docstring)."""

    starting_calls: int = 1000
    open_streams: int = 20_000
    backlog: int = 1000
    retry_after_s: float = 0.5

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            settings.max_starting_calls,
            settings.max_open_streams,
            settings.max_backlog,
            settings.overload_retry_ms / 1000,
        )


def core_options(settings: Settings) -> list[tuple[str, int]]:
    """grpc core server options: its queue of calls not yet taken by the server, per method.

    Soft and hard limit are equal: core rejects at random between the two, never below the soft
    one. Admission keeps the queue near `max_backlog`; this is only the last resort.
    """
    return [
        ("grpc.server.max_pending_requests", settings.grpc_max_pending),
        ("grpc.server.max_pending_requests_hard_limit", settings.grpc_max_pending),
    ]


def refusal(limit: str, retry_after_s: float) -> grpc.Status:
    """RESOURCE_EXHAUSTED with ErrorInfo OVERLOADED (metadata `limit`) and a RetryInfo delay."""
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason="ERROR_REASON_OVERLOADED", domain=DOMAIN, metadata={"limit": limit}))
    retry = any_pb2.Any()
    delay = duration_pb2.Duration()
    delay.FromMilliseconds(int(retry_after_s * 1000))
    retry.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
    message = f"this gateway is at its limit of {limit.replace('_', ' ')}; retry in {retry_after_s:.1f} s"
    status: grpc.Status = rpc_status.to_status(
        status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=message, details=[info, retry])
    )
    return status


def core_server_ids() -> set[int]:
    """The ids of this process's grpc servers in channelz."""
    found = json.loads(cygrpc.channelz_get_servers(0)).get("server", [])
    return {int(s["ref"]["serverId"]) for s in found}


def core_calls_alive(server_id: int) -> int:
    """Calls grpc core started and has not finished (queued, or running in Python)."""
    data = json.loads(cygrpc.channelz_get_server(server_id))["server"].get("data", {})
    return int(data.get("callsStarted", 0)) - int(data.get("callsSucceeded", 0)) - int(data.get("callsFailed", 0))


Context = grpc.aio.ServicerContext[Any, Any]
Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"  # generic only in the type stubs


class Admission(grpc.aio.ServerInterceptor):
    """Counts starting calls, open streams and the backlog in this process; refuses calls beyond the limits.

    The decision is taken when the handler starts (not in `intercept_service`, which grpc runs
    before reading the request: a call cancelled in between would never release its place).
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.starting = 0
        self.streams = 0
        self.running = 0  # calls whose handler runs, exempt ones included
        self.backlog = 0  # estimated calls queued in grpc core
        self._wrapped: dict[str, Handler] = {}
        self.started_total = 0  # calls that finished their start phase
        self.start_rate = float(limits.backlog)  # of them per second while busy, smoothed (a prior until measured)
        self._refusals: dict[tuple[str, int], grpc.Status] = {}
        self._monitor: asyncio.Task[None] | None = None

    def retry_after_s(self) -> float:
        """The RetryInfo delay: about how long the calls already admitted or queued need to start.

        At least `limits.retry_after_s`; so that refused clients come back as capacity frees up
        rather than all at once.
        """
        ahead = max(self.backlog, 0) + self.starting
        return min(MAX_RETRY_AFTER_S, max(self.limits.retry_after_s, ahead / max(self.start_rate, 1.0)))

    def watch_backlog(self, server_id: int | None) -> None:
        """Measure grpc core's queue of the server with this channelz id (None: no backlog limit)."""
        if server_id is not None:
            self._monitor = asyncio.get_running_loop().create_task(self._measure(server_id), name="backlog")

    async def close(self) -> None:
        if self._monitor is not None:
            self._monitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._monitor

    async def _measure(self, server_id: int) -> None:
        loop = asyncio.get_running_loop()
        then, started, busy = loop.time(), self.started_total, False
        while True:
            now = loop.time()
            if busy and now > then:  # measured only while calls queue: then it is capacity
                self.start_rate = 0.7 * self.start_rate + 0.3 * (self.started_total - started) / (now - then)
            then, started, busy = now, self.started_total, self.backlog > 0
            try:
                self.backlog = core_calls_alive(server_id) - self.running
            except (ValueError, KeyError) as exc:  # channelz gone (server stopped) or changed
                log.warning("admission.backlog_unavailable", error=str(exc))
                self.backlog = 0
                return
            metrics.CALLS_BACKLOG.set(max(self.backlog, 0))
            await asyncio.sleep(BACKLOG_POLL_S)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        self.backlog -= 1  # this call left core's queue (until the next measure)
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
        if self.backlog > self.limits.backlog:
            return BACKLOG
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
        self.started_total += 1
        metrics.CALLS_STARTING.set(self.starting)

    def _ended(self) -> None:
        self.streams -= 1
        metrics.ADMITTED_STREAMS.set(self.streams)

    async def _refuse(self, context: Context, name: str, limit: str) -> None:
        metrics.CALLS_REFUSED.labels(name, limit).inc()
        delay_ds = round(self.retry_after_s() * 10)  # refusals built once per limit and 100 ms of delay
        status = self._refusals.get((limit, delay_ds))
        if status is None:
            status = self._refusals[limit, delay_ds] = refusal(limit, delay_ds / 10)
        await context.abort_with_status(status)

    def _wrap(self, handler: Handler, method: str) -> Handler:
        codec = {
            "request_deserializer": handler.request_deserializer,
            "response_serializer": handler.response_serializer,
        }
        behavior: Any = (
            (handler.stream_stream if handler.request_streaming else handler.unary_stream)
            if handler.response_streaming
            else (handler.stream_unary if handler.request_streaming else handler.unary_unary)
        )
        name = method.rpartition("/")[2]
        admitted: Callable[..., Any]
        if method.startswith(EXEMPT):
            admitted = self._counted(behavior)
        elif handler.response_streaming and inspect.isasyncgenfunction(behavior):
            admitted = self._stream(behavior, name)
        else:  # unary, or a stream that writes with context.write(): started once it runs
            admitted = self._unary(behavior, name, streaming=handler.response_streaming)
        make = {
            (False, False): grpc.unary_unary_rpc_method_handler,
            (True, False): grpc.stream_unary_rpc_method_handler,
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler,
        }[(handler.request_streaming, handler.response_streaming)]
        wrapped: Handler = make(admitted, **codec)
        return wrapped

    def _counted(self, behavior: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(request: Any, context: Context) -> Any:
            self.running += 1
            try:
                return await behavior(request, context)
            finally:
                self.running -= 1

        return counted

    def _unary(
        self, behavior: Callable[..., Awaitable[Any]], name: str, *, streaming: bool
    ) -> Callable[..., Awaitable[Any]]:
        async def admitted(request: Any, context: Context) -> Any:
            self.running += 1
            try:
                limit = self._admit(streaming)
                if limit is not None:
                    await self._refuse(context, name, limit)
                try:
                    return await behavior(request, context)
                finally:
                    self._started()
                    if streaming:
                        self._ended()
            finally:
                self.running -= 1

        return admitted

    def _stream(self, behavior: Callable[..., AsyncIterator[Any]], name: str) -> Callable[..., AsyncIterator[Any]]:
        async def admitted(request: Any, context: Context) -> AsyncIterator[Any]:
            self.running += 1
            try:
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
            finally:
                self.running -= 1

        return admitted
