"""The web client signs in with the operator's identity provider (issue 14, point 2): the authorization
code flow with PKCE through a provider made in the test (web/oidc_provider.py) to a gateway that takes
its ID tokens (FLOTILLA_OIDC_*, guests off). The page shows the provider's display name and its token
works on RPCs (a room is created); a forged `state` or a failed PKCE check leaves it signed out with
a clear message; an expired token is said and signed in again; with guests off there is no guest form."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from flotilla.gateway.server import Gateway, start_gateway
from flotilla.redis_server import RedisServer
from flotilla.settings import Settings
from support import stack_limits
from web.oidc_provider import Provider
from web.webui import TIMEOUT_MS, create_room, seat_items

pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.timeout(120),
]

CLIENT_ID = "flotilla-web-test"
PROVIDER = "Harbour ID"
SIGN_IN = f"Sign in with {PROVIDER}"


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    running = Provider(CLIENT_ID).start()
    yield running
    running.stop()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def gateway(provider: Provider, redis_server: RedisServer) -> AsyncIterator[Gateway]:
    """A gateway in this process taking the provider's ID tokens, guests off (creating rooms needs no worker)."""
    settings = Settings(
        redis_url=redis_server.url,
        bind="127.0.0.1:0",
        browser_bind="127.0.0.1:0",
        limits=stack_limits(),
        guests=False,
        oidc_issuer=provider.issuer,
        oidc_audience=CLIENT_ID,
        oidc_jwks_url=provider.jwks_url,
        web_oidc_client_id=CLIENT_ID,
        web_oidc_provider=PROVIDER,
    )
    started = await start_gateway(settings)
    assert started.browser is not None
    provider.origin = f"http://127.0.0.1:{started.browser.port}"  # the redirect URI it registers
    yield started
    await started.stop(0)


@pytest.fixture(autouse=True)
def behaving(provider: Provider) -> Iterator[None]:
    """Each test starts with a provider that behaves, and leaves it so."""
    provider.mode, provider.lifetime_s = "ok", 300
    yield
    provider.mode, provider.lifetime_s = "ok", 300


async def open_page(browser: Browser, provider: Provider) -> Page:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = await context.new_page()
    await page.goto(f"{provider.origin}/")
    await page.get_by_role("main").get_by_role("button", name=SIGN_IN, exact=True).wait_for()
    return page


async def signed_in(page: Page, heading: str = "Lobby") -> None:
    await page.get_by_role("banner").get_by_text("Playing as Alice Harbour", exact=True).wait_for()
    await page.get_by_role("main").get_by_role("heading", name=heading, exact=True).wait_for()


async def test_the_page_signs_in_with_the_provider_and_its_token_works(
    browser: Browser, gateway: Gateway, provider: Provider
) -> None:
    page = await open_page(browser, provider)
    main = page.get_by_role("main")
    # Guests are off: no guest form at all, only the provider.
    assert await main.get_by_role("button", name="Play as guest").count() == 0
    assert await main.get_by_role("textbox", name="Name").count() == 0
    before = len(provider.exchanges)
    await main.get_by_role("button", name=SIGN_IN, exact=True).click()
    await signed_in(page)
    asked = provider.authorizations[-1]
    assert asked["code_challenge_method"] == "S256"
    assert len(asked["code_challenge"]) == 43
    assert asked["state"]
    assert asked["nonce"]
    assert asked["scope"] == "openid profile"
    assert len(provider.exchanges) == before + 1
    assert len(provider.exchanges[-1]["code_verifier"]) >= 43
    assert "code=" not in page.url
    assert "state=" not in page.url
    # The provider's ID token is the session token of every RPC: a room, its host seat the provider's user.
    title, _ = await create_room(page, "Sail Away", 2)
    host = (await seat_items(page, 1)).first
    assert "Alice Harbour" in await host.inner_text()
    # A reload keeps the session (sessionStorage) and the route; signing out forgets the session.
    await page.reload()
    await signed_in(page, heading=title)
    await page.get_by_role("banner").get_by_role("button", name="Sign out", exact=True).click()
    await main.get_by_role("button", name=SIGN_IN, exact=True).wait_for()
    assert await page.get_by_role("banner").get_by_text(re.compile("Playing as")).count() == 0
    await page.context.close()


async def test_a_forged_state_or_a_failed_pkce_check_leaves_the_page_signed_out(
    browser: Browser, gateway: Gateway, provider: Provider
) -> None:
    page = await open_page(browser, provider)
    main = page.get_by_role("main")
    provider.mode = "wrong_state"
    before = len(provider.exchanges)
    await main.get_by_role("button", name=SIGN_IN, exact=True).click()
    alert = main.get_by_role("alert")
    await alert.get_by_text(re.compile(r"answer is not for this tab's request")).wait_for()
    assert len(provider.exchanges) == before  # the code was never redeemed
    assert "code=" not in page.url
    assert await page.get_by_role("banner").get_by_text(re.compile("Playing as")).count() == 0

    provider.mode = "wrong_challenge"
    await main.get_by_role("button", name=SIGN_IN, exact=True).click()
    await alert.get_by_text(re.compile(r"gave no token \(invalid_grant PKCE verification failed\)")).wait_for()
    assert await page.get_by_role("banner").get_by_text(re.compile("Playing as")).count() == 0
    assert await main.get_by_role("button", name=SIGN_IN, exact=True).is_enabled()  # try again
    # The same answer replayed (the provider's redirect URL again) is not taken: this tab's sign-in is spent.
    code_url = f"{provider.origin}/?code=replayed&state={provider.authorizations[-1]['state']}"
    await page.goto(code_url)
    await alert.get_by_text(re.compile(r"this tab did not start it")).wait_for()
    await page.context.close()


async def test_an_expired_token_is_said_and_signed_in_again(
    browser: Browser, gateway: Gateway, provider: Provider
) -> None:
    provider.lifetime_s = 2  # the gateway allows 30 s of clock skew; the page says so at `exp`
    page = await open_page(browser, provider)
    await page.get_by_role("main").get_by_role("button", name=SIGN_IN, exact=True).click()
    expired = page.get_by_role("alert").filter(has_text=f"Your sign-in with {PROVIDER} has expired.")
    await expired.wait_for()
    provider.lifetime_s = 300
    provider.mode = "wrong_challenge"  # a failed sign-in again is said too, and the notice stays
    await expired.get_by_role("button", name="Sign in again", exact=True).click()
    await expired.get_by_text(re.compile(r"PKCE verification failed")).wait_for()
    provider.mode = "ok"
    await expired.get_by_role("button", name="Sign in again", exact=True).click()
    await signed_in(page)
    await expired.wait_for(state="detached")
    await page.context.close()
