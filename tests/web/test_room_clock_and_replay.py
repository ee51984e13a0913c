"""Rooms set turn clocks from the lobby's form, and the replay page draws the board at each move
(GetViewAt), in a real browser."""

from __future__ import annotations

import asyncio
import random

import pytest
from playwright.async_api import Browser

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaClient, play_random
from web.webstack import WebStack
from web.webui import choose_game, new_player, unique

pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.timeout(120),
]


async def test_a_room_created_with_a_turn_clock_shows_it(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    page = await new_player(browser, web_stack.url, unique("Clo"))
    try:
        main = page.get_by_role("main")
        kinds = main.get_by_role("combobox", name="Game", exact=True).locator("option")
        await kinds.filter(has_text="Sail Away").first.wait_for(state="attached")  # the catalogue has loaded
        await choose_game(page, "Sail Away")
        await main.get_by_role("combobox", name="Turn clock", exact=True).select_option(label="30 s per move")
        await main.get_by_role("button", name="Create room", exact=True).click()
        await main.get_by_text("Turn clock: 30 s per move", exact=True).wait_for()
        room = (await grpc_client.get_room("rooms/" + page.url.split("#/rooms/")[1])).room
        assert (room.clock.turn_seconds, room.clock.bank_seconds) == (30, 0)
        await main.get_by_role("button", name="Leave room", exact=True).click()  # closes it: nobody else sits
        await page.get_by_role("heading", name="Lobby", exact=True).wait_for()
    finally:
        await page.context.close()


async def test_the_replay_shows_the_board_at_each_move(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient
) -> None:
    game = await grpc_client.create_game("pirates_of_nassau", 2)
    async with FlotillaClient(web_stack.stack.gateways[0]) as other:
        await other.sign_in("other")
        seats = [await grpc_client.join(game.name), await other.join(game.name)]
        bots = [
            play_random(c, s, random.Random(i))
            for i, (c, s) in enumerate(zip((grpc_client, other), seats, strict=True))
        ]
        await asyncio.wait_for(asyncio.gather(*bots), 60)
    record = await grpc_client.record(game.name)
    assert record.game.state == game_pb2.GAME_STATE_FINISHED
    steps = [1] + [a.through_event_id for a in record.actions]
    page = await new_player(browser, web_stack.url, unique("Rev"))  # not seated: the spectator's boards
    try:
        await page.goto(f"{web_stack.url}#/games/{game.name.removeprefix('games/')}/replay")
        main = page.get_by_role("main")
        board = main.get_by_role("region", name="Board", exact=True)
        boards = []
        for button, step in (("", 0), ("Next move", 1), ("Next move", 2), ("Last", len(steps) - 1)):
            if button:
                await main.get_by_role("button", name=button, exact=True).click()
            await page.locator(f"main[data-replay-event-id='{steps[step]}']").wait_for()
            await main.get_by_role("status", name="Move").get_by_text(f"Move {step} of {len(steps) - 1}").wait_for()
            shown = await board.inner_text()
            assert "Waiting for the game" not in shown
            for seat in record.game.seats:
                assert seat.display_name in shown, f"the board at move {step} does not show {seat.display_name}"
            boards.append(shown)
        assert boards[0] != boards[-1], "the board did not change from the start to the end"
    finally:
        await page.context.close()
