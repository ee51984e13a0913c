"""The stack the browser tests play on: where pages open the web client, and restarting its gateway."""

from __future__ import annotations

import time
import urllib.request

from support import Stack


def wait_for_page(url: str, timeout_s: float = 30.0) -> None:
    """Until the browser listener answers `/` with the web client's page."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


class WebStack:
    """The stack, where browsers open the web client, and a gRPC client for checks."""

    def __init__(self, stack: Stack, browser_port: int) -> None:
        self.stack = stack
        self.url = f"http://127.0.0.1:{browser_port}/"

    def restart_gateway(self) -> None:
        """SIGKILL the gateway and start another on the same ports (its browser listener too)."""
        self.stack.restart_gateway(0)
        wait_for_page(self.url)
