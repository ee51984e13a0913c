"""What a failed call means: `FlotillaError` (code, message, ErrorInfo reason) and the retry policy.

Shared by the async and the sync client: both grpc.aio and grpc's blocking calls fail with an
object that has `code()`, `details()` and `trailing_metadata()` (`RpcFailure`). The
google.rpc.Status detail is read from the `grpc-status-details-bin` trailer, so no
grpcio-status or googleapis-common-protos is needed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import grpc
from google.rpc import error_details_pb2, status_pb2

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
OVERLOADED = "ERROR_REASON_OVERLOADED"  # RESOURCE_EXHAUSTED: the gateway refused the call before doing anything
RATE_LIMITED = "ERROR_REASON_RATE_LIMITED"  # RESOURCE_EXHAUSTED: over a rate limit; nothing was done
TOKEN_EXPIRED = "ERROR_REASON_TOKEN_EXPIRED"
MAX_RATE_LIMIT_WAIT_S = 10.0  # a rate-limit refusal asking for a longer wait is the caller's to handle
LOCAL_CANCEL = "Locally cancelled by application!"  # grpc's details when this process cancelled the call
STATUS_TRAILER = "grpc-status-details-bin"


class RpcFailure(Protocol):
    """A failed gRPC call, as grpc.aio and grpc's blocking stubs raise it."""

    def code(self) -> grpc.StatusCode: ...

    def details(self) -> str | None: ...

    def trailing_metadata(self) -> object: ...


def status_of(error: RpcFailure) -> status_pb2.Status | None:
    """The google.rpc.Status the server attached to `error`, if any."""
    for key, value in error.trailing_metadata() or ():  # type: ignore[attr-defined]
        if key == STATUS_TRAILER and isinstance(value, bytes):
            return status_pb2.Status.FromString(value)
    return None


def error_info(status: status_pb2.Status | None) -> tuple[str, dict[str, str]]:
    """(reason, metadata) of the ErrorInfo in `status` (empty when there is none)."""
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason, dict(info.metadata)
    return "", {}


def reason_of(error: RpcFailure) -> str:
    """The ErrorInfo reason of `error` ("" without one), e.g. ERROR_REASON_NOT_YOUR_TURN."""
    return error_info(status_of(error))[0]


class FlotillaError(Exception):
    """An RPC failed: the gRPC code, the server's message and its ErrorInfo reason and metadata."""

    def __init__(self, code: grpc.StatusCode, message: str, reason: str = "", metadata: Mapping[str, str] = {}) -> None:
        super().__init__(f"{code.name}: {message}" + (f" [{reason}]" if reason else ""))
        self.code = code
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata)

    @classmethod
    def from_rpc(cls, error: RpcFailure) -> FlotillaError:
        """From a failed call (either client's)."""
        reason, metadata = error_info(status_of(error))
        return cls(error.code(), error.details() or "", reason, metadata)

    @classmethod
    def from_status(cls, status: status_pb2.Status) -> FlotillaError:
        """From a google.rpc.Status, e.g. a Play stream's ActionOutcome.status."""
        return cls.from_rpc(Failure(status))


@dataclass(frozen=True, slots=True)
class Failure:
    """A google.rpc.Status as an `RpcFailure` (a Play stream's ActionOutcome.status, or a failure
    this client names), so the retry policy reads it as it reads a failed call."""

    status: status_pb2.Status

    @classmethod
    def of(cls, code: grpc.StatusCode, message: str) -> Failure:
        """A failure with `code` and `message` and no details."""
        return cls(status_pb2.Status(code=code.value[0], message=message))

    def code(self) -> grpc.StatusCode:
        return next((c for c in grpc.StatusCode if c.value[0] == self.status.code), grpc.StatusCode.UNKNOWN)

    def details(self) -> str:
        return self.status.message

    def trailing_metadata(self) -> tuple[tuple[str, bytes], ...]:
        return ((STATUS_TRAILER, self.status.SerializeToString()),)


def retry_after(error: RpcFailure) -> float | None:
    """Seconds to wait at least before retrying `error`'s call; None if it must not be retried.

    Retried: UNAVAILABLE, DEADLINE_EXCEEDED (the same request id makes a retry safe), CANCELLED
    that this process did not ask for (grpc core drops calls it cannot queue), and
    RESOURCE_EXHAUSTED refusals with reason OVERLOADED, after their google.rpc.RetryInfo delay, and
    with reason RATE_LIMITED when that delay is at most MAX_RATE_LIMIT_WAIT_S (the call then
    passes). Quota refusals (QUOTA_EXCEEDED) are not retried: they last until the caller ends
    something it holds.
    """
    code = error.code()
    if code in RETRYABLE:
        return 0.0
    if code == grpc.StatusCode.CANCELLED:
        return None if error.details() == LOCAL_CANCEL else 0.0
    if code != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    status = status_of(error)
    reason = error_info(status)[0]
    if status is None or reason not in (OVERLOADED, RATE_LIMITED):
        return None
    for detail in status.details:
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            delay = float(retry.retry_delay.ToMilliseconds()) / 1000
            return None if reason == RATE_LIMITED and delay > MAX_RATE_LIMIT_WAIT_S else delay
    return None if reason == RATE_LIMITED else 0.0


def retry_pause_s(attempt: int, at_least_s: float, base_s: float = 0.2, cap_s: float = 10.0) -> float:
    """The pause before retry `attempt` (1, 2, ...): the server's RetryInfo delay `at_least_s`
    spread over [delay, 2 x delay], plus exponential backoff with full jitter."""
    return at_least_s * (1 + random.random()) + random.uniform(0, min(cap_s, base_s * 2**attempt))
