"""A player's page after a lost race and on a full sessionStorage (issue 14: reconnect without losing
anything; no error for what is no error): a click on a prompt the game has moved past is refused by
the server and the page shows no alert and plays on; a page whose storage is full drops its saved
log, keeps resuming from the etag alone, and a reload still resumes at the right event."""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from google.protobuf.json_format import MessageToDict
from playwright.async_api import Browser, Page, Response

from flotilla_client import FlotillaClient
from web.players import seat_of
from web.webstack import WebStack
from web.webui import (
    caught_up,
    labels,
    moves_region,
    page_with_prompt,
    play_some,
    seat_a_table,
    wait_state,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.timeout(180),
]

# In the page, with nothing else running in between (a synchronous XMLHttpRequest blocks the page's
# thread, so its watch cannot deliver the update): the seat's own move submitted over Connect, then
# a click on one of the buttons of the prompt that move made stale. The submit's HTTP status.
STALE_CLICK_JS = """
([region, token, body, label]) => {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', '/flotilla.api.game.v1.GameService/SubmitAction', false);
  xhr.setRequestHeader('Content-Type', 'application/json');
  xhr.setRequestHeader('Authorization', 'Bearer ' + token);
  xhr.send(body);
  const button = [...region.querySelectorAll('button')].find((b) => b.textContent.trim() === label);
  button.click();
  return xhr.status;
}
"""

# Fill sessionStorage until not even 64 more characters fit; the keys it added.
FILL_JS = """
() => {
  const keys = [];
  for (let size = 1 << 20; size >= 64; size >>= 1) {
    for (;;) {
      const key = 'test-filler-' + keys.length;
      try { sessionStorage.setItem(key, 'x'.repeat(size)); keys.push(key); } catch { break; }
    }
  }
  return keys.length;
}
"""


def page_submit(response: Response) -> bool:
    """The page's own SubmitAction (connect-web's fetch, not the test's XMLHttpRequest)."""
    return response.url.endswith("/SubmitAction") and response.request.resource_type == "fetch"


def unpadded_b64decode(value: str) -> bytes:
    """Connect's JSON error details carry base64 without its padding (so `b64decode` alone fails
    on about half of them, as the detail's length falls)."""
    return base64.b64decode(value + "=" * (-len(value) % 4))


async def no_alert(page: Page) -> None:
    assert await page.get_by_role("alert").count() == 0, await page.get_by_role("alert").first.inner_text()


async def test_a_click_on_a_prompt_the_game_moved_past_shows_no_alert_and_plays_on(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    table = await seat_a_table(browser, web_stack.url, "Sail Away", private=False)
    try:
        await play_some((table.host, table.guest), 2)
        page = await page_with_prompt((table.host, table.guest))
        seat = await seat_of(page, table.game)
        reply = await grpc_client.view(table.game, seat)
        assert [t.label for t in reply.prompt.legal_action_texts] == await labels(page)
        own = MessageToDict(reply.prompt.legal_actions[0])
        body = json.dumps(
            {"game": table.game, "action": own, "etag": reply.prompt.etag, "requestId": str(uuid.uuid4())}
        )
        label = reply.prompt.legal_action_texts[-1].label
        region = await moves_region(page).element_handle()
        page_submit = page.expect_response(
            lambda r: r.url.endswith("/SubmitAction") and r.request.resource_type == "fetch"
        )
        async with page_submit as refused:
            assert await page.evaluate(STALE_CLICK_JS, [region, seat.token, body, label]) == 200
        response = await refused.value
        assert response.status != 200
        reasons = [unpadded_b64decode(d.get("value", "")) for d in (await response.json()).get("details", [])]
        assert any(b"STALE_GAME_VERSION" in r or b"NOT_YOUR_TURN" in r for r in reasons), reasons
        await caught_up(page, grpc_client, table.game)
        await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
        await no_alert(page)
        assert await play_some((table.host, table.guest), 4, seed=5) == 4  # fails on any alert
        await no_alert(page)
    finally:
        await table.close()


async def saved_log(page: Page) -> tuple[str, dict[str, object]]:
    """The page's saved log of its game (key, record): the entry holding an etag and entries."""
    entries: dict[str, str] = await page.evaluate("() => ({ ...sessionStorage })")
    for key, text in entries.items():
        if text.startswith("{") and '"etag"' in text and '"entries"' in text:
            return key, json.loads(text)
    raise AssertionError(f"no saved log among {sorted(entries)}")


async def test_a_page_on_a_full_storage_plays_on_and_resumes_after_a_reload(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    table = await seat_a_table(browser, web_stack.url, "Sail Away", private=False)
    host = table.host
    try:
        await play_some((host, table.guest), 4)
        key, record = await saved_log(host)
        assert record["entries"], "the log is saved while it fits"
        other = key.split("games/")[0] + "games/another-game#0"  # another game's log, as the page names it
        await host.evaluate("([k, v]) => sessionStorage.setItem(k, v)", [other, json.dumps(record)])
        await host.reload()
        await caught_up(host, grpc_client, table.game)
        assert await host.evaluate("(k) => sessionStorage.getItem(k)", other) is None, (
            "a new game page keeps only its log"
        )

        assert await host.evaluate(FILL_JS) > 0
        await play_some((host, table.guest), 6, seed=7)  # fails on any alert
        at = await caught_up(host, grpc_client, table.game)
        _, record = await saved_log(host)
        assert record["entries"] == [], "the log that no longer fits is dropped"
        assert int(str(record["through"])) == at, "the resume point is saved still"

        await host.reload()
        await host.locator("main[data-through-event-id]").wait_for()
        # The page resumes from `at` and shows the game's last event: the same one, or a later one
        # when the bot seat's move was still in flight when `at` was read.
        assert await caught_up(host, grpc_client, table.game) >= at
        await no_alert(host)
        assert await play_some((host, table.guest), 4, seed=9) == 4
        page = await page_with_prompt((host, table.guest))
        assert await wait_state(page) == "move"
        assert await moves_region(page).get_by_role("button").count() > 0
    finally:
        await table.close()
