"""The image scripts/build-image makes (deploy/Dockerfile), run under podman: `flotilla --version` as
a non-root user on a read-only root filesystem, no test or dev tools inside, and every role running:
Redis, a gateway, a worker and a matchmaker in one pod (its gRPC port published on 127.0.0.1), a game
played against it from the host, `flotilla bot` playing one inside, and `flotilla up --demo` alone."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from podman_support import Images, built_images, free_host_ports, play_a_game, podman, run_suffix, wait_serving

UID = "10001"  # deploy/Dockerfile's user, the Helm chart's runAsUser
HARDENED = ("--read-only", "--cap-drop", "ALL", "--security-opt", "no-new-privileges")
LOCAL_GATEWAY = "127.0.0.1:50051"  # the gateway inside the pod (its network namespace)
DEV_TOOLS = ("pytest", "mypy", "ruff", "pip", "setuptools", "hypothesis", "playwright")


@pytest.fixture(scope="module")
def images() -> Images:
    return built_images()


def run(image: str, *args: str, options: tuple[str, ...] = ()) -> str:
    """`podman run --rm` hardened (read-only root, no capabilities); its stdout."""
    return podman("run", "--rm", *HARDENED, *options, image, *args).stdout


def test_version_as_non_root_on_a_read_only_root(images: Images) -> None:
    config = json.loads(podman("image", "inspect", images.app).stdout)[0]["Config"]
    assert config["User"].split(":")[0] == UID
    assert config["Entrypoint"] == ["flotilla"]
    assert run(images.app, "--version").strip() == "flotilla 0.1.0"
    assert run(images.app, "--version", options=("--user", f"{UID}:{UID}")).startswith("flotilla ")


def test_no_test_or_dev_tools_inside(images: Images) -> None:
    probe = (
        "import importlib.util, json, os, shutil; "
        f"print(json.dumps([[m for m in {list(DEV_TOOLS)!r} if importlib.util.find_spec(m)], "
        f"[t for t in {list(DEV_TOOLS)!r} if shutil.which(t)], os.getuid()]))"
    )
    modules, commands, uid = json.loads(run(images.app, "-c", probe, options=("--entrypoint", "python")))
    assert modules == []
    assert commands == []
    assert str(uid) == UID


def test_up_demo_plays_a_whole_game_alone(images: Images) -> None:
    """`flotilla up --demo`: embedded Redis, gateway, workers, matchmaker in one container, state on tmpfs."""
    out = run(
        images.app,
        *("up", "--demo", "--workers", "1", "--gateways", "1", "--state-dir", "/tmp/state", "--game", "counter"),
        options=("--tmpfs", "/tmp", "--env", "FLOTILLA_BROWSER_BIND=off"),
    )
    assert "dealing verified" in out


@pytest.fixture(scope="module")
def pod(images: Images) -> Iterator[tuple[str, int]]:
    """A pod: Redis, then gateway, worker and matchmaker containers of the image; (name, host port)."""
    name = f"flotilla-image-{run_suffix()}"
    (port,) = free_host_ports(1)
    podman("pod", "create", "--name", name, "--publish", f"127.0.0.1:{port}:50051")
    try:
        env = ("--env", "REDIS_URL=redis://127.0.0.1:6379/0", "--env", f"FLOTILLA_GATEWAY={LOCAL_GATEWAY}")
        common = ("--detach", "--pod", name, *HARDENED, *env)
        podman("run", "--detach", "--pod", name, "--name", f"{name}-redis", images.redis, "redis-server", "--save", "")
        for role in ("gateway", "worker", "matchmaker"):
            podman("run", *common, "--name", f"{name}-{role}", images.app, role)
        yield name, port
    finally:
        podman("pod", "rm", "--force", "--time", "10", name, check=False)


async def test_every_role_runs_and_a_host_client_plays(pod: tuple[str, int], images: Images) -> None:
    name, port = pod
    await wait_serving([f"127.0.0.1:{port}"])
    await play_a_game(f"127.0.0.1:{port}")  # from the host, through the published port
    # `flotilla bot` inside the pod: creates a game and plays every seat of it, then exits 0.
    podman("run", "--rm", "--pod", name, *HARDENED, images.app, "bot", "--kind", "counter", "--target", LOCAL_GATEWAY)
    # Every process answers its /metrics (gateway 9100, worker 9101, matchmaker 9102) and is still up.
    probe = (
        "import urllib.request as u\n"
        "for port in (9100, 9101, 9102): u.urlopen(f'http://127.0.0.1:{port}/metrics', timeout=5).read()"
    )
    podman("exec", f"{name}-gateway", "python", "-c", probe)
    states = json.loads(podman("pod", "inspect", name).stdout)
    containers = states["Containers"] if isinstance(states, dict) else states[0]["Containers"]
    assert {c["Name"]: c["State"] for c in containers if not c["Name"].endswith("-infra")} == {
        f"{name}-{r}": "running" for r in ("redis", "gateway", "worker", "matchmaker")
    }
