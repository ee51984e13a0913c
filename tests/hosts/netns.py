"""Simulated hosts on one machine: network namespaces on a private bridge, and faults between them.

    with Net() as net:                        # needs root (see `hosts/conftest.py`'s `net` fixture)
        redis, worker = net.add("redis"), net.add("worker")
        server = redis.spawn([redis_server_binary(), "--bind", redis.address, ...], log_dir / "redis.log")
        net.cut(worker, redis)                # both ways; `one_way=True`: worker -> redis only
        net.isolate(redis)                    # from every other host, both ways
        net.heal(worker, redis)
        pause(server); resume(server)         # SIGSTOP / SIGCONT
        redis.call(some_function, arg)        # runs in a thread inside the host's namespace

Layout. Every namespace is named `<prefix><role>`, the prefix unique per run (`flh<pid>x<hex>-`):
a "switch" namespace holds one bridge `br0`; each host gets a veth pair whose switch end (`v<n>`)
is a port of the bridge and whose host end is `eth0`, with the address `10.A.B.n/24` (A, B chosen
per run). No link or address exists in the root namespace, so nothing here can reach or be
reached from the machine's real networks, and two runs never collide.

Faults. Each host has an nftables table (`inet flh_faults`) with one set of blocked source
addresses, dropped on input: `cut(a, b)` blocks a's packets at b and b's at a; with `one_way` only
a -> b. A drop on input is a black hole as a real partition is (the sender's packets leave, nothing
arrives, nothing is refused), where a drop on output would fail the sender's `connect` at once.

Processes. `Host.spawn` starts a command with `ip netns exec` (which execs it: the pid is the
command's own), in a session of its own, its output into a log file; `Net.close` kills each
process group it made (SIGTERM, then SIGKILL) and deletes its namespaces (their links and nft
tables go with them). `sweep_stale` deletes namespaces of earlier runs on this machine whose
creating process is gone (only names with our prefix).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import re
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

PREFIX = "flh"
"""Every namespace this harness makes starts with it: `flh<pid>x<hex>-<role>`."""
STALE = re.compile(rf"^{PREFIX}(\d+)x[0-9a-f]+-")
TABLE = "flh_faults"
FAULTS = f"""table inet {TABLE} {{
  set blocked {{ type ipv4_addr; }}
  chain input {{ type filter hook input priority -10; policy accept; ip saddr @blocked drop; }}
}}
"""
CLONE_NEWNET = 0x40000000
STOP_GRACE_S = 5.0  # a process gets this long after SIGTERM before SIGKILL
COMMAND_TIMEOUT_S = 30.0  # an `ip` or `nft` command


class HostsUnavailable(RuntimeError):
    """Namespaces cannot be made here (not root, or no `ip` / `nft`)."""


def _ip(*args: str, stdin: str | None = None) -> str:
    try:
        done = subprocess.run(
            ["ip", *args], input=stdin, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, check=False
        )
    except FileNotFoundError as error:
        raise HostsUnavailable("no `ip` (iproute2)") from error
    if done.returncode != 0:
        msg = f"ip {' '.join(args)}: {done.stderr.strip()}"
        raise HostsUnavailable(msg)
    return done.stdout


def namespaces() -> list[str]:
    """The names of the machine's network namespaces (`ip netns list`)."""
    return [line.split()[0] for line in _ip("netns", "list").splitlines() if line.strip()]


def _kill_namespace(ns: str) -> None:
    """SIGKILL whatever still runs in `ns`, then delete it (its links and nft tables go with it)."""
    with contextlib.suppress(HostsUnavailable):
        for pid in _ip("netns", "pids", ns).split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
    with contextlib.suppress(HostsUnavailable):
        _ip("netns", "delete", ns)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale() -> list[str]:
    """Delete the namespaces of earlier runs of this harness whose creating process is gone (a run
    that crashed before its cleanup); returns their names. Others' namespaces are left alone."""
    swept = []
    for ns in namespaces():
        found = STALE.match(ns)
        if found and int(found.group(1)) != os.getpid() and not _alive(int(found.group(1))):
            _kill_namespace(ns)
            swept.append(ns)
    return swept


def pause(proc: subprocess.Popen[bytes]) -> None:
    """SIGSTOP: the process holds its sockets and work but does nothing until `resume`."""
    proc.send_signal(signal.SIGSTOP)


def resume(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGCONT)


