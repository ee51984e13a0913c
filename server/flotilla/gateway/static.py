"""The web client's files on the browser listener: an ASGI wrapper in front of the RPC app.

A GET or HEAD whose path is not an RPC gets a file of the bundle (flotilla/web/static): `/` is
index.html. The files are read once, at start, into a table by their URL path, so nothing outside
the bundle can be named (no directory traversal: a path is looked up, never joined to a
directory). Hashed assets (`/assets/name-<hash>.js`) are cached for a year as immutable, everything
else (index.html) is revalidated on each load (`no-cache`), so a new release shows at the next
reload. Unknown paths get 404; RPCs and other methods pass to the wrapped app.
"""

from __future__ import annotations

import functools
import mimetypes
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from flotilla.web import static_root

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"
TYPES = {  # explicit, so the answer does not depend on the host's mime.types
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}
SECURITY = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
PAGE_POLICY = b"default-src 'self'; frame-ancestors 'none'; base-uri 'none'"  # of index.html (Content-Security-Policy)
MAX_FILES = 1000  # a bundle is a handful of files; more means the wrong directory


@dataclass(frozen=True, slots=True)
class File:
    """One file of the bundle as served."""

    body: bytes
    content_type: bytes
    cache: bytes


def content_type(name: str) -> str:
    """The Content-Type of a file by its name."""
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    return TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def load(root: Traversable) -> dict[str, File]:
    """The bundle under `root` by URL path (`/index.html` also as `/`); empty when it is missing."""
    files: dict[str, File] = {}

    def walk(node: Traversable, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if len(files) >= MAX_FILES:
                return
            path = f"{prefix}/{child.name}"
            if child.is_dir():
                walk(child, path)
            elif child.is_file():
                cache = IMMUTABLE if prefix == "/assets" else REVALIDATE
                files[path] = File(child.read_bytes(), content_type(child.name).encode(), cache)

    if root.is_dir():
        walk(root, "")
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


def page_policy(connect: Collection[str] = ()) -> bytes:
    """The page's Content-Security-Policy; `connect`: origins it may also fetch (an identity provider)."""
    if not connect:
        return PAGE_POLICY
    sources = " ".join(("'self'", *connect))
    return f"default-src 'self'; connect-src {sources}; frame-ancestors 'none'; base-uri 'none'".encode()


@functools.cache
def bundle() -> dict[str, File]:
    """The installed web client's files (read once per process)."""
    return load(static_root())


class Static:
    """Wraps the RPC app: serves `files` to GET/HEAD on every path that is not in `rpc_paths`, HTML
    with the Content-Security-Policy `policy`."""

    def __init__(
        self, app: App, files: dict[str, File], rpc_paths: Collection[str], policy: bytes = PAGE_POLICY
    ) -> None:
        self.app = app
        self.files = files
        self.rpc_paths = frozenset(rpc_paths)
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or path in self.rpc_paths:
            await self.app(scope, receive, send)
            return
        found = self.files.get(path)
        if found is None:
            await answer(send, 404, b"text/plain; charset=utf-8", b"not found\n", REVALIDATE, scope["method"])
            return
        await answer(send, 200, found.content_type, found.body, found.cache, scope["method"], self.policy)


async def answer(
    send: Send, status: int, kind: bytes, body: bytes, cache: bytes, method: str, policy: bytes = PAGE_POLICY
) -> None:
    """One complete response (no body for HEAD)."""
    headers = [
        (b"content-type", kind),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", cache),
        *SECURITY,
    ]
    if kind.startswith(b"text/html"):
        headers.append((b"content-security-policy", policy))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
