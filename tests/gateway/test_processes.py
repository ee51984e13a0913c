"""Several gateway processes on one port (FLOTILLA_GATEWAY_PROCESSES, SO_REUSEPORT), and a port
held by anything else refused clearly, by the group and by a single gateway.

`flotilla gateway` itself is forked from the preloaded fork server (tests/forkserver.py: the
command's own code, without an interpreter's imports); the group's children it starts are exec'd
as in production (flotilla/processes.py)."""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from flotilla.gateway.server import BindError, start_gateway
from flotilla.processes import check_port_free
from flotilla.redis_server import free_port
from flotilla.settings import Settings
from forkserver import Proc, spawn
from support import listening_on, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(90)]


def children(pid: int) -> list[int]:
    """The child processes of `pid` (from /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def sockets_on(port: int, state: str, pid: int | None = None) -> int:
    """TCP sockets on local `port` in `state` ("0A" listening, "01" established), of process `pid`
    if given (its fds' socket inodes, looked up in /proc/net/tcp and tcp6)."""
    inodes = socket_inodes(pid) if pid is not None else None
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if fields[3] == state and local_port == port and (inodes is None or fields[9] in inodes):
                count += 1
    return count


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


@pytest.fixture
def held_port() -> Iterator[int]:
    """A port another process's kind of socket holds: bound and listening, without SO_REUSEPORT."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def gateway_command(redis_url: str, port: int, processes: int) -> tuple[list[str], dict[str, str]]:
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        FLOTILLA_BIND=f"127.0.0.1:{port}",
        FLOTILLA_GATEWAY_PROCESSES=str(processes),
        FLOTILLA_METRICS_PORT="0",
        FLOTILLA_LOG_FORMAT="json",
    )
    return [sys.executable, "-m", "flotilla.cli", "gateway"], env


@pytest.fixture
def gateway_group(redis_url: str, tmp_path: Path) -> Iterator[tuple[Proc, int, Path]]:
    """`flotilla gateway` with FLOTILLA_GATEWAY_PROCESSES=2 on a fresh port; its log."""
    port = free_port()
    command, env = gateway_command(redis_url, port, 2)
    parent = spawn(command, env, tmp_path / "gateway.log")
    try:
        yield parent, port, tmp_path / "gateway.log"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


async def test_two_gateway_processes_share_one_port_and_both_take_calls(
    gateway_group: tuple[Proc, int, Path],
) -> None:
    parent, port, log = gateway_group
    channels: list[grpc.aio.Channel] = []
    try:

        async def both_listen() -> bool:
            assert parent.poll() is None, log.read_text()
            return sockets_on(port, "0A") == 2

        await until(both_listen, 60, "two gateway processes listening", every_s=0.1)
        pids = children(parent.pid)
        assert len(pids) == 2
        # Each new connection lands on one of the two listening sockets (the kernel hashes its
        # addresses): open connections, each answering a call, until both processes hold one.
        held = [0, 0]
        while not all(held) and len(channels) < 64:
            channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
            channels.append(channel)
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=30, wait_for_ready=True
            )
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            held = [sockets_on(port, "01", pid) for pid in pids]
        assert all(held), f"after {len(channels)} connections, per process: {held}"
        assert sum(held) == len(channels)  # every connection is held by one of the two
    finally:
        for channel in channels:
            await channel.close()
        parent.send_signal(signal.SIGTERM)
    assert parent.wait(30) == 0  # SIGTERM reaches both, they drain and exit, so does the parent
    assert not listening_on(port)


def test_gateway_processes_refuse_a_port_held_by_another_process(
    redis_url: str, held_port: int, tmp_path: Path
) -> None:
    command, env = gateway_command(redis_url, held_port, 2)
    started = time.monotonic()
    assert spawn(command, env, tmp_path / "gateway.log").wait(60) == 2
    said = (tmp_path / "gateway.log").read_text()
    assert f"cannot bind FLOTILLA_BIND=127.0.0.1:{held_port}" in said
    assert "in use" in said
    assert time.monotonic() - started < 30  # refused before any gateway starts


def test_the_port_check_sees_reuseport_listeners_too(held_port: int) -> None:
    with pytest.raises(OSError, match="in use"):
        check_port_free(f"127.0.0.1:{held_port}")
    with pytest.raises(OSError, match="fixed port"):
        check_port_free("127.0.0.1:0")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:  # another SO_REUSEPORT group
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        with pytest.raises(OSError, match="in use"):
            check_port_free(f"127.0.0.1:{sock.getsockname()[1]}")


@pytest.mark.parametrize("reuseport", [False, True])
async def test_a_gateway_refuses_a_held_port_and_releases_what_it_started(
    redis_url: str, held_port: int, reuseport: bool
) -> None:
    """With or without SO_REUSEPORT: a socket without it owns its port alone. The error names
    the setting, and start_gateway returns (it used to hang the process on its background tasks)."""
    settings = Settings(redis_url=redis_url, bind=f"127.0.0.1:{held_port}", gateway_reuseport=reuseport)
    with pytest.raises(BindError, match=f"FLOTILLA_BIND=127.0.0.1:{held_port}: the address is in use"):
        await start_gateway(settings)


async def test_without_reuseport_a_gateway_refuses_a_port_a_gateway_group_holds(redis_url: str) -> None:
    port = free_port()
    first = await start_gateway(Settings(redis_url=redis_url, bind=f"127.0.0.1:{port}", gateway_reuseport=True))
    try:
        with pytest.raises(BindError):
            await start_gateway(Settings(redis_url=redis_url, bind=f"127.0.0.1:{port}"))
        second = await start_gateway(Settings(redis_url=redis_url, bind=f"127.0.0.1:{port}", gateway_reuseport=True))
        await second.stop(0)  # one of the group: shares the port
    finally:
        await first.stop(0)
