"""Slow requests on the browser listener time out: headers (and a TLS handshake) within
`FLOTILLA_BROWSER_HEADER_TIMEOUT`, a whole request body within `FLOTILLA_BROWSER_BODY_TIMEOUT`.

Headers are hypercorn's: a connection is idle from its start (and after each response) until a
request's headers are complete, and an idle connection is closed after `keep_alive_timeout`;
trickled header bytes do not reset that timer. A body has no such bound in hypercorn (its
`read_timeout` restarts with every byte), so `BodyDeadline` gives the application's reads of one
request's body a deadline: past it the application is told the client left (connectrpc stops
reading), the request is answered 408 and the connection closed (hypercorn closes a connection
whose request body did not end), and nothing of the request reaches the gRPC server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import structlog
from hypercorn.config import Config

from flotilla import metrics
from flotilla.loop_lag import name_task

log = structlog.get_logger("flotilla.gateway")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds a browser request's headers and body may take to arrive."""

    headers_s: float = 5.0
    body_s: float = 10.0

    def configure(self, config: Config) -> None:
        """Set hypercorn's own timeouts: idle connections and slow headers, TLS handshakes."""
        config.keep_alive_timeout = self.headers_s
        config.ssl_handshake_timeout = self.headers_s


class BodyDeadline:
    """ASGI middleware: a request whose body is not complete `seconds` after it began gets 408."""

    def __init__(self, app: App, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        name_task(f"browser {str(scope.get('path', ''))[:80]}")  # a stall is logged with it (flotilla/loop_lag.py)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        body_in = timed_out = started = False  # the body has all arrived; it did not in time; answered

        async def sending(message: Message) -> None:
            nonlocal started
            if timed_out and not started:
                return  # the application's answer to the "disconnect": the 408 below replaces it
            await send(message)
            started = started or message["type"] == "http.response.start"

        async def receiving() -> Message:
            nonlocal body_in, timed_out
            if body_in:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.0))
            except TimeoutError:
                timed_out = True
                return {"type": "http.disconnect"}  # the application stops as if the client had left
            body_in = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        await self.app(scope, receiving, sending)
        if not timed_out:
            return
        metrics.BROWSER_BODY_TIMEOUTS.inc()
        log.info("gateway.browser_slow_body", path=str(scope.get("path", ""))[:80], seconds=self.seconds)
        if not started:
            await send(
                {
                    "type": "http.response.start",
                    "status": 408,
                    "headers": [(b"content-type", b"text/plain"), (b"connection", b"close")],
                }
            )
            await send({"type": "http.response.body", "body": b"the request body took too long to arrive\n"})
