"""One stack for all SDK tests (package-scoped: starting one costs seconds)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from flotilla.redis_server import RedisServer
from support import Stack, start_stack


@pytest.fixture(scope="package")
def stack(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two gateways and two workers as subprocesses, shared by tests/sdk."""
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("sdk-stack"))
    yield running
    running.stop()
