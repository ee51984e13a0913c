"""One server interceptor for every RPC of every service: the call's log context and its metrics.

For each call it binds to structlog's contextvars the method and, when the request has them, the
request id, game, room and seat (a `seat` field only in a request that also names its `game`:
elsewhere it is a room's seat, not the caller's); every log line emitted inside the call carries
them. It counts the call by method and status code (`flotilla_rpc_calls_total`) and observes its
latency (`flotilla_rpc_seconds`: a unary call's duration, a stream's time to its first message).

What it costs is per call, not per message: the fields to read are found once per request type,
the handler is wrapped once per method, and a stream's messages only pass through one generator.
A client-streaming call (`Play`) has no request when it starts: only the method is bound, and the
handler binds the ids of its first message with `bind`. Each grpc.aio call runs in a task of its
own, so what one call binds never reaches another.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeAlias

import grpc
import structlog
from google.protobuf.message import Message

from flotilla import metrics
from flotilla.gateway.handlers import Handler, behavior_of, rewrap

Context = grpc.aio.ServicerContext[Any, Any]

MAX_BOUND_CHARS = 128  # request ids are at most 128 characters; longer values are not ids: cut
# (request field, log key, prefix its resource name carries)
_FIELDS = (("request_id", "request_id", ""), ("game", "game", "games/"), ("room", "room", "rooms/"))
_Binder: TypeAlias = tuple[tuple[str, str, str], ...]
_BINDERS: dict[type, tuple[_Binder, bool]] = {}  # request type -> (its id fields, whether its seat is the caller's)


def _binder(cls: type) -> tuple[_Binder, bool]:
    descriptor = getattr(cls, "DESCRIPTOR", None)
    fields = descriptor.fields_by_name if descriptor is not None else {}
    found = tuple(entry for entry in _FIELDS if entry[0] in fields)
    seat = "seat" in fields and "game" in fields and fields["seat"].has_presence
    binder = _BINDERS[cls] = (found, seat)
    return binder


def bind(request: object, method: str | None = None) -> None:
    """Bind the ids `request` carries (request id, game, room, the caller's seat) to the log
    context, with the method's name when given (one call to structlog: it is per RPC)."""
    values: dict[str, object] = {} if method is None else {"method": method}
    if isinstance(request, Message):  # not a body that failed to decode: nothing in that to trust
        found, seat = _BINDERS.get(type(request)) or _binder(type(request))
        for field, key, prefix in found:
            value: str = getattr(request, field)
            if value:
                values[key] = value.removeprefix(prefix)[:MAX_BOUND_CHARS]
        if seat and request.HasField("seat"):
            values["seat"] = request.seat  # type: ignore[attr-defined]
    if values:
        structlog.contextvars.bind_contextvars(**values)


def _code(context: Context, exc: BaseException | None) -> str:
    """The status the call ended with: what an abort set, CANCELLED, or UNKNOWN for anything else."""
    if isinstance(exc, asyncio.CancelledError | GeneratorExit):  # the client went away (or the server stopped)
        return "CANCELLED"
    code = context.code()
    if code is not None:
        return code.name
    return "OK" if exc is None else "UNKNOWN"


class _Method:
    """One method's metric children, resolved once."""

    __slots__ = ("calls", "codes", "name", "seconds")

    def __init__(self, name: str) -> None:
        self.name = name
        self.seconds = metrics.RPC_SECONDS.labels(name)
        self.calls = metrics.RPC_CALLS
        self.codes: dict[str, Any] = {}

    def ended(self, code: str) -> None:
        counter = self.codes.get(code)
        if counter is None:
            counter = self.codes[code] = self.calls.labels(self.name, code)
        counter.inc()


class CallContext(grpc.aio.ServerInterceptor):
    """Binds each call's ids to the log context and counts it (see the module docstring).

    Install it first, so that it also counts the calls that admission control refuses.
    """

    def __init__(self) -> None:
        self._wrapped: dict[str, tuple[Handler, Handler]] = {}  # method -> (handler, wrapped handler)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = await continuation(details)  # always: the interceptors after this one count each call
        if handler is None:
            return None
        method: str = details.method
        known = self._wrapped.get(method)
        if known is not None and known[0] is handler:
            return known[1]
        wrapped = _wrap(handler, _Method(method.rpartition(".")[2]))
        self._wrapped[method] = (handler, wrapped)
        return wrapped


def _wrap(handler: Handler, method: _Method) -> Handler:
    behavior = behavior_of(handler)
    reads = not handler.request_streaming  # a unary request is there to read at the start
    traced = (
        _stream(behavior, method, reads)
        if handler.response_streaming and inspect.isasyncgenfunction(behavior)
        else _unary(behavior, method, reads)
    )
    return rewrap(handler, traced)


def _unary(behavior: Callable[..., Awaitable[Any]], method: _Method, reads: bool) -> Callable[..., Awaitable[Any]]:
    async def traced(request: Any, context: Context) -> Any:
        bind(request if reads else None, method.name)
        start = time.perf_counter()
        try:
            response = await behavior(request, context)
        except BaseException as exc:
            method.ended(_code(context, exc))
            raise
        finally:
            method.seconds.observe(time.perf_counter() - start)
        method.ended(_code(context, None))
        return response

    return traced


def _stream(
    behavior: Callable[..., AsyncIterator[Any]], method: _Method, reads: bool
) -> Callable[..., AsyncIterator[Any]]:
    async def traced(request: Any, context: Context) -> AsyncIterator[Any]:
        bind(request if reads else None, method.name)
        start: float | None = time.perf_counter()
        try:
            async for item in behavior(request, context):
                if start is not None:
                    method.seconds.observe(time.perf_counter() - start)
                    start = None
                yield item
        except BaseException as exc:
            method.ended(_code(context, exc))
            raise
        finally:
            if start is not None:  # ended before its first message
                method.seconds.observe(time.perf_counter() - start)
        method.ended(_code(context, None))

    return traced
