"""Fixtures of the gateway tests: the in-process gateways and worker (tests/inproc.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from flotilla.redis_server import RedisServer
from inproc import InProcess, in_process


@pytest.fixture(scope="module")
def inproc(redis_server: RedisServer) -> Iterator[InProcess]:
    """Two gateways and a worker in the test process on the session's Redis (module-scoped, like
    `stack`; each starts in milliseconds, but a module's tests may share what they create)."""
    with in_process(redis_server.url) as running:
        yield running
