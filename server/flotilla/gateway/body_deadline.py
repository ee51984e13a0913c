"""A deadline on browser request bodies: the whole body within FLOTILLA_BROWSER_BODY_TIMEOUT.

The browser listener (gateway/browser.py, hypercorn) has no such bound of its own: its read
timeout would also close long-lived streaming responses, so a client sending its body a byte at a
time kept a request (and a connection) open for as long as it liked. This ASGI wrapper gives each
HTTP request's body a deadline counted from its headers; past it the request is answered
`408 Request Timeout` (a Connect error body, code `deadline_exceeded`), the application sees the
client gone, and the connection, whose body was never read to its end, is closed. Headers are
bounded by hypercorn itself: a connection without a complete request is closed after its
keep-alive timeout (5 s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import structlog

from flotilla import metrics

log = structlog.get_logger("flotilla.gateway")

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]
_BODY = b'{"code":"deadline_exceeded","message":"the request body did not arrive in time"}'


class BodyDeadline:
    """ASGI middleware: every HTTP request's body must be complete `seconds` after its headers."""

    def __init__(self, app: App, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.seconds <= 0:
            await self.app(scope, receive, send)
            return
        deadline = asyncio.get_running_loop().time() + self.seconds
        body_done = timed_out = started = False

        async def bounded_receive() -> Message:
            nonlocal body_done, timed_out
            if body_done:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                timed_out = True
                metrics.BROWSER_BODY_TIMEOUTS.inc()
                log.info("browser.body_timeout", path=str(scope.get("path", ""))[:64])
                if not started:
                    await send({"type": "http.response.start", "status": 408, "headers": _headers()})
                    await send({"type": "http.response.body", "body": _BODY})
                return {"type": "http.disconnect"}
            body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if timed_out:
                return  # answered already: the application's late reply goes nowhere
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, bounded_receive, guarded_send)


def _headers() -> list[tuple[bytes, bytes]]:
    return [(b"content-type", b"application/json"), (b"connection", b"close")]
