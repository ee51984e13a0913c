"""Guests and bots are marked beside their names on the room page (issue 23, point 11): the
server's `UserKind`, not the name a player picked."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from web.webstack import WebStack
from web.webui import create_room, new_player, unique

pytestmark = [pytest.mark.redis, pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(120)]


async def test_the_room_page_marks_guests_and_bots(browser: Browser, web_stack: WebStack) -> None:
    name = unique("Ann")
    host = await new_player(browser, web_stack.url, name)
    title, _code = await create_room(host, "Sail Away", 3)
    assert title.startswith(f"{name} (guest)'s room"), title  # the host's mark is in the room's title too
    main = host.get_by_role("main")
    await main.get_by_role("button", name="Add bot", exact=True).click()
    seats = main.get_by_role("list", name="Seats", exact=True).get_by_role("listitem")
    await seats.nth(1).get_by_text("(bot)", exact=True).wait_for()
    mine = seats.nth(0)
    await mine.get_by_text(name, exact=True).wait_for()  # the name as picked, the mark beside it
    await mine.get_by_text("(guest)", exact=True).wait_for()
    assert await seats.nth(1).get_by_text("(guest)").count() == 0
    await host.context.close()
