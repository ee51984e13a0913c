"""Errors that mean "retry": Redis is unreachable, failing over, or its slots are moving.

redis-py's exception tree does not put these under one class. A lost or refused connection is a
`ConnectionError` (a node still loading its data, `BusyLoadingError`, is one too), a slow one a
`TimeoutError`; but a Redis Cluster in a failover answers `CLUSTERDOWN` (`ClusterDownError`,
`MasterDownError`: `ClusterError` and `ResponseError`), `TRYAGAIN` (`TryAgainError`), `MOVED`/`ASK`
(`MovedError`, `AskError`: the client's retries ran out before it caught up), `READONLY` (a write
that reached a primary just demoted), and the cluster client itself raises `SlotNotCoveredError`
or `RedisClusterUnreachableError` (`RedisClusterException`, not a `RedisError` at all) while no
node it knows serves a slot. Every long-lived loop treats these as "wait a moment and go on",
every gateway call as UNAVAILABLE (STORE_UNAVAILABLE); anything else (a script's error, a
`NOGROUP`, a bug) is not in here and is handled, or surfaced, where it happens.

Above the store nobody sees these classes: a store's public methods (`own_errors`) raise the
store's own `StoreUnreachable` for them (and for a socket's `OSError`), `StoreFailed` for any other
redis-py error, and `group_required` turns `NOGROUP` into `WorkGroupLost` (all in flotilla/errors.py,
under `StoreError`). Code outside store/ catches those: `StoreUnreachable` to wait out an outage,
`StoreError` for anything Redis did. The tuples below hold both forms, for the store's own readers
(which run raw commands) and the gateway's last resort (`UNREACHABLE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

from redis.exceptions import (
    AskError,
    ClusterError,
    ReadOnlyError,
    RedisClusterUnreachableError,
    RedisError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla.errors import StoreError, StoreFailed, StoreUnreachable, WorkGroupLost

REDIS_TRANSIENT: tuple[type[Exception], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ClusterError,
    TryAgainError,
    AskError,
    ReadOnlyError,
    SlotNotCoveredError,
    RedisClusterUnreachableError,
)
"""redis-py's errors that mean "Redis is unreachable or failing over: retry" (see the module docstring)."""

UNREACHABLE: tuple[type[Exception], ...] = (StoreUnreachable, *REDIS_TRANSIENT)
"""The store's own `StoreUnreachable`, and the redis-py errors it stands for (raised where no store
method was in between: a reader's own loop, a raw client): what a gateway answers UNAVAILABLE."""

TRANSIENT: tuple[type[Exception], ...] = (*UNREACHABLE, OSError)
"""`UNREACHABLE` and a socket's own `OSError`: what a long-lived reader or loop waits out."""

RETRY_PAUSE_S = 0.5
"""How long a long-lived loop waits after a transient error before it tries again (a failover
takes the cluster client about this long to relearn the slots)."""


def is_transient(exc: BaseException) -> bool:
    """Whether `exc` means "Redis is unreachable or failing over: retry"."""
    return isinstance(exc, TRANSIENT)


ANY_REDIS: tuple[type[Exception], ...] = (*TRANSIENT, RedisError, StoreError)
"""Every Redis error, transient or not, `OSError`, and the store's own errors: what a best-effort
loop of the store logs and waits out, as it cannot tell a lasting cause from a failover (outside
the store: `StoreError`)."""


def log_survived(
    logger: Any,
    where: str,
    exc: Exception,
    *,
    unavailable: str = "redis_unavailable",
    failed: str = "loop_failed",
    **context: Any,
) -> None:
    """Log an error a long-lived loop survives: a transient one as `<where>.<unavailable>`, a
    warning; anything else (a bug, a script's error) as `<where>.<failed>`, an error with its
    traceback under a new incident id."""
    if is_transient(exc):
        logger.warning(f"{where}.{unavailable}", error=str(exc)[:200], **context)
    else:
        logger.error(f"{where}.{failed}", incident=uuid.uuid4().hex[:12], exc_info=exc, **context)


async def survive(logger: Any, where: str, exc: Exception, **context: Any) -> None:
    """After `exc` escaped one round of a long-lived loop: log it (`log_survived`) and pause
    `RETRY_PAUSE_S` before the next round (transient: Redis may be back; a bug: no busy loop)."""
    log_survived(logger, where, exc, **context)
    await asyncio.sleep(RETRY_PAUSE_S)


@contextlib.contextmanager
def group_required() -> Iterator[None]:
    """Around reads of the workers' group: Redis's `NOGROUP` (it lost its data) raised as the
    store's own `WorkGroupLost`; any other error unchanged."""
    try:
        yield
    except ResponseError as exc:
        if "NOGROUP" not in str(exc):
            raise
        raise WorkGroupLost(str(exc)[:200]) from exc


S = TypeVar("S")


def own_errors(store: type[S]) -> type[S]:
    """Class decorator for a store: each public coroutine method raises the store's own errors
    (chained to the original) in place of its client's, so callers never see redis-py's:
    `StoreUnreachable` for a transient one or a socket's `OSError`, `StoreFailed` for any other."""
    for name, method in list(vars(store).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            setattr(store, name, _owning(method))
    return store


_UNREACHABLE_RAW: tuple[type[Exception], ...] = (*REDIS_TRANSIENT, OSError)


def _owning(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def owned(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except StoreError:
            raise  # its own already (a store method that calls another)
        except _UNREACHABLE_RAW as exc:
            raise StoreUnreachable(str(exc)[:200] or type(exc).__name__) from exc
        except RedisError as exc:
            raise StoreFailed(str(exc)[:200] or type(exc).__name__) from exc

    return owned
