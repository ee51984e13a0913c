"""Exceptions -> gRPC status with a google.rpc.ErrorInfo detail (one table, one decorator).

Whatever a handler raises becomes a typed status: known errors by the table below, anything
else INTERNAL with an incident id (logged), never UNKNOWN. Messages and ErrorInfo metadata are
clipped here, so no error carries more than a short echo of client input.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import grpc
import structlog
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from flotilla.app import errors as app
from flotilla.rules import errors as rules
from flotilla.store.transient import REDIS_TRANSIENT

log = structlog.get_logger("flotilla.gateway")

DOMAIN = "flotilla.dev"
MAX_MESSAGE_CHARS = 200
MAX_METADATA_CHARS = 64
STORE_RETRY_S = 0.5
"""The RetryInfo delay of a call refused UNAVAILABLE because Redis is unreachable or failing over
(a Redis Cluster failover takes about its node timeout; the SDKs retry with their own back-off)."""

# Most specific first: the first matching class decides.
STATUS_OF: tuple[tuple[type[Exception], grpc.StatusCode], ...] = (
    (rules.InvalidAction, grpc.StatusCode.INVALID_ARGUMENT),
    (rules.InvalidConfig, grpc.StatusCode.INVALID_ARGUMENT),
    (rules.RulesError, grpc.StatusCode.FAILED_PRECONDITION),
    (app.InvalidRequest, grpc.StatusCode.INVALID_ARGUMENT),
    (app.UnknownGameKind, grpc.StatusCode.INVALID_ARGUMENT),
    (app.GameNotFound, grpc.StatusCode.NOT_FOUND),
    (app.NotSeated, grpc.StatusCode.PERMISSION_DENIED),
    (app.Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (app.StaleVersion, grpc.StatusCode.ABORTED),
    (app.GameFull, grpc.StatusCode.FAILED_PRECONDITION),
    (app.GameNotFinished, grpc.StatusCode.FAILED_PRECONDITION),
    (app.StoreUnavailable, grpc.StatusCode.UNAVAILABLE),
    (app.RulesVersionUnavailable, grpc.StatusCode.UNAVAILABLE),
    (app.EngineFailure, grpc.StatusCode.INTERNAL),
    (app.NoWorkerAnswer, grpc.StatusCode.DEADLINE_EXCEEDED),
    (app.RateLimited, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (app.QuotaExceeded, grpc.StatusCode.RESOURCE_EXHAUSTED),
)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, the last one an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def retry_info(retry_after_s: float) -> any_pb2.Any:
    """A packed google.rpc.RetryInfo: retry after this many seconds."""
    delay = duration_pb2.Duration()
    delay.FromMilliseconds(max(int(retry_after_s * 1000), 1))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.RetryInfo(retry_delay=delay))
    return detail


def store_unavailable() -> app.StoreUnavailable:
    """What a call gets while Redis is unreachable or failing over: UNAVAILABLE, retry soon."""
    error = app.StoreUnavailable("the game store is unreachable or failing over; retry with the same request_id")
    error.retry_after_s = STORE_RETRY_S
    return error


def to_status(exc: Exception) -> status_pb2.Status:
    """The google.rpc.Status for an exception (INTERNAL without details for bugs), clipped."""
    if isinstance(exc, REDIS_TRANSIENT):  # unreachable, or a Redis Cluster failing over
        exc = store_unavailable()
    if isinstance(exc, TimeoutError):
        exc = app.NoWorkerAnswer("no worker answered in time; retry with the same request_id")
    for cls, code in STATUS_OF:
        if isinstance(exc, cls):
            error: rules.RulesError | app.AppError = exc  # type: ignore[assignment]
            metadata = {key: clip(value, MAX_METADATA_CHARS) for key, value in error.metadata.items()}
            info = error_details_pb2.ErrorInfo(reason=f"ERROR_REASON_{error.reason}", domain=DOMAIN, metadata=metadata)
            detail = any_pb2.Any()
            detail.Pack(info)
            details = [detail]
            retry_after_s = getattr(error, "retry_after_s", None)
            if retry_after_s is not None:
                details.append(retry_info(retry_after_s))
            return status_pb2.Status(
                code=code.value[0], message=clip(error.message, MAX_MESSAGE_CHARS), details=details
            )
    incident = uuid.uuid4().hex[:12]
    log.exception("gateway.internal_error", incident=incident)
    return status_pb2.Status(code=code_pb2.INTERNAL, message=f"internal error (incident {incident})")


async def abort(context: grpc.aio.ServicerContext[Any, Any], exc: Exception) -> NoReturn:
    """End the call with the status of `exc` (raises grpc's AbortError)."""
    await context.abort_with_status(rpc_status.to_status(to_status(exc)))
    raise AssertionError("unreachable: abort raises")


P = ParamSpec("P")
R = TypeVar("R")


def maps_errors(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Unary handlers: turn exceptions into rich gRPC statuses."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await abort(args[-1], exc)  # type: ignore[arg-type]

    return wrapper


def maps_stream_errors(
    method: Callable[P, AsyncIterator[R]],
) -> Callable[P, AsyncIterator[R]]:
    """Streaming handlers: the same, for async generators."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> AsyncIterator[R]:
        try:
            async for item in method(*args, **kwargs):
                yield item
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await abort(args[-1], exc)  # type: ignore[arg-type]

    return wrapper
