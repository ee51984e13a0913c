"""The TypeScript client (clients/typescript) against a real stack: its generated code is in sync
with proto/, it compiles under `tsc --strict`, its node tests pass, its streams survive a gateway
SIGKILLed under them, and the Node conformance client plays every game kind and mode to the end
over two gateways, resuming on the other one.

`scripts/bootstrap` installs its npm packages (`npm ci`); these tests build and run it with node.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from chaos.links import Link
from flotilla.gateway.server import start_gateway
from flotilla.redis_server import RedisServer
from flotilla.settings import Settings
from support import Stack, stack_limits, start_stack

# One xdist worker runs them all: one build, one stack.
pytestmark = [pytest.mark.redis, pytest.mark.timeout(420)]

PACKAGE = Path(__file__).resolve().parents[2] / "clients" / "typescript"
# The conformance seats submit as fast as the server answers (Navegador's ~1,200 moves a game):
# the per-user submit rate limit would make the run wait on it rather than play. Everything else
# keeps the test stack's limits (the node tests meet create_game_per_user's).
LIMITS = stack_limits("submit_per_user=1000/s:100000")
# The conformance client's cases: every kind, and every mode of Port Royal (docs/games.md).
EVERY_GAME = (
    "counter",
    "port_royal/base",
    "port_royal/base_plus",
    "port_royal/contract_comp",
    "port_royal/contract_coop",
    "sail_away",
    "pirates_of_nassau",
    "navegador",
)


def node_binary() -> str:
    """The node executable; fails the test when node or the package's npm packages are missing."""
    binary = shutil.which("node")
    if binary is None:
        pytest.fail("node not found: the TypeScript client needs Node.js >= 20 (see clients/typescript/README.md)")
    if not (PACKAGE / "node_modules").is_dir():
        pytest.fail("clients/typescript/node_modules is missing: run ./scripts/bootstrap (npm ci)")
    return binary


def node(*args: str, timeout_s: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs `node args` in the package; fails the test with its output unless it exits 0."""
    try:
        done = subprocess.run(
            [node_binary(), *args],
            cwd=PACKAGE,
            env=dict(os.environ, **(env or {})),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"node {' '.join(args)} did not finish in {timeout_s} s:\n{error.stdout!r}\n{error.stderr!r}")
    if done.returncode != 0:
        pytest.fail(f"node {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


@pytest.fixture(scope="module")
def compiled() -> None:
    """The package, its tests and the conformance client compiled to dist/ (`tsc --strict`)."""
    node("node_modules/typescript/bin/tsc", "-p", "tsconfig.json", timeout_s=240)


@pytest.fixture(scope="module")
def stack(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Two gateways and two workers (the conftest's `stack`, with LIMITS)."""
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("ts-stack"), extra_env={"FLOTILLA_LIMITS": LIMITS})
    yield running
    running.stop()


@pytest.fixture
def gateways(stack: Stack) -> str:
    """FLOTILLA_GATEWAYS: the stack's gateway addresses, comma-separated."""
    return ",".join(stack.gateways)


def test_generated_code_is_in_sync_with_proto() -> None:
    done = node("scripts/generate.mjs", "--check", timeout_s=120)
    assert "in sync" in done.stdout


def test_node_client_tests_pass(compiled: None, gateways: str) -> None:
    done = node("--test", "--test-reporter=spec", "dist/test/", timeout_s=120, env={"FLOTILLA_GATEWAYS": gateways})
    assert "fail 0" in done.stdout
    assert "skipped 0" in done.stdout, "the server tests ran"


def run_failover(gateways: str, kill: Callable[[], None]) -> str:
    """conformance/failover.js on `gateways`, calling `kill` when it says "kill gateway 1"; its
    output (it bounds itself to 60 s and must exit 0)."""
    env = dict(os.environ, FLOTILLA_GATEWAYS=gateways)
    script = [node_binary(), "dist/conformance/failover.js"]
    output: list[str] = []
    killed = False
    with subprocess.Popen(
        script, cwd=PACKAGE, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as proc:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:  # until the script exits
                output.append(line)
                if line.strip() == "kill gateway 1" and not killed:
                    killed = True
                    kill()
            code = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = "".join(output)
    assert killed, text
    assert code == 0, text
    assert "failover: " in text, text
    return text


def test_node_streams_survive_a_gateway_killed(compiled: None, stack: Stack, gateways: str) -> None:
    """conformance/failover.js plays on gateway 1 and says when to kill it: its Play streams and
    its watch must reopen on gateway 0 by themselves and finish the game, every event once."""
    run_failover(gateways, lambda: stack.restart_gateway(1))  # SIGKILL, then a new gateway on the same address


def test_node_streams_leave_a_black_holed_gateway(compiled: None, stack: Stack) -> None:
    """The same game with gateway 1 reached through a link that, when told, stops forwarding both
    ways without closing: the client's HTTP/2 keepalive (10 s + 5 s, src/grpc.ts) notices, and
    the streams reopen on gateway 0 and finish the game, every event once."""
    link = Link(int(stack.gateways[1].rsplit(":", 1)[1]))
    cut: list[float] = []

    def black_hole() -> None:
        link.cut()
        cut.append(time.monotonic())

    try:
        run_failover(f"{stack.gateways[0]},127.0.0.1:{link.port}", black_hole)
        finished = time.monotonic() - cut[0]
        print(f"the game ended {finished:.1f} s after gateway 1's link was cut")
    finally:
        link.close()
    # keepalive's 15 s, then the rest of the game (80 moves: a few seconds), on a loaded machine
    assert finished <= 15 + 25, f"the game ended {finished:.1f} s after the link was cut"


def test_node_conformance_plays_every_game(compiled: None, gateways: str) -> None:
    done = node(
        "dist/conformance/conformance.js",
        timeout_s=200,
        env={"FLOTILLA_GATEWAYS": gateways, "FLOTILLA_CONFORMANCE_TIMEOUT_S": "180"},
    )
    played = {line.split()[1] for line in done.stdout.splitlines() if line.startswith("ok ")}
    assert played == set(EVERY_GAME), done.stdout
    assert f"{len(EVERY_GAME)} passed, 0 failed" in done.stdout


async def test_node_client_over_the_browser_transports(compiled: None, redis_url: str) -> None:
    """browser/transports.test.ts: the client with connect-node's Connect (binary, JSON) and gRPC-Web
    transports on HTTP/1.1, as a page's fetch, against an in-process gateway's browser listener."""
    settings = Settings(
        redis_url=redis_url,
        secret="ts-browser-" + "t" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=LIMITS,
    )
    gateway = await start_gateway(settings)
    assert gateway.browser is not None
    try:
        proc = await asyncio.create_subprocess_exec(
            node_binary(),
            "--test",
            "--test-reporter=spec",
            "dist/browser/",
            cwd=PACKAGE,
            env=dict(os.environ, FLOTILLA_BROWSER=f"127.0.0.1:{gateway.browser.port}"),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await asyncio.wait_for(proc.communicate(), 90)
    finally:
        await gateway.stop(0)
    text = output.decode()
    assert proc.returncode == 0, text
    assert "pass 3" in text, text
    assert "skipped 0" in text, text
