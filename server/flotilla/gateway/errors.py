"""Exceptions -> gRPC status with a google.rpc.ErrorInfo detail (one table, one decorator).

Whatever a handler raises becomes a typed status: known errors by the table below, anything
else INTERNAL with an incident id (logged), never UNKNOWN. Messages and ErrorInfo metadata are
clipped here, so no error carries more than a short echo of client input.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, NoReturn, ParamSpec, TypeVar

import grpc
import structlog
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from flotilla import errors
from flotilla.records import OutcomeRecord
from flotilla.store.transient import UNREACHABLE

log = structlog.get_logger("flotilla.gateway")

DOMAIN = "flotilla.dev"
MAX_MESSAGE_CHARS = 200
MAX_METADATA_CHARS = 64
STORE_RETRY_S = 0.5
"""The RetryInfo delay of a call refused UNAVAILABLE because Redis is unreachable or failing over
(a Redis Cluster failover takes about its node timeout; the SDKs retry with their own back-off)."""

ROWS: tuple[tuple[type[errors.FlotillaError], grpc.StatusCode], ...] = (
    # rules
    (errors.RulesError, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.InvalidAction, grpc.StatusCode.INVALID_ARGUMENT),
    (errors.InvalidConfig, grpc.StatusCode.INVALID_ARGUMENT),
    (errors.IllegalAction, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.NotYourTurn, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.GameFinished, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.CannotAfford, grpc.StatusCode.FAILED_PRECONDITION),
    # bad requests
    (errors.InvalidRequest, grpc.StatusCode.INVALID_ARGUMENT),
    (errors.MalformedMessage, grpc.StatusCode.INVALID_ARGUMENT),
    (errors.UnknownGameKind, grpc.StatusCode.INVALID_ARGUMENT),
    # not found
    (errors.GameNotFound, grpc.StatusCode.NOT_FOUND),
    (errors.RoomNotFound, grpc.StatusCode.NOT_FOUND),
    (errors.TicketNotFound, grpc.StatusCode.NOT_FOUND),
    (errors.PartyNotFound, grpc.StatusCode.NOT_FOUND),
    (errors.PartyInviteNotFound, grpc.StatusCode.NOT_FOUND),
    (errors.CatalogNotFound, grpc.StatusCode.NOT_FOUND),
    # authentication
    (errors.Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (errors.TokenExpired, grpc.StatusCode.UNAUTHENTICATED),
    (errors.TokenRevoked, grpc.StatusCode.UNAUTHENTICATED),
    (errors.ApiKeyInvalid, grpc.StatusCode.UNAUTHENTICATED),
    # forbidden
    (errors.NotSeated, grpc.StatusCode.PERMISSION_DENIED),
    (errors.SeatTokenRequired, grpc.StatusCode.PERMISSION_DENIED),
    (errors.GuestsDisabled, grpc.StatusCode.PERMISSION_DENIED),
    (errors.NotRoomHost, grpc.StatusCode.PERMISSION_DENIED),
    (errors.WrongJoinCode, grpc.StatusCode.PERMISSION_DENIED),
    (errors.NotPartyLeader, grpc.StatusCode.PERMISSION_DENIED),
    # wrong state
    (errors.GameFull, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.GameNotFinished, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.SeatAbsent, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.TokenNotRefreshable, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.RoomFull, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.RoomNotOpen, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.RoomNotReady, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.TicketAlreadyWaiting, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.AlreadyInParty, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.PartyFull, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.PartyMemberNotAccepted, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.TooManyInvites, grpc.StatusCode.FAILED_PRECONDITION),
    # contention
    (errors.StaleVersion, grpc.StatusCode.ABORTED),
    (errors.RoomBusy, grpc.StatusCode.ABORTED),
    # limits
    (errors.RateLimited, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (errors.QuotaExceeded, grpc.StatusCode.RESOURCE_EXHAUSTED),
    # service faults
    (errors.RulesVersionUnavailable, grpc.StatusCode.UNAVAILABLE),
    (errors.NoWorkerAnswer, grpc.StatusCode.DEADLINE_EXCEEDED),
    (errors.EngineFailure, grpc.StatusCode.INTERNAL),
    (errors.StoreUnavailable, grpc.StatusCode.UNAVAILABLE),
)
"""The one table from error to gRPC status: a row per error class of the tree in flotilla/errors.py
that has a `reason` (ErrorInfo.reason is ERROR_REASON_<reason>); categories have none and no row.
tests/gateway/test_error_table.py holds every such class to exactly one row."""

STATUS_OF: dict[type[errors.FlotillaError], grpc.StatusCode] = dict(ROWS)
CLASS_OF_REASON: dict[str, type[errors.FlotillaError]] = {cls.reason: cls for cls, _code in ROWS}
"""The row of a reason: how a worker's refusal (an outcome's reason) finds its status."""


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


def store_unavailable() -> errors.StoreUnavailable:
    """What a call gets while Redis is unreachable or failing over: UNAVAILABLE, retry soon."""
    error = errors.StoreUnavailable("the game store is unreachable or failing over; retry with the same request_id")
    error.retry_after_s = STORE_RETRY_S
    return error


class Rejected(Exception):
    """A worker's refusal (a rejected outcome), raised by a servicer to end the call: its status
    comes from its reason's row, as if the worker's own exception had reached this edge."""

    def __init__(self, outcome: OutcomeRecord) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


def status(
    code: grpc.StatusCode, reason: str, message: str, metadata: Mapping[str, str], retry_after_s: float | None = None
) -> status_pb2.Status:
    """A google.rpc.Status with its ErrorInfo (and RetryInfo when `retry_after_s` is set), clipped."""
    clipped = {key: clip(value, MAX_METADATA_CHARS) for key, value in metadata.items()}
    info = error_details_pb2.ErrorInfo(reason=f"ERROR_REASON_{reason}", domain=DOMAIN, metadata=clipped)
    detail = any_pb2.Any()
    detail.Pack(info)
    details = [detail]
    if retry_after_s is not None:
        details.append(retry_info(retry_after_s))
    return status_pb2.Status(code=code.value[0], message=clip(message, MAX_MESSAGE_CHARS), details=details)


def code_of(cls: type[BaseException]) -> grpc.StatusCode | None:
    """The status code of `cls`'s row, or of its nearest ancestor's (None: not an error of the tree)."""
    for ancestor in cls.__mro__:
        code = STATUS_OF.get(ancestor)
        if code is not None:
            return code
    return None


def to_status(exc: Exception) -> status_pb2.Status:
    """The google.rpc.Status for an exception (INTERNAL without details for bugs), clipped."""
    if isinstance(exc, Rejected):  # an unknown reason (a newer worker's) reads as a rules refusal
        outcome = exc.outcome
        cls = CLASS_OF_REASON.get(outcome.reason, errors.RulesError)
        return status(STATUS_OF[cls], cls.reason, outcome.message, outcome.metadata)
    if isinstance(exc, UNREACHABLE):  # unreachable, or a Redis Cluster failing over
        exc = store_unavailable()
    if isinstance(exc, TimeoutError):
        exc = errors.NoWorkerAnswer("no worker answered in time; retry with the same request_id")
    code = code_of(type(exc))
    if code is not None and isinstance(exc, errors.FlotillaError):
        retry_after_s: float | None = getattr(exc, "retry_after_s", None)
        return status(code, exc.reason, exc.message, exc.metadata, retry_after_s)
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
    """Streaming handlers: the same, for async generators.

    A stream registered by gateway/services.py does not run in this wrapper: the registration's
    own generator maps the errors of the method `unmapped_stream` returns (one frame less per
    open stream and per message). Called directly (tests), the wrapper maps them.
    """

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> AsyncIterator[R]:
        try:
            async for item in method(*args, **kwargs):
                yield item
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await abort(args[-1], exc)  # type: ignore[arg-type]

    wrapper.maps_stream_errors_of = method  # type: ignore[attr-defined]
    return wrapper


def unmapped_stream(handler: Callable[..., Any]) -> Callable[..., Any] | None:
    """The generator `handler` wraps when it is (a bound) `maps_stream_errors` wrapper, bound to the
    same object; None otherwise. Its caller then maps the errors itself (`map_error`)."""
    inner = getattr(handler, "maps_stream_errors_of", None)
    if inner is None:
        return None
    owner = getattr(handler, "__self__", None)
    return inner if owner is None else inner.__get__(owner)  # type: ignore[no-any-return]


async def map_error(context: grpc.aio.ServicerContext[Any, Any], exc: Exception) -> NoReturn:
    """What a `maps_stream_errors` wrapper does with an exception: an abort passes, the rest abort."""
    if isinstance(exc, grpc.aio.AbortError):
        raise exc
    await abort(context, exc)
