"""Several processes of one kind in one container or host: `flotilla gateway` with
FLOTILLA_GATEWAY_PROCESSES=N (N gateways on one port, SO_REUSEPORT) and `flotilla worker` with
FLOTILLA_WORKER_PROCESSES=N.

The parent only supervises: it starts N children (`flotilla <kind>` with a count of 1), each
with its own metrics port (FLOTILLA_METRICS_PORT + i), forwards SIGTERM/SIGINT to them and waits
for them to drain. When one child exits on its own, the parent stops the others and exits with
its status, so the container (or `flotilla up`) fails visibly instead of running short-handed.
Children get SIGTERM when the parent dies (Linux: PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping

import structlog

from flotilla.metrics import DEFAULT_PORTS
from flotilla.settings import Settings

log = structlog.get_logger("flotilla.processes")

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def metrics_port_of(process: str, index: int, base: int | None) -> str:
    """The FLOTILLA_METRICS_PORT of child `index`: the base (FLOTILLA_METRICS_PORT, None: the kind's
    default) plus the index; "0" when the base is 0 (metrics off)."""
    base = DEFAULT_PORTS.get(process, 0) if base is None else base
    return str(base + index if base > 0 else 0)


def split_bind(bind: str) -> tuple[str, int]:
    """`host:port` or `[v6]:port` → (host, port)."""
    host, _, port = bind.rpartition(":")
    if not host or not port.isdigit():
        msg = f"FLOTILLA_BIND={bind!r} is not host:port"
        raise ValueError(msg)
    return host.strip("[]"), int(port)


def check_port_free(bind: str, what: str = "FLOTILLA_BIND") -> None:
    """Raise OSError when anything listens on `bind` already, with or without SO_REUSEPORT: a plain
    bind (no SO_REUSEPORT) fails on any socket holding the port, so N gateway processes share a
    port only with each other."""
    host, port = split_bind(bind)
    if port == 0:
        msg = f"{what}={bind}: several gateway processes need a fixed port, not 0"
        raise OSError(msg)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError as error:
            msg = f"cannot bind {what}={bind}: {error.strerror or error} (is another process serving it?)"
            raise OSError(msg) from error


def signalled() -> Callable[[], bool]:
    """Whether SIGTERM or SIGINT came since this call (which installs their handlers)."""
    stop = False

    def _stop(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    return lambda: stop


def supervise(process: str, count: int, extra_env: Mapping[str, str], metrics_base: int | None) -> int:
    """Run `count` children `flotilla <process>` (env + `extra_env`, metrics from `metrics_base` on)
    until a signal or a child's exit."""
    command = [sys.executable, "-m", "flotilla.cli", process]
    children: list[subprocess.Popen[bytes]] = []
    stopped = signalled()
    status = 0
    try:
        for index in range(count):
            env = dict(os.environ, **extra_env)  # the children's environment: ours and theirs
            env["FLOTILLA_METRICS_PORT"] = metrics_port_of(process, index, metrics_base)
            children.append(subprocess.Popen(command, env=env, preexec_fn=_die_with_parent))  # noqa: PLW1509
        log.info(f"{process}.processes", count=count, pids=[c.pid for c in children])
        while not stopped():
            exited = [c for c in children if c.poll() is not None]
            if exited:
                status = exited[0].returncode or 1
                log.error(f"{process}.process_exited", pid=exited[0].pid, status=exited[0].returncode)
                break
            time.sleep(0.2)
        return status
    finally:
        stop_all(children, grace_s=20)


def stop_all(children: list[subprocess.Popen[bytes]], grace_s: float) -> None:
    """SIGTERM every child still running, then wait; kill those not gone within `grace_s`."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(grace_s)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def run_gateways(settings: Settings, count: int) -> int:
    """`count` gateway processes sharing FLOTILLA_BIND (and, with TLS, the health listener) by
    SO_REUSEPORT; refused when something already holds the port."""
    try:
        check_port_free(settings.bind)
        if settings.tls_cert and settings.health_bind != "off":
            check_port_free(settings.health_bind, "FLOTILLA_HEALTH_BIND")
        if settings.browser_bind != "off":
            check_port_free(settings.browser_bind, "FLOTILLA_BROWSER_BIND")
    except (OSError, ValueError) as error:
        print(f"flotilla gateway: {error}", file=sys.stderr)
        return 2
    only = {"FLOTILLA_GATEWAY_PROCESSES": "1", "FLOTILLA_GATEWAY_REUSEPORT": "1"}
    return supervise("gateway", count, only, settings.metrics_port)


def run_workers(settings: Settings, count: int) -> int:
    """`count` worker processes (workers bind nothing: each is an independent consumer)."""
    return supervise("worker", count, {"FLOTILLA_WORKER_PROCESSES": "1"}, settings.metrics_port)
