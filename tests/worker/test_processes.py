"""`flotilla worker` with FLOTILLA_WORKER_PROCESSES=2: two workers under one supervisor, both alive
in Redis, both stopped by one SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from flotilla.store import keys
from support import until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(90)]


def children(pid: int) -> list[int]:
    return [int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()]


def running(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


@pytest.fixture
def worker_group(redis_url: str, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = dict(os.environ, REDIS_URL=redis_url, FLOTILLA_WORKER_PROCESSES="2", FLOTILLA_METRICS_PORT="0")
    with (tmp_path / "worker.log").open("wb") as log:
        parent = subprocess.Popen([sys.executable, "-m", "flotilla.cli", "worker"], env=env, stdout=log, stderr=log)
    try:
        yield parent
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


async def test_two_worker_processes_run_and_stop_together(
    redis_url: str, worker_group: subprocess.Popen[bytes]
) -> None:
    client = aioredis.Redis.from_url(redis_url)
    pids: list[int] = []
    host = socket.gethostname()

    async def both_alive() -> bool:  # each child renews its own liveness key, named by its pid
        assert worker_group.poll() is None
        pids[:] = children(worker_group.pid)
        alive = [k.decode() async for k in client.scan_iter(match=keys.worker("*"))]
        return len(pids) == 2 and all(any(f"{{{host}-{pid}-" in key for key in alive) for pid in pids)

    try:
        await until(both_alive, 60, "two workers' liveness keys", every_s=0.1)
    finally:
        await client.aclose()
    worker_group.send_signal(signal.SIGTERM)
    assert worker_group.wait(30) == 0
    assert not any(running(pid) for pid in pids)
