"""`flotilla worker` with FLOTILLA_WORKER_PROCESSES=2: two workers under one supervisor, both alive
in Redis, both stopped by one SIGTERM.

The supervisor is forked from the tests' fork server (`forkserver.spawn`: `flotilla.cli.main` in a
process of its own, as `python -m flotilla.cli worker`); the two workers are the processes it
starts itself, fresh interpreters (`python -m flotilla.cli worker`), as in production."""

from __future__ import annotations

import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from flotilla.store import keys
from forkserver import Proc, spawn
from support import FLOTILLA, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(90)]


def children(pid: int) -> list[int]:
    return [int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()]


def running(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


@pytest.fixture
def worker_group(redis_url: str, tmp_path: Path) -> Iterator[Proc]:
    env = dict(os.environ, REDIS_URL=redis_url, FLOTILLA_WORKER_PROCESSES="2", FLOTILLA_METRICS_PORT="0")
    parent = spawn([*FLOTILLA, "worker"], env, tmp_path / "worker.log")
    try:
        yield parent
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


async def test_two_worker_processes_run_and_stop_together(redis_url: str, worker_group: Proc) -> None:
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
