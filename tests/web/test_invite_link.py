"""A private room's invite link (issue 23, point 5): the room page shows a short code and a link;
someone not yet signed in who opens the link signs in and lands seated in the room."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser

from web.webstack import WebStack
from web.webui import INIT_SCRIPT, TIMEOUT_MS, create_room, new_player, unique

pytestmark = [pytest.mark.redis, pytest.mark.asyncio(loop_scope="session"), pytest.mark.timeout(120)]


async def test_an_invite_link_signs_in_and_seats_its_opener(browser: Browser, web_stack: WebStack) -> None:
    host = await new_player(browser, web_stack.url, unique("Ann"))
    _title, code = await create_room(host, "Sail Away", 3, private=True)
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", code), code  # 8 characters to read aloud
    link = await host.get_by_role("main").get_by_role("link", name=re.compile(r"join")).get_attribute("href")
    assert link
    assert code.replace("-", "") in link
    context = await browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    await context.add_init_script(INIT_SCRIPT)
    friend = await context.new_page()
    await friend.goto(link)
    name = unique("Bo")
    await friend.get_by_role("textbox", name="Name", exact=True).fill(name)
    await friend.get_by_role("button", name="Play as guest", exact=True).click()
    await friend.wait_for_url(re.compile(r"#/rooms/"))
    seats = friend.get_by_role("main").get_by_role("list", name="Seats", exact=True)
    await seats.get_by_text(name, exact=True).wait_for()
    await (
        host.get_by_role("main").get_by_role("list", name="Seats", exact=True).get_by_text(name, exact=True).wait_for()
    )
    await context.close()
    await host.context.close()
