"""A network link the test can cut: a TCP proxy on loopback between two processes.

`Link(port)` listens on a free port of 127.0.0.1 and forwards every connection to `port`. `cut()`
stops it reading either way while keeping every connection open, as a partition looks to both
ends (nothing arrives, nothing is refused, nothing is closed: only timeouts and keepalive can tell);
new connections are accepted and go nowhere. `heal()` forwards again, what was held first.
Threads, not the test's event loop: the processes on both ends are not the test's.
"""

from __future__ import annotations

import contextlib
import socket
import threading


class Link:
    """A cuttable TCP proxy to 127.0.0.1:`target_port` (see the module docstring)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._flowing = threading.Event()
        self._flowing.set()
        self._closed = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, name=f"link-{self.port}", daemon=True).start()

    def cut(self) -> None:
        self._flowing.clear()

    def heal(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        """Close the listener and every connection (their threads then end)."""
        self._closed = True
        self._flowing.set()
        with self._lock:
            sockets, self._sockets = [self._listener, *self._sockets], []
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._keep(client)
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self._flowing.wait()  # a connection opened during a cut goes nowhere until the heal
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
        except OSError:
            client.close()
            return
        self._keep(upstream)
        threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()
        self._pump(client, upstream)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        """Bytes from `source` to `sink`, at most one chunk held while the link is cut."""
        try:
            while not self._closed:
                self._flowing.wait()
                data = source.recv(65536)
                if not data:
                    break
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
