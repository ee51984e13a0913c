"""Running Flotilla's image under podman in the deploy tests: the images scripts/build-image makes
(built once per machine, cached; scripts/bootstrap-hosts starts the build in the background), the podman command
with the project's containers.conf, per-run names, and a game played from the host."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import grpc
import pytest
from chart_support import ROOT
from grpc_health.v1 import health_pb2, health_pb2_grpc

from flotilla.cli import _demo

CONTAINERS_CONF = ROOT / "deploy" / "podman" / "containers.conf"
BUILD_WAIT_S = 900.0
"""How long scripts/build-image waits for a build already under way (bootstrap's, in the background:
cold, debootstrap of the base and both images, 1.5-3.5 min here; minutes more on a loaded machine)."""
BUILD_TIMEOUT_S = 1200.0
"""That wait and a build of our own after it (warm: seconds, the layers are cached)."""
START_TIMEOUT_S = 90.0
"""A stack's gateways answering health after its containers are started."""
GAME_TIMEOUT_S = 120.0
"""One whole game played from the host (counter, two random bots)."""
BUILD_LOG = "/var/tmp/flotilla-image-build.log"
"""Where bootstrap's background build logs (scripts/build-image --background)."""
COMMAND_TIMEOUT_S = 180.0
"""Any one podman command (run, stop, rm, kube play/down)."""


def podman_env() -> dict[str, str]:
    """The environment for podman: the project's containers.conf (runc, rlimits within the host's)."""
    return dict(os.environ, CONTAINERS_CONF=str(CONTAINERS_CONF))


def podman(*args: str, check: bool = True, timeout: float = COMMAND_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """Run `podman ARGS` (bounded); on failure raise with its stderr."""
    done = subprocess.run(
        ["podman", *args], env=podman_env(), capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and done.returncode != 0:
        msg = f"podman {' '.join(args[:4])}... exited {done.returncode}: {done.stderr[-2000:]}"
        raise AssertionError(msg)
    return done


def run_suffix() -> str:
    """A per-run suffix for the names of containers, pods, volumes and networks a test makes."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:6]}"


@dataclass(frozen=True)
class Images:
    """The Flotilla image, and the Redis image compose and the chart run here (flotilla-redis, built
    on the same base, when no registry served the base; redis:7 otherwise)."""

    app: str
    redis: str


def need_podman() -> None:
    """Skip without podman, except on CI (CI set), where scripts/bootstrap-hosts must have installed it."""
    if shutil.which("podman") is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs podman (scripts/bootstrap-hosts installs it with apt-get)")
        pytest.skip("no podman here (scripts/bootstrap-hosts installs it when root with apt-get)")


def built_images() -> Images:
    """The images, after scripts/build-image: it waits (bounded) for a build already under way
    (bootstrap's, in the background), then finds its layers cached; or builds them itself. Once per
    process: a failure fails every module that needs the images, without building again."""
    need_podman()
    images = _build()
    if isinstance(images, str):
        pytest.fail(images)
    return images


@cache
def _build() -> Images | str:
    """The images, or why there are none."""
    app = os.environ.get("FLOTILLA_IMAGE", "flotilla:dev")
    redis = os.environ.get("FLOTILLA_REDIS_IMAGE", "flotilla-redis:dev")
    env = dict(podman_env(), FLOTILLA_IMAGE=app, FLOTILLA_REDIS_IMAGE=redis, FLOTILLA_BUILD_WAIT=str(BUILD_WAIT_S))
    try:
        done = subprocess.run(
            [str(ROOT / "scripts" / "build-image")],
            env=env,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"scripts/build-image did not finish in {BUILD_TIMEOUT_S:.0f} s (a background build logs to {BUILD_LOG})"
    if done.returncode != 0:
        return f"scripts/build-image failed ({done.returncode}):\n{done.stderr[-4000:]}"
    if podman("image", "exists", redis, check=False).returncode != 0:
        redis = "docker.io/library/redis:7"  # a registry served the base: compose's own default
    return Images(app, redis)


def free_host_ports(count: int) -> list[int]:
    """Free TCP ports on 127.0.0.1 for published container ports."""
    from flotilla.redis_server import free_port

    ports: set[int] = set()
    while len(ports) < count:
        ports.add(free_port())
    return sorted(ports)


async def serving(target: str) -> bool:
    """Whether the gateway at `target` (host:port on the host) reports SERVING."""
    try:
        async with grpc.aio.insecure_channel(target) as channel:
            reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
    except grpc.RpcError:
        return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def wait_serving(targets: Sequence[str], timeout_s: float = START_TIMEOUT_S) -> None:
    """Until every gateway in `targets` answers health, or fail naming those that did not."""
    deadline = time.monotonic() + timeout_s
    while True:
        answers = await asyncio.gather(*(serving(t) for t in targets))
        if all(answers):
            return
        if time.monotonic() > deadline:
            down = [t for t, ok in zip(targets, answers, strict=True) if not ok]
            raise AssertionError(f"gateways not SERVING after {timeout_s:.0f} s: {down}")
        await asyncio.sleep(0.5)


async def play_a_game(target: str) -> None:
    """Bots on the host play one whole counter game through the gateway at `target`, and its dealing
    is verified from the revealed seed (`flotilla up --demo`'s game, bounded)."""
    assert await asyncio.wait_for(_demo(target, "counter", 2), GAME_TIMEOUT_S) == 0
