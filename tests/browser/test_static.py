"""The web client's files on the browser listener (gateway/static.py): content types, cache headers,
no directory traversal, 404 for anything else, RPCs untouched; and through a real gateway, the page
and its RPCs on one origin."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from flotilla.gateway.server import Gateway, start_gateway
from flotilla.gateway.static import Static, bundle, load
from flotilla.settings import Settings
from support import stack_limits

RPC = "/flotilla.api.game.v1.AuthService/SignInAsGuest"


def site(tmp_path: Path) -> Path:
    """A bundle as Vite writes it, and a secret beside it that must never be served."""
    root = tmp_path / "static"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>page</title>")
    (root / "favicon.svg").write_text("<svg/>")
    (root / "assets" / "index-AbC123.js").write_text("export {}")
    (root / "assets" / "index-AbC123.css").write_text("body{}")
    (tmp_path / "secret.txt").write_text("do not serve")
    return root


async def call(app: Static, method: str, path: str) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request through the ASGI app: status, headers, body."""
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    await app({"type": "http", "method": method, "path": path, "headers": []}, receive, send)
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


class Rpcs:
    """The wrapped app: records what reached it."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        self.paths.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b"{}"})


@pytest.fixture
def app(tmp_path: Path) -> Static:
    return Static(Rpcs(), load(site(tmp_path)), [RPC])


async def test_files_have_their_content_type_and_cache_policy(app: Static) -> None:
    status, headers, body = await call(app, "GET", "/")
    assert (status, body) == (200, b"<!doctype html><title>page</title>")
    assert headers[b"content-type"] == b"text/html; charset=utf-8"
    assert headers[b"cache-control"] == b"no-cache"  # a new release shows at the next reload
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert b"default-src 'self'" in headers[b"content-security-policy"]
    assert (await call(app, "GET", "/index.html"))[2] == body
    for path, kind in (
        ("/assets/index-AbC123.js", b"text/javascript; charset=utf-8"),
        ("/assets/index-AbC123.css", b"text/css; charset=utf-8"),
    ):
        status, headers, _ = await call(app, "GET", path)
        assert (status, headers[b"content-type"]) == (200, kind)
        assert headers[b"cache-control"] == b"public, max-age=31536000, immutable"  # hashed names
    status, headers, _ = await call(app, "GET", "/favicon.svg")
    assert (status, headers[b"content-type"], headers[b"cache-control"]) == (200, b"image/svg+xml", b"no-cache")
    status, headers, body = await call(app, "HEAD", "/assets/index-AbC123.js")
    assert (status, headers[b"content-length"], body) == (200, b"9", b"")


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/assets/../../secret.txt",
        "/assets/..%2F..%2Fsecret.txt",
        "/%2e%2e/secret.txt",
        "//secret.txt",
        "/assets/",
        "/assets",
        "/static/index.html",
        "/index.html/",
        "/nope.js",
        "/assets/index-AbC123.js\x00.html",
        "/" + "a" * 5000,
    ],
)
async def test_nothing_outside_the_bundle_is_served(app: Static, path: str) -> None:
    status, headers, body = await call(app, "GET", path)
    assert (status, body) == (404, b"not found\n")
    assert headers[b"content-type"] == b"text/plain; charset=utf-8"


async def test_rpcs_and_other_methods_reach_the_wrapped_app(app: Static) -> None:
    rpcs = app.app
    assert isinstance(rpcs, Rpcs)
    assert (await call(app, "POST", RPC))[0] == 200
    assert (await call(app, "GET", RPC))[0] == 200  # Connect GET of an RPC is the RPC app's
    assert (await call(app, "POST", "/index.html"))[0] == 200  # not a file's method: the RPC app answers
    assert rpcs.paths == [RPC, RPC, "/index.html"]


def test_a_missing_bundle_serves_nothing(tmp_path: Path) -> None:
    assert load(tmp_path / "absent") == {}


@pytest.fixture
async def gateway(redis_url: str) -> AsyncIterator[Gateway]:
    settings = Settings(
        redis_url=redis_url,
        secret="static-" + "s" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=stack_limits(),
    )
    started = await start_gateway(settings)
    yield started
    await started.stop(0)


@pytest.mark.redis
@pytest.mark.timeout(60)
async def test_the_gateway_serves_the_shipped_page_beside_its_rpcs(gateway: Gateway) -> None:
    assert gateway.browser is not None
    assert "/" in bundle(), "the package ships the web client (server/flotilla/web/static)"
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{gateway.browser.port}", timeout=10) as http:
        page = await http.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        scripts = re.findall(r'src="\./(assets/[^"]+\.js)"', page.text)
        assert scripts, page.text
        script = await http.get(f"/{scripts[0]}")
        assert (script.status_code, script.headers["content-type"]) == (200, "text/javascript; charset=utf-8")
        assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert (await http.get("/../../etc/passwd")).status_code == 404
        assert (await http.get("/no-such-page")).status_code == 404
        signed = await http.post(RPC, json={"displayName": "static"}, headers={"content-type": "application/json"})
        assert signed.status_code == 200, signed.text
        assert signed.json()["sessionToken"]
