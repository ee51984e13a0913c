"""CORS for the browser listener (FLOTILLA_BROWSER_CORS_ORIGINS): an ASGI wrapper.

A request whose `Origin` is allowed gets `Access-Control-Allow-Origin` (that origin) and the
headers a Connect or gRPC-Web client must read exposed; a preflight (OPTIONS with
`Access-Control-Request-Method`) from an allowed origin is answered here with the methods and
the headers it asked for. Other origins get no CORS headers, so browsers refuse their pages the
response. Same-origin requests (no `Origin`) pass untouched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

EXPOSED = b"grpc-status, grpc-message, grpc-status-details-bin, connect-content-encoding, content-encoding"
MAX_AGE_S = b"7200"


def origins(text: str) -> frozenset[str]:
    """FLOTILLA_BROWSER_CORS_ORIGINS parsed: comma-separated origins, `*` for any."""
    return frozenset(part.strip().rstrip("/") for part in text.split(",") if part.strip())


class Cors:
    """Wraps an ASGI app with the CORS answers of the module docstring."""

    def __init__(self, app: App, allowed: str) -> None:
        self.app = app
        self.allowed = origins(allowed)

    def allows(self, origin: bytes | None) -> bool:
        return origin is not None and ("*" in self.allowed or origin.decode("latin-1") in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", ()))
        origin = headers.get(b"origin")
        if not self.allows(origin):
            await self.app(scope, receive, send)
            return
        assert origin is not None
        if scope["method"] == "OPTIONS" and b"access-control-request-method" in headers:
            answer = [
                (b"access-control-allow-origin", origin),
                (b"access-control-allow-methods", b"POST, GET"),
                (b"access-control-allow-headers", headers.get(b"access-control-request-headers", b"")),
                (b"access-control-max-age", MAX_AGE_S),
                (b"vary", b"Origin"),
            ]
            await send({"type": "http.response.start", "status": 204, "headers": answer})
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_cors(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", ()),
                    (b"access-control-allow-origin", origin),
                    (b"access-control-expose-headers", EXPOSED),
                    (b"vary", b"Origin"),
                ]
            await send(message)

        await self.app(scope, receive, with_cors)
