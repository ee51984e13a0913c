"""deploy/compose.yaml under podman-compose, as an operator without an image registry runs it
(docs/deploy.md, "Compose under podman"): Redis (flotilla-redis, or redis:7 where a registry serves
it), two gateways, a worker and a matchmaker on the project's network, the gateways published on
127.0.0.1. compose's health checks pass; a client on the host plays a whole game through each
gateway; then the stack stops on SIGTERM (every process drains and exits 0) and `down -v` leaves no
container, volume or network."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from chart_support import ROOT
from podman_support import (
    COMMAND_TIMEOUT_S,
    built_images,
    free_host_ports,
    play_a_game,
    podman,
    podman_env,
    run_suffix,
    wait_serving,
)

COMPOSE_FILE = ROOT / "deploy" / "compose.yaml"
SERVICES = ("redis", "gateway-1", "gateway-2", "worker", "matchmaker")
HEALTH_CHECKED = ("redis", "gateway-1", "gateway-2")
STOP_TIMEOUT_S = 30  # compose's stop_grace_period for the Flotilla services


@dataclass(frozen=True)
class Project:
    name: str
    env: dict[str, str]
    gateways: tuple[str, str]

    def compose(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`podman-compose -p NAME -f deploy/compose.yaml ARGS` (bounded); fail with its output."""
        done = subprocess.run(
            ["podman-compose", "-p", self.name, "-f", str(COMPOSE_FILE), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
        assert done.returncode == 0, f"podman-compose {' '.join(args)}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
        return done

    def containers(self) -> list[dict[str, Any]]:
        label = f"label=io.podman.compose.project={self.name}"
        return list(json.loads(podman("ps", "--all", "--filter", label, "--format", "json").stdout or "[]"))

    def leftovers(self) -> dict[str, list[str]]:
        """What of this project podman still holds: containers, volumes and networks by name."""
        volumes = podman("volume", "ls", "--format", "{{.Name}}").stdout.split()
        networks = podman("network", "ls", "--format", "{{.Name}}").stdout.split()
        return {
            "containers": [name for c in self.containers() for name in c["Names"]],
            "volumes": [v for v in volumes if v.startswith(f"{self.name}_")],
            "networks": [n for n in networks if n.startswith(f"{self.name}_")],
        }

    def remove(self) -> None:
        """Remove everything the project made, by its names (also after a failed test)."""
        for container in self.containers():
            podman("rm", "--force", "--time", "5", container["Id"], check=False)
        leftovers = self.leftovers()
        for volume in leftovers["volumes"]:
            podman("volume", "rm", "--force", volume, check=False)
        for network in leftovers["networks"]:
            podman("network", "rm", "--force", network, check=False)


@pytest.fixture(scope="module")
def project() -> Iterator[Project]:
    images = built_images()  # skips without podman (fails on CI)
    if shutil.which("podman-compose") is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs podman-compose (scripts/bootstrap-hosts installs Debian's with apt-get)")
        pytest.skip("no podman-compose (scripts/bootstrap-hosts installs Debian's)")
    name = f"flotilla-compose-{run_suffix()}"
    ports = free_host_ports(4)
    env = dict(
        podman_env(),
        FLOTILLA_IMAGE=images.app,
        REDIS_IMAGE=images.redis,
        REDIS_PASSWORD=secrets.token_hex(16),
        REDIS_ADMIN_PASSWORD=secrets.token_hex(16),
        FLOTILLA_WORKER_PROCESSES="1",
        GATEWAY_1_PORT=str(ports[0]),
        GATEWAY_1_BROWSER_PORT=str(ports[1]),
        GATEWAY_2_PORT=str(ports[2]),
        GATEWAY_2_BROWSER_PORT=str(ports[3]),
    )
    stack = Project(name, env, (f"127.0.0.1:{ports[0]}", f"127.0.0.1:{ports[2]}"))
    try:
        stack.compose("up", "--detach", "--no-build")
        yield stack
    finally:
        stack.remove()


async def test_a_host_client_plays_through_each_gateway(project: Project) -> None:
    await wait_serving(project.gateways)
    # compose's own health checks, run by podman (without systemd they are not scheduled: run once here)
    for container in project.containers():
        if container["Labels"]["com.docker.compose.service"] in HEALTH_CHECKED:
            podman("healthcheck", "run", container["Id"])
    for target in project.gateways:
        await play_a_game(target)
    states = {str(c["Labels"]["com.docker.compose.service"]): c["State"] for c in project.containers()}
    assert states == dict.fromkeys(SERVICES, "running")


def test_the_stack_stops_on_sigterm_and_leaves_nothing(project: Project) -> None:
    project.compose("stop", "--timeout", str(STOP_TIMEOUT_S))
    exits = {str(c["Labels"]["com.docker.compose.service"]): c["ExitCode"] for c in project.containers()}
    assert exits == dict.fromkeys(SERVICES, 0), "a process did not drain and exit 0 on SIGTERM"
    project.compose("down", "--volumes")
    leftover_networks = project.leftovers()["networks"]
    for network in leftover_networks:  # podman-compose 1.0.3's down leaves the project's network
        podman("network", "rm", network)
    assert project.leftovers() == {"containers": [], "volumes": [], "networks": []}
