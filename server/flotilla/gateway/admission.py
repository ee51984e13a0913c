"""Admission control: the gateway admits or refuses every call itself, before doing any work.

Two limits per gateway process:

* **starting calls**: unary calls in flight plus streams that have not sent their first message
  yet (a stream's costly part: authentication, Redis reads, the first view);
* **open streams**: server-streaming and bidirectional calls, from their start to their end.

A call over a limit is refused at once with `RESOURCE_EXHAUSTED`, an ErrorInfo reason
`ERROR_REASON_OVERLOADED` (metadata `limit`: `starting_calls` or `open_streams`) and a
`google.rpc.RetryInfo` delay; the SDK retries it after that delay, with backoff and jitter.
Health checks and reflection are never refused.

grpc core keeps its own queue of calls that arrived but were not yet taken by the Python server
(one per method). Past `grpc.server.max_pending_requests` it drops new calls at random, and the
clients see a bare `CANCELLED`. `core_options` sets that queue far above what the gateway
admits, so that every call reaches this module and gets an explicit answer.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from flotilla import metrics
from flotilla.gateway.errors import DOMAIN
from flotilla.settings import Settings

# Never refused: load balancers and probes must see the truth under load.
EXEMPT = ("/grpc.health.v1.Health/", "/grpc.reflection.")

STARTING, STREAMS = "starting_calls", "open_streams"


@dataclass(frozen=True, slots=True)
class Limits:
    """What one gateway process admits at once (see the module docstring)."""

    starting_calls: int = 1000
    open_streams: int = 20_000
    retry_after_s: float = 0.5

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(settings.max_starting_calls, settings.max_open_streams, settings.overload_retry_ms / 1000)


def core_options(settings: Settings) -> list[tuple[str, int]]:
    """grpc core server options: its queue of calls not yet taken by the server, per method.

    Soft and hard limit are equal, so core never drops calls at random below the hard limit (it
    rejects at random between the two). The queue only fills while the event loop is busy; each
    call in it costs core a few KB.
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
    message = f"this gateway is at its limit of {limit.replace('_', ' ')}; retry in {retry_after_s:g} s"
    status: grpc.Status = rpc_status.to_status(
        status_pb2.Status(code=code_pb2.RESOURCE_EXHAUSTED, message=message, details=[info, retry])
    )
    return status


Context = grpc.aio.ServicerContext[Any, Any]
Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"  # generic only in the type stubs


class Admission(grpc.aio.ServerInterceptor):
    """Counts starting calls and open streams in this process; refuses calls beyond the limits.

    The decision is taken when the handler starts (not in `intercept_service`, which grpc runs
    before reading the request: a call cancelled in between would never release its place).
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.starting = 0
        self.streams = 0
        self._wrapped: dict[str, Handler] = {}
        self._refusals = {limit: refusal(limit, limits.retry_after_s) for limit in (STARTING, STREAMS)}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        method: str = details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(details)
        if handler is None or method.startswith(EXEMPT):
            return handler
        wrapped = self._wrapped[method] = self._wrap(handler, method.rpartition("/")[2])
        return wrapped

    def _admit(self, streaming: bool) -> str | None:
        """Take a place (None), or name the limit that refuses the call."""
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
        await context.abort_with_status(self._refusals[limit])

    def _wrap(self, handler: Handler, name: str) -> Handler:
        codec = {
            "request_deserializer": handler.request_deserializer,
            "response_serializer": handler.response_serializer,
        }
        behavior: Any
        if not handler.response_streaming:
            behavior = handler.stream_unary if handler.request_streaming else handler.unary_unary
            if handler.request_streaming:
                return grpc.stream_unary_rpc_method_handler(self._unary(behavior, name), **codec)
            return grpc.unary_unary_rpc_method_handler(self._unary(behavior, name), **codec)
        behavior = handler.stream_stream if handler.request_streaming else handler.unary_stream
        if not inspect.isasyncgenfunction(behavior):  # a stream that writes with context.write()
            msg = f"{name}: streaming handlers must be async generators to be admitted"
            raise TypeError(msg)
        if handler.request_streaming:
            return grpc.stream_stream_rpc_method_handler(self._stream(behavior, name), **codec)
        return grpc.unary_stream_rpc_method_handler(self._stream(behavior, name), **codec)

    def _unary(self, behavior: Callable[..., Awaitable[Any]], name: str) -> Callable[..., Awaitable[Any]]:
        async def admitted(request: Any, context: Context) -> Any:
            limit = self._admit(streaming=False)
            if limit is not None:
                await self._refuse(context, name, limit)
            try:
                return await behavior(request, context)
            finally:
                self._started()

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
