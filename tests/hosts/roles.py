"""Flotilla's roles on simulated hosts (`hosts.netns`): a Redis server, gateways, workers.

Each process is a fresh interpreter started with `ip netns exec` (the fork server's children live
in the test's own namespace), with the test's environment (PYTHONPATH: the worktree's sources).
Every host has its own loopback, so fixed ports serve on every host: Redis on `REDIS_PORT`, a
gateway on `GATEWAY_PORT` of its host's address, /metrics of any process on 127.0.0.1:`METRICS_PORT`
inside its host (read with `host.call(support.scrape, METRICS_PORT)`).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from flotilla.redis_server import redis_server_binary
from hosts.netns import Host
from support import stack_limits, until

REDIS_PORT = 6379
GATEWAY_PORT = 50051
METRICS_PORT = 9100
START_TIMEOUT_S = 120.0  # a loaded machine imports slowly (the wait ends as soon as it listens)
FLOTILLA = [sys.executable, "-m", "flotilla.cli"]


def flotilla_env(redis_url: str, **changes: str) -> dict[str, str]:
    """The environment of a Flotilla process on a host: the test's, Redis at `redis_url`, the test
    stacks' settings (`support.start_stack`'s, with per-user submit limits off: bots move as fast
    as their games let them), then `changes` (FLOTILLA_... names)."""
    env = dict(os.environ, REDIS_URL=redis_url, FLOTILLA_METRICS_PORT=str(METRICS_PORT))
    env.update(FLOTILLA_LOG_FORMAT="json", FLOTILLA_HEARTBEAT="2", FLOTILLA_SUBMIT_TIMEOUT="10")
    env.update(FLOTILLA_LIMITS=stack_limits("submit_per_user=off"), FLOTILLA_TRUSTED_PROXIES="")
    env.update(changes)
    return env


def _listening(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=1):
            return True
    except OSError:
        return False


def wait_listening(host: Host, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Until something listens on `port` of `host`'s address (asked from inside `host`)."""
    deadline = time.monotonic() + START_TIMEOUT_S
    while not host.call(_listening, host.address, port):
        if proc.poll() is not None:
            msg = f"{host.role} exited with {proc.returncode}: see {log}"
            raise RuntimeError(msg)
        if time.monotonic() > deadline:
            msg = f"{host.role} did not listen on {host.address}:{port} within {START_TIMEOUT_S} s: see {log}"
            raise TimeoutError(msg)
        time.sleep(0.1)


def start_redis(host: Host, data_dir: Path, *extra: str) -> subprocess.Popen[bytes]:
    """A redis-server on `host` (its address and loopback, REDIS_PORT), AOF fsynced per write as in
    production; waited for."""
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / "redis.log"
    args = [redis_server_binary(), "--bind", host.address, "127.0.0.1", "--port", str(REDIS_PORT)]
    args += ["--dir", str(data_dir), "--appendonly", "yes", "--appendfsync", "always", "--save", ""]
    args += ["--protected-mode", "no", "--loglevel", "warning", *extra]
    proc = host.spawn(args, log)
    wait_listening(host, REDIS_PORT, proc, log)
    return proc


def redis_url(host: Host) -> str:
    return f"redis://{host.address}:{REDIS_PORT}/0"


def start_gateway(host: Host, env: dict[str, str], log_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A gateway on `host`'s address, GATEWAY_PORT (not waited for: `wait_listening`); and its target."""
    target = f"{host.address}:{GATEWAY_PORT}"
    log = log_dir / f"{host.role}.log"
    return host.spawn([*FLOTILLA, "gateway"], log, dict(env, FLOTILLA_BIND=target)), target


def start_worker(host: Host, env: dict[str, str], log_dir: Path) -> subprocess.Popen[bytes]:
    return host.spawn([*FLOTILLA, "worker"], log_dir / f"{host.role}.log", env)


DRIVER_STOP_S = 150.0  # the driver's end: its games end (at most its FINISH_S) and it checks the store


async def driver_report(driver: subprocess.Popen[bytes], out: Path, unsound: str) -> dict[str, Any]:
    """Tell the client host's driver to stop, wait for its end and its store checks, and return its
    report once the checks every fault test makes on it hold (`unsound`: what an unsound game
    means in the caller's test)."""
    (out / "stop").write_text("")
    await until(lambda: asyncio.sleep(0, driver.poll() is not None), DRIVER_STOP_S, "the driver's end and its checks")
    assert driver.returncode == 0, f"the driver failed: see {out / 'driver.log'}"
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    assert report["confirmed"] > 0
    assert report["lost"] == [], "confirmed moves missing from their logs"
    assert report["doubled"] == [], "moves applied twice"
    assert report["unsound"] == [], unsound
    assert report["unfinished"] == [], "games stuck at the end"
    assert report["failures"] == [], "client calls that ended in an error the client could not act on"
    return report
