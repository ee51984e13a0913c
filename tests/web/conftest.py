"""Fixtures of the browser tests: a stack whose gateway serves the web client, a matchmaker that runs
the rooms' bots, and Debian's chromium driven by Playwright (never `playwright install`)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from flotilla.redis_server import RedisServer, free_port
from flotilla_client import FlotillaClient
from lobby.mm_support import start_matchmaker, stop
from support import stack_limits, start_stack
from web.webstack import WebStack, wait_for_page
from web.webui import CHROMIUM, CHROMIUM_ARGS, Stats

# The tests of tests/web share one stack and one browser (each test makes its own contexts, users and
# rooms), so they run on the session's event loop. Both are package-scoped: xdist hands tests/web out
# as one unit (tests/conftest.py, ONE_SCOPE), so they start once and stop after the last web test.
WEB_LIMITS = ("stream_open_per_user=off", "create_room_per_user=off", "open_rooms_per_user=off")


def _missing_browser() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        return f"no {CHROMIUM} (./scripts/bootstrap installs Debian's chromium when run as root with apt-get)"
    return ""


def _needs_browser() -> None:
    """Skip without a browser (failing instead on CI, where bootstrap must have installed it)."""
    if why := _missing_browser():
        if os.environ.get("CI"):
            pytest.fail(f"tests/web must run on CI: {why}")
        pytest.skip(why)


@pytest.fixture(scope="package")
def web_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebStack]:
    """On a Redis of its own: its workers must not take the work of the in-process workers that
    other tests run on the session's Redis."""
    _needs_browser()
    port = free_port()
    env = {"FLOTILLA_BROWSER_BIND": f"127.0.0.1:{port}", "FLOTILLA_LIMITS": stack_limits(*WEB_LIMITS)}
    logs = tmp_path_factory.mktemp("web-stack")
    redis = RedisServer(tmp_path_factory.mktemp("web-redis"), aof=False).start()
    try:
        stack = start_stack(redis.url, logs, gateways=1, workers=2, extra_env=env)  # once a session
    except BaseException:
        redis.stop()
        raise
    matchmaker = start_matchmaker(stack, logs, "rooms", FLOTILLA_ROOM_GRACE="10")
    try:
        wait_for_page(f"http://127.0.0.1:{port}/")
        yield WebStack(stack, port)
    finally:
        stop(matchmaker)
        stack.stop()
        redis.stop()


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    _needs_browser()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def grpc_client(web_stack: WebStack) -> AsyncIterator[FlotillaClient]:
    """A signed-in gRPC client (not a player) for reading games as the server has them."""
    async with FlotillaClient(web_stack.stack.gateways[0]) as client:
        await client.sign_in("checker")
        yield client


@pytest.fixture(scope="session")
def stats() -> Iterator[Stats]:
    """Clicks, durations and click-to-opponent latencies of every game played (printed at the end;
    written as JSON to $FLOTILLA_WEB_STATS when set)."""
    collected = Stats()
    yield collected
    collected.report(os.environ.get("FLOTILLA_WEB_STATS"))


@pytest.fixture(scope="session")
def screenshots() -> Path | None:
    """Where board screenshots go (docs/screenshots), only with FLOTILLA_SCREENSHOTS=1."""
    if os.environ.get("FLOTILLA_SCREENSHOTS") != "1":
        return None
    return Path(__file__).resolve().parents[2] / "docs" / "screenshots"
