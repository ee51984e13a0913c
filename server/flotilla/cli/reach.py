"""Whether Redis and a gateway answer at start, and the `flotilla` command's exit codes (cli/__init__.py's table)."""

from __future__ import annotations

import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from flotilla.errors import StoreUnreachable
from flotilla.redis_acl import masked

if TYPE_CHECKING:  # imported when used: a command that reaches neither starts without them
    from flotilla.settings import Settings
    from flotilla_client.tls import Tls

EXIT_FAILED, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_CONFIG = 1, 2, 69, 78
"""Exit codes (the `flotilla.cli` docstring's table; 75 is store/liveness.py's `STALLED_EXIT`)."""

REACH_S = 5.0
"""How long a command waits for Redis or a gateway to answer at start before it gives up (exit 69)."""


_T = TypeVar("_T")


def run_async(main: Coroutine[Any, Any, _T]) -> _T:
    """`asyncio.run(main)`; asyncio is imported when a command runs one (`flotilla --help` does not)."""
    import asyncio  # noqa: PLC0415

    return asyncio.run(main)


class Unreachable(Exception):
    """Redis or a gateway did not answer at start: the message names which and where."""


def redis_unreachable(error: BaseException) -> bool:
    """Whether `error` (or every error of a group) means Redis could not be reached."""
    if isinstance(error, BaseExceptionGroup):
        return all(redis_unreachable(e) for e in error.exceptions)
    return isinstance(error, (StoreUnreachable, ConnectionError, TimeoutError))


async def reach_redis(settings: Settings) -> None:
    """One PING to REDIS_URL within `REACH_S`; raises `Unreachable` when it is not answered."""
    import asyncio  # noqa: PLC0415

    from flotilla.store.redis_store import RedisStore  # noqa: PLC0415

    store = RedisStore.from_settings(settings)
    try:
        await asyncio.wait_for(store.ping(), REACH_S)
    except Exception as error:
        if not redis_unreachable(error):
            raise
        raise Unreachable(f"cannot reach Redis at {masked(settings.redis_url)} (REDIS_URL): {error}") from None
    finally:
        await store.close()


def wait_for_gateway(target: str, timeout_s: float = 30.0, tls: Tls | None = None) -> None:
    """Until the gateway at `target` reports SERVING (over TLS when given `tls`)."""
    import grpc  # noqa: PLC0415
    from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: PLC0415

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with tls.channel(target) if tls else grpc.insecure_channel(target) as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
        except grpc.RpcError:
            time.sleep(0.2)
    hint = " over TLS (is the CA of its certificate FLOTILLA_GATEWAY_CA / --ca?)" if tls else ""
    msg = f"the gateway at {target} did not become healthy{hint}"
    raise TimeoutError(msg)


def reach_gateway(target: str, tls: Tls | None) -> None:
    """The gateway at `target` serves within `REACH_S`, or `Unreachable`."""
    try:
        wait_for_gateway(target, REACH_S, tls)
    except TimeoutError as error:
        raise Unreachable(f"{error} within {REACH_S:g} s (is it running? --target)") from None