@dataclass
class Host:
    """One simulated host: a network namespace with one address on the switch."""

    net: Net
    role: str
    ns: str
    address: str
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def spawn(self, argv: Sequence[str], log: Path, env: Mapping[str, str] | None = None) -> subprocess.Popen[bytes]:
        """Start `argv` inside this host (its output, both streams, into `log`); not waited for."""
        with log.open("ab") as out:
            proc = subprocess.Popen(
                ["ip", "netns", "exec", self.ns, *argv],
                env=None if env is None else dict(env),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as one by `Net.close`
            )
        self.procs.append(proc)
        return proc

    def run(self, argv: Sequence[str], timeout_s: float = COMMAND_TIMEOUT_S) -> str:
        """Run `argv` inside this host to its end; its stdout (a failure raises)."""
        return subprocess.run(
            ["ip", "netns", "exec", self.ns, *argv], capture_output=True, text=True, timeout=timeout_s, check=True
        ).stdout

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a thread that has entered this host's namespace (sockets it opens are the
        host's; so are those of threads it starts); its result or its exception."""
        result: list[T] = []
        failure: list[BaseException] = []

        def inside() -> None:
            try:
                fd = os.open(f"/run/netns/{self.ns}", os.O_RDONLY)
                try:
                    if _libc().setns(fd, CLONE_NEWNET) != 0:
                        raise OSError(ctypes.get_errno(), f"setns into {self.ns}")
                finally:
                    os.close(fd)
                result.append(fn(*args))
            except BaseException as error:
                failure.append(error)

        thread = threading.Thread(target=inside, name=f"in-{self.role}", daemon=True)
        thread.start()
        thread.join()
        if failure:
            raise failure[0]
        return result[0]


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


class Net:
    """A switch namespace with a bridge, and the hosts added to it (see the module docstring)."""

    def __init__(self) -> None:
        self.prefix = f"{PREFIX}{os.getpid()}x{random.getrandbits(24):06x}-"
        self.subnet = f"10.{random.randint(64, 250)}.{random.randint(0, 255)}"
        self.switch = f"{self.prefix}switch"
        self.hosts: list[Host] = []
        self._made: list[str] = []  # namespaces, in the order made
        self._blocked: set[tuple[str, str]] = set()  # (from, to) addresses dropped at `to`
        try:
            self._add_namespace(self.switch)
            _ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
            _ip("-n", self.switch, "link", "set", "br0", "up")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Net:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _add_namespace(self, ns: str) -> None:
        _ip("netns", "add", ns)
        self._made.append(ns)
        _ip("-n", ns, "link", "set", "lo", "up")

    def add(self, role: str) -> Host:
        """A new host named `role` (unique in this net), with the next address of the subnet."""
        n = len(self.hosts) + 1
        host = Host(self, role, f"{self.prefix}{role}", f"{self.subnet}.{n}")
        self._add_namespace(host.ns)
        _ip("-n", self.switch, "link", "add", f"v{n}", "type", "veth", "peer", "name", "eth0", "netns", host.ns)
        _ip("-n", self.switch, "link", "set", f"v{n}", "master", "br0", "up")
        _ip("-n", host.ns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        _ip("-n", host.ns, "link", "set", "eth0", "up")
        _ip("netns", "exec", host.ns, "nft", "-f", "-", stdin=FAULTS)
        self.hosts.append(host)
        return host

    def _block(self, source: Host, at: Host, *, blocked: bool) -> None:
        key = (source.address, at.address)
        if blocked == (key in self._blocked):
            return
        verb = "add" if blocked else "delete"
        _ip("netns", "exec", at.ns, "nft", verb, "element", "inet", TABLE, "blocked", f"{{ {source.address} }}")
        (self._blocked.add if blocked else self._blocked.discard)(key)

    def cut(self, a: Host, b: Host, *, one_way: bool = False) -> None:
        """Drop a's packets to b, and (unless `one_way`) b's to a."""
        self._block(a, b, blocked=True)
        if not one_way:
            self._block(b, a, blocked=True)

    def isolate(self, host: Host) -> None:
        """Cut `host` from every other host, both ways (a Redis primary cut off from everything)."""
        for other in self.hosts:
            if other is not host:
                self.cut(host, other)

    def heal(self, a: Host, b: Host) -> None:
        """Undo every cut between a and b (both directions)."""
        self._block(a, b, blocked=False)
        self._block(b, a, blocked=False)

    def heal_all(self) -> None:
        by_address = {host.address: host for host in self.hosts}
        for source, at in list(self._blocked):
            self._block(by_address[source], by_address[at], blocked=False)

    def close(self) -> None:
        """Stop every process started in a host (SIGTERM to its group, SIGKILL after
        `STOP_GRACE_S`), then delete every namespace this net made."""
        procs = [proc for host in self.hosts for proc in host.procs]
        for proc in procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGCONT)  # a paused process cannot act on SIGTERM
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(STOP_GRACE_S)
        for ns in reversed(self._made):
            _kill_namespace(ns)
        self._made.clear()
