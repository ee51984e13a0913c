"""What the web client is told before sign-in (gateway/webconfig.py): `/config.json` says whether guests
may play and which identity provider browsers sign in with, the page's CSP lets it reach that
provider and nothing else, and a web sign-in that cannot work stops the gateway at start."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from flotilla.gateway.server import Gateway, start_gateway
from flotilla.gateway.static import PAGE_POLICY
from flotilla.gateway.webconfig import PageConfig
from flotilla.settings import Settings
from support import stack_limits

ISSUER = "https://id.example.test/realms/crew"


def web(**changes: Any) -> Settings:
    base: dict[str, Any] = {
        "oidc_issuer": ISSUER,
        "oidc_audience": "flotilla-web",
        "web_oidc_client_id": "flotilla-web",
    }
    return Settings(**{**base, **changes})


def test_without_a_provider_the_page_offers_guests_only() -> None:
    page = PageConfig.from_settings(Settings())
    assert json.loads(page.file().body) == {"guests": True, "signIn": None}
    assert page.policy() == PAGE_POLICY  # fetches to its own origin only
    # An issuer for API clients alone (no web client id) is no browser sign-in either.
    assert PageConfig.from_settings(Settings(oidc_issuer=ISSUER, guests=False)).sign_in is None


def test_a_configured_provider_is_described_and_reachable_from_the_page() -> None:
    page = PageConfig.from_settings(web(guests=False, web_oidc_scopes="openid  profile email"))
    file = page.file()
    assert (file.content_type, file.cache) == (b"application/json", b"no-cache")
    assert json.loads(file.body) == {
        "guests": False,
        "signIn": {
            "issuer": ISSUER,
            "clientId": "flotilla-web",
            "scopes": "openid profile email",
            "provider": "id.example.test",  # the issuer's host unless FLOTILLA_WEB_OIDC_PROVIDER names it
        },
    }
    policy = page.policy().decode()
    assert "connect-src 'self' https://id.example.test;" in policy  # the issuer's origin, not its path
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    named = PageConfig.from_settings(web(web_oidc_provider="  Crew   ID "))
    assert named.sign_in is not None
    assert named.sign_in.provider == "Crew ID"
    loopback = PageConfig.from_settings(web(oidc_issuer="http://127.0.0.1:5556/"))  # tests and local runs
    assert b"connect-src 'self' http://127.0.0.1:5556;" in loopback.policy()


@pytest.mark.parametrize(
    ("changes", "names"),
    [
        ({"oidc_issuer": ""}, "FLOTILLA_OIDC_ISSUER"),
        ({"oidc_issuer": "http://id.example.test/"}, "https"),
        ({"oidc_issuer": "http://10.0.0.7/"}, "https"),
        ({"oidc_issuer": "https://id.example.test/ 'unsafe-eval'"}, "spaces, quotes"),
        ({"oidc_issuer": "https://id.example.test;script-src *"}, "semicolons"),
        ({"oidc_issuer": "https://user:pw@id.example.test/"}, "without credentials"),
        ({"oidc_issuer": "id.example.test"}, "scheme://host"),
        ({"web_oidc_client_id": "two words"}, "FLOTILLA_WEB_OIDC_CLIENT_ID"),
        ({"web_oidc_scopes": "profile email"}, "FLOTILLA_WEB_OIDC_SCOPES"),
        ({"web_oidc_provider": "x" * 41}, "FLOTILLA_WEB_OIDC_PROVIDER"),
        ({"web_oidc_provider": "Crew\u202eID"}, "FLOTILLA_WEB_OIDC_PROVIDER"),
    ],
)
def test_a_sign_in_that_cannot_work_is_refused_naming_what_to_fix(changes: dict[str, Any], names: str) -> None:
    with pytest.raises(ValueError, match=names) as caught:
        PageConfig.from_settings(web(**changes))
    assert len(str(caught.value)) < 200


@pytest.fixture
async def gateway(redis_url: str, tmp_path: Path) -> AsyncIterator[Gateway]:
    settings = web(
        redis_url=redis_url,
        secret="webconfig-" + "s" * 32,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=stack_limits(),
        guests=False,
        oidc_jwks_file=str(tmp_path / "jwks.json"),  # never read here: no token is sent
        web_oidc_provider="Crew ID",
    )
    started = await start_gateway(settings)
    yield started
    await started.stop(0)


@pytest.mark.redis
@pytest.mark.timeout(60)
async def test_the_browser_listener_serves_the_config_beside_the_page(gateway: Gateway) -> None:
    assert gateway.browser is not None
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{gateway.browser.port}", timeout=10) as http:
        config = await http.get("/config.json")
        assert config.status_code == 200
        assert config.headers["content-type"] == "application/json"
        assert config.headers["cache-control"] == "no-cache"  # a changed setting shows at the next load
        assert config.headers["x-content-type-options"] == "nosniff"
        assert config.json() == {
            "guests": False,
            "signIn": {"issuer": ISSUER, "clientId": "flotilla-web", "scopes": "openid profile", "provider": "Crew ID"},
        }
        page = await http.get("/?code=abc&state=xyz")  # the provider's redirect back: the page itself
        assert page.status_code == 200
        assert "connect-src 'self' https://id.example.test;" in page.headers["content-security-policy"]
        assert (await http.head("/config.json")).content == b""


async def test_a_bad_web_sign_in_stops_the_gateway_before_it_starts() -> None:
    settings = Settings(
        redis_url="redis://127.0.0.1:1/0", bind="127.0.0.1:0", browser_bind="127.0.0.1:0", web_oidc_client_id="web"
    )
    with pytest.raises(ValueError, match="FLOTILLA_OIDC_ISSUER"):
        await start_gateway(settings)
