"""The web client's promises beyond playing (issue 14, points 2 and 4): a spectator page shows nothing
hidden, a page reload mid-game resumes at the right event with the prompt, and a dropped connection
(the gateway killed and another started on its ports) resumes with nothing lost or doubled."""

from __future__ import annotations

import re

import pytest
from google.protobuf.json_format import MessageToDict
from playwright.async_api import Browser, Page

from flotilla.app.host import host_for
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient
from web.players import seat_of
from web.webstack import WebStack
from web.webui import (
    base,
    caught_up,
    labels,
    moves_region,
    new_player,
    page_with_prompt,
    play_some,
    seat_a_table,
    unique,
    wait_state,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.timeout(180),
]


def strings(value: object) -> set[str]:
    """Every string in a JSON-like value (keys and values)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for k, v in value.items() for s in (strings(k) | strings(v))}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


async def test_a_spectator_page_shows_nothing_hidden(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    """Port Royal: the draw pile and every coin stack are face down. A spectator's page shows the
    spectator view (the harbour's cards by name, every player) and no id of a face-down card."""
    table = await seat_a_table(browser, web_stack.url, "Port Royal", private=False, mode=base)
    spectator = await new_player(browser, web_stack.url, unique("Cy"))
    try:
        await play_some((table.host, table.guest), 6)
        await spectator.goto(f"{web_stack.url}#/games/{table.game.removeprefix('games/')}/watch")
        await caught_up(spectator, grpc_client, table.game)
        assert await moves_region(spectator).get_by_role("button").count() == 0

        view = MessageToDict((await grpc_client.view(table.game)).view)
        visible = strings(view)
        store = RedisStore.from_url(web_stack.stack.redis_url)
        try:
            row = await store.load(table.game.removeprefix("games/"))
        finally:
            await store.close()
        assert row is not None
        meta, raw = row
        state = host_for(meta.kind, meta.rules_version).loads(raw)
        face_down = {*state.draw_pile, *(c for p in state.players for c in p.coins)} - visible
        assert face_down, "the game has face-down cards"

        html = await spectator.content()
        shown = set(re.findall(r"[A-Za-z0-9_]+", html))
        assert not face_down & shown, f"face-down cards in the spectator's page: {sorted(face_down & shown)[:5]}"
        board = await spectator.get_by_role("main").get_by_role("region", name="Board", exact=True).inner_text()
        catalogue = {c["id"]: c["name"] for c in _catalogue_cards()}
        for card in state.harbor:
            assert catalogue[card] in board, f"the harbour's {catalogue[card]} is not on the spectator's board"
        for seat in (await grpc_client.get_game(table.game)).seats:
            assert seat.display_name in await spectator.get_by_role("main").inner_text()
    finally:
        await spectator.context.close()
        await table.close()


def _catalogue_cards() -> list[dict[str, str]]:
    from flotilla.app import catalogue

    data = catalogue.data("port_royal")
    assert data is not None
    return [{"id": c["id"], "name": c["name"]} for c in data["cards"]]


async def test_a_reload_mid_game_resumes_at_the_right_event_with_the_prompt(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    table = await seat_a_table(browser, web_stack.url, "Sail Away", private=False)
    try:
        await play_some((table.host, table.guest), 6)
        host = await page_with_prompt((table.host, table.guest))
        before = await labels(host)
        await caught_up(host, grpc_client, table.game)
        await host.reload()
        await host.locator("main[data-through-event-id]").wait_for()
        await caught_up(host, grpc_client, table.game)
        assert await wait_state(host) == "move", "the prompt is shown again after the reload"
        assert await labels(host) == before
        # the buttons are the prompt's legal_action_texts labels, in order (as the seat's GetView has them)
        prompt = (await grpc_client.view(table.game, await seat_of(host, table.game))).prompt
        assert [t.label for t in prompt.legal_action_texts] == before
        assert await host.get_by_role("main").get_attribute("data-game-status") == "running"
        # still the same player: the session survived the reload, and the game goes on
        assert await play_some((table.host, table.guest), 4, seed=3) == 4
    finally:
        await table.close()


async def event_log_size(page: Page) -> int:
    log = page.get_by_role("main").get_by_role("list", name="Event log", exact=True)
    return await log.get_by_role("listitem").count()


async def test_a_dropped_connection_resumes_with_nothing_lost_or_doubled(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    """Navegador (nothing hidden: every event is one log item for everyone). The gateway is SIGKILLed
    and another starts on its ports; both pages resume and play on; their event logs grew by one item
    per event, and they end at the game's last event."""
    table = await seat_a_table(browser, web_stack.url, "Navegador", private=False)
    try:
        pages = (table.host, table.guest)
        await play_some(pages, 4)
        marks = []
        for page in pages:
            at = await caught_up(page, grpc_client, table.game)
            marks.append((at, await event_log_size(page)))
        web_stack.restart_gateway()
        await play_some(pages, 6, seed=3)
        for page, (at, size) in zip(pages, marks, strict=True):
            now = await caught_up(page, grpc_client, table.game)
            assert now > at
            assert await event_log_size(page) - size == now - at, "events lost or doubled across the drop"
    finally:
        await table.close()
