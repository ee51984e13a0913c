"""A slow, lossy network path between two processes on one machine (there is no `tc netem` here).

`SlowLink(port)` listens on a free port of 127.0.0.1 and forwards every connection to
127.0.0.1:`port`, each direction on its own terms (`Shape`, changeable while it runs):

* **delay and jitter** in user space: every chunk read is held `delay_ms ± jitter_ms` (uniform)
  before it is written on, but never delivered before an earlier chunk of its direction (TCP's
  byte order holds; a chunk that drew a short delay waits for the one before it). Each direction
  holds at most `MAX_CHUNKS` chunks of `CHUNK` bytes; past that its reader stops reading, so TCP's
  own flow control pushes back on the sender.
* **loss** as real packet loss (`Netns`): with a `netns`, each connection also crosses a TCP hop
  on the loopback of a network namespace the test made, whose nftables drop that share of the
  hop's packets at random (`numgen random`), per direction (data one way, with the ACKs of the
  other). The kernels on both ends of the hop retransmit as over a lossy wire: a lost segment
  costs a tail-loss probe or a retransmission timeout (at least 200 ms), exactly as TCP does.
  (The hop's own round trip is near zero, so the delay above is not in its RTT estimate.)

The proxy runs its own event loop on a thread: the processes on both ends are not the test's,
and a benchmark drives it from synchronous code. `close()` ends every connection and the thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import random
import re
import socket
import subprocess
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

CHUNK = 65536  # bytes read at once
MAX_CHUNKS = 64  # chunks one direction holds at most (4 MiB): then it stops reading
CLONE_NEWNET = 0x40000000  # setns(2): join a network namespace
PREFIX = "slow"  # namespaces made here: slow<pid>x<8 hex>
STALE = re.compile(rf"^{PREFIX}(\d+)x[0-9a-f]{{8}}$")


@dataclass(frozen=True, slots=True)
class Shape:
    """What one direction of a link does to its bytes."""

    delay_ms: float = 0.0  # added to every chunk
    jitter_ms: float = 0.0  # ± this, uniformly (never reordering)
    loss_pct: float = 0.0  # packets of this direction dropped (needs the link's `Netns`)

    def hold_s(self, rng: random.Random) -> float:
        return max(0.0, self.delay_ms + rng.uniform(-self.jitter_ms, self.jitter_ms)) / 1000


STILL = Shape()


def sweep_stale() -> None:
    """Delete the namespaces `Netns` made in processes that are gone (a run killed before its
    cleanup); others' namespaces are left alone."""
    listed = subprocess.run(["ip", "netns", "list"], check=True, capture_output=True, text=True).stdout
    for name in (line.split()[0] for line in listed.splitlines() if line.strip()):
        if (made := STALE.match(name)) and not os.path.exists(f"/proc/{made.group(1)}"):
            subprocess.run(["ip", "netns", "delete", name], check=False, capture_output=True)


class Netns:
    """A network namespace of the test's own (`slow<pid>x<random>`), its loopback up, with an
    nftables table that drops a share of the packets to or from chosen ports of its loopback."""

    def __init__(self) -> None:
        sweep_stale()
        self.name = f"{PREFIX}{os.getpid()}x{uuid.uuid4().hex[:8]}"
        self._losses: dict[int, tuple[float, float]] = {}  # hop port: (to it %, from it %)
        self._lock = threading.Lock()
        subprocess.run(["ip", "netns", "add", self.name], check=True, capture_output=True)
        try:
            self._ip("link", "set", "lo", "up")
            self._nft()
        except BaseException:
            self.close()
            raise

    def _ip(self, *args: str) -> None:
        subprocess.run(["ip", "-n", self.name, *args], check=True, capture_output=True)

    def _nft(self) -> None:
        """Replace the table with one rule per direction of each port that loses packets."""
        rules = []
        for port, shares in sorted(self._losses.items()):
            for match, pct in zip(("dport", "sport"), shares, strict=True):
                if pct > 0:  # per mille: `numgen` draws integers
                    rules.append(f"tcp {match} {port} numgen random mod 1000 < {round(pct * 10)} counter drop")
        chain = "\n".join(["type filter hook input priority 0; policy accept;", *rules])
        script = f"table inet slow {{}}\ndelete table inet slow\ntable inet slow {{\nchain input {{\n{chain}\n}}\n}}\n"
        command = ["ip", "netns", "exec", self.name, "nft", "-f", "-"]
        subprocess.run(command, input=script.encode(), check=True, capture_output=True)

    def lose(self, port: int, to_pct: float, from_pct: float) -> None:
        """Drop `to_pct` % of the packets to `port` and `from_pct` % of those from it."""
        with self._lock:
            self._losses[port] = (to_pct, from_pct)
            self._nft()

    def dropped(self) -> int:
        """Packets dropped so far (by the rules in place: `lose` starts their counts again)."""
        command = ["ip", "netns", "exec", self.name, "nft", "list", "table", "inet", "slow"]
        listed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        return sum(int(n) for n in re.findall(r"counter packets (\d+)", listed))

    def run(self, make: Callable[[], T]) -> T:
        """`make()` on a thread that joined the namespace (sockets it creates live there for good)."""
        got: list[T] = []
        failed: list[BaseException] = []

        def inside() -> None:
            fd = os.open(f"/run/netns/{self.name}", os.O_RDONLY)
            try:
                if ctypes.CDLL(None, use_errno=True).setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns {self.name}")
                got.append(make())
            except BaseException as error:  # handed to the caller's thread
                failed.append(error)
            finally:
                os.close(fd)

        thread = threading.Thread(target=inside, name=f"in-{self.name}")
        thread.start()
        thread.join()
        if failed:
            raise failed[0]
        return got[0]

    def close(self) -> None:
        subprocess.run(["ip", "netns", "delete", self.name], check=False, capture_output=True)


class SlowLink:
    """A TCP proxy to 127.0.0.1:`target_port` that delays, jitters and (with a `netns`) loses
    what it forwards, `up` (towards the target) and `down` on their own terms."""

    def __init__(self, target_port: int, *, netns: Netns | None = None, seed: int = 0) -> None:
        self.target_port = target_port
        self.up, self.down = STILL, STILL
        self.netns = netns
        self._rng = random.Random(seed)
        self._writers: set[asyncio.StreamWriter] = set()
        self._hops: dict[int, asyncio.Future[None]] = {}  # hop connections by local port: until on to the target
        self._loop = asyncio.new_event_loop()
        listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = listener.getsockname()[1]
        self._hop_listener = netns.run(lambda: socket.create_server(("127.0.0.1", 0))) if netns else None
        self.hop_port = self._hop_listener.getsockname()[1] if self._hop_listener else 0
        self._servers: list[asyncio.Server] = []
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"slowlink-{self.port}", daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(listener), self._loop).result(10)

    def shape(self, up: Shape = STILL, down: Shape | None = None) -> None:
        """From now on (each chunk read next), `up` towards the target and `down` (default: as up)
        back; the loss shares go to the namespace's packet filter."""
        self.up, self.down = up, up if down is None else down
        if self.netns is not None:
            self.netns.lose(self.hop_port, self.up.loss_pct, self.down.loss_pct)
        elif self.up.loss_pct or self.down.loss_pct:
            raise ValueError("packet loss needs a SlowLink with a netns")

    def close(self) -> None:
        """Close the listeners and every connection, then stop the thread."""
        if self._loop.is_closed():
            return
        with contextlib.suppress(TimeoutError):
            asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _serve(self, listener: socket.socket) -> None:
        self._servers.append(await asyncio.start_server(self._connection, sock=listener, limit=CHUNK))
        if self._hop_listener is not None:
            self._servers.append(await asyncio.start_server(self._hop_accepted, sock=self._hop_listener, limit=CHUNK))

    async def _close(self) -> None:
        for server in self._servers:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        running = asyncio.all_tasks() - {asyncio.current_task()}
        if running:  # the connections' pumps, ending now that their sockets are closed
            await asyncio.wait(running, timeout=5)

    def _keep(self, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)

    async def _open(
        self, port: int, sock: socket.socket | None = None
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if sock is None:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=CHUNK)
        else:
            await self._loop.sock_connect(sock, ("127.0.0.1", port))
            reader, writer = await asyncio.open_connection(sock=sock, limit=CHUNK)
        self._keep(writer)
        return reader, writer

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One client: to the target (through the namespace's hop when there is one), shaped."""
        self._keep(writer)
        try:
            if self.netns is None:
                far = await self._open(self.target_port)
            else:
                sock = self.netns.run(lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
                sock.setblocking(False)
                sock.bind(("127.0.0.1", 0))
                waiting = self._hops[sock.getsockname()[1]] = self._loop.create_future()
                far = await self._open(self.hop_port, sock)
                await asyncio.wait_for(waiting, 30)  # the hop's end reached the target
        except (OSError, TimeoutError):
            writer.transport.abort()
            return
        await self._relay((reader, writer), far, lambda: self.up, lambda: self.down)

    async def _hop_accepted(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """The namespace's end of a hop: on to the target, unshaped (the hop itself loses)."""
        self._keep(writer)
        waiting = self._hops.pop(writer.get_extra_info("peername")[1], None)
        try:
            target = await self._open(self.target_port)
        except OSError as error:
            writer.transport.abort()
            if waiting is not None:
                waiting.set_exception(error)
            return
        if waiting is not None:
            waiting.set_result(None)
        await self._relay((reader, writer), target, lambda: STILL, lambda: STILL)

    async def _relay(
        self,
        near: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        far: tuple[asyncio.StreamReader, asyncio.StreamWriter],
        up: Callable[[], Shape],
        down: Callable[[], Shape],
    ) -> None:
        """Both directions until both have ended, then both sockets closed."""
        try:
            await asyncio.gather(self._pump(near[0], far[1], up), self._pump(far[0], near[1], down))
        finally:
            for writer in (near[1], far[1]):
                writer.close()
                self._writers.discard(writer)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, shape: Callable[[], Shape]) -> None:
        """Bytes from `source` to `sink`, each chunk held as `shape()` says, in order; an end or a
        failure on either side ends both."""
        held: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue(MAX_CHUNKS)

        async def deliver() -> None:
            broken = False
            while (item := await held.get()) is not None:
                at, data = item
                if broken:
                    continue  # emptied, so that the reader never waits on a full queue
                if (wait := at - self._loop.time()) > 0:
                    await asyncio.sleep(wait)
                try:
                    sink.write(data)
                    await sink.drain()
                except OSError:
                    broken = True
                    sink.transport.abort()
            if not broken and sink.can_write_eof():
                with contextlib.suppress(OSError):
                    sink.write_eof()

        delivering = asyncio.create_task(deliver())
        last = 0.0
        try:
            while data := await source.read(CHUNK):
                last = max(self._loop.time() + shape().hold_s(self._rng), last)  # never before an earlier chunk
                await held.put((last, data))
        except OSError:
            sink.transport.abort()
        await held.put(None)  # (the deliverer always empties the queue)
        await delivering
