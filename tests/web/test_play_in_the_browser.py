"""Two players in two browser contexts and a bot play each game to the end through the web client's
UI only (issue 14, point 4): sign in, create a room, add a bot, join (by the list or by code), ready,
start, then click the labelled buttons of "Your move" until the game is over. Both pages show the
final scores `GetGame` has. The click-to-opponent latency of every move is recorded (point 5)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from flotilla_client import FlotillaClient
from flotilla_client.api.game.v1 import game_pb2
from web.webstack import WebStack
from web.webui import (
    Chooser,
    Stats,
    Table,
    base,
    base_plus,
    contract_comp,
    coop,
    eager,
    final_scores,
    page_log,
    play_seat,
    play_some,
    scores_table,
    seat_a_table,
)

FULL = os.environ.get("FLOTILLA_WEB_FULL_GAMES") == "1"
pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("web"),
    pytest.mark.timeout(120),
]


def expected_rows(game: game_pb2.Game) -> list[tuple[str, str, int, int]]:
    return [
        (f"Seat {i + 1}", game.seats[i].display_name, game.result.scores[i], game.result.ranks[i])
        for i in range(game.seat_count)
    ]


def parsed(rows: list[list[str]]) -> list[tuple[str, str, int, int]]:
    """Final-scores rows as (Seat N, name, score, rank): the rank cell's number ("1", "1st", "#1")."""
    out = []
    for row in rows:
        assert len(row) >= 4, row
        rank = re.search(r"\d+", row[3])
        assert rank, row
        out.append((row[0], row[1], int(row[2]), int(rank.group())))
    return out


async def play_to_the_end(
    table: Table,
    grpc_client: FlotillaClient,
    stats: Stats,
    kind: str,
    chooser: Chooser,
    screenshot: Path | None,
) -> game_pb2.Game:
    rngs = [random.Random(f"{table.game}:{i}") for i in (0, 1)]
    shot = asyncio.create_task(_screenshot_mid_game(table.host, screenshot)) if screenshot else None
    began = time.monotonic()
    clicks = await asyncio.gather(
        *(play_seat(p, chooser, r) for p, r in zip((table.host, table.guest), rngs, strict=True))
    )
    seconds = time.monotonic() - began
    if shot:
        await shot
    assert all(clicks), f"each player made moves: {clicks}"
    game = await grpc_client.get_game(table.game)
    assert game.state == game_pb2.GAME_STATE_FINISHED
    for page in (table.host, table.guest):
        assert parsed(await final_scores(page)) == expected_rows(game)
        assert await page.get_by_role("main").get_attribute("data-game-status") == "finished"
        assert int(await page.get_by_role("main").get_attribute("data-through-event-id") or 0) == game.last_event_id
        names = [row[0] for row in await scores_table(page)]
        assert names == [s.display_name for s in game.seats]
    stats.record(kind, seconds, [await page_log(p) for p in (table.host, table.guest)])
    return game


async def _screenshot_mid_game(page: Page, path: Path) -> None:
    """The page at mid-game: once its game has run a while (100 events), while it is still running."""
    await page.wait_for_function(
        "() => Number(document.querySelector('main')?.getAttribute('data-through-event-id')) >= 100", timeout=60_000
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True)


GAMES = [  # (kind, display name, private room?, mode): every kind, Port Royal's shortest mode here
    pytest.param("sail_away", "Sail Away", False, None, id="sail_away"),
    pytest.param("port_royal", "Port Royal", True, coop, id="port_royal-contract_coop"),
    pytest.param("pirates_of_nassau", "Pirates of Nassau", False, None, id="pirates_of_nassau"),
    # Navegador: ~800 human clicks and ~2,000 events a game (no option or seat count shortens it):
    # its complete game runs with FLOTILLA_WEB_FULL_GAMES=1; normal runs play 30 moves of it.
    pytest.param(
        "navegador",
        "Navegador",
        False,
        None,
        id="navegador",
        marks=pytest.mark.skipif(not FULL, reason="a complete Navegador game takes minutes: FLOTILLA_WEB_FULL_GAMES=1"),
    ),
]


@pytest.mark.parametrize(("kind", "kind_name", "private", "mode"), GAMES)
async def test_two_browsers_and_a_bot_play_a_game_to_the_end(
    browser: Browser,
    web_stack: WebStack,
    grpc_client: FlotillaClient,
    stats: Stats,
    screenshots: Path | None,
    kind: str,
    kind_name: str,
    private: bool,
    mode: Callable[[str], bool] | None,
) -> None:
    table = await seat_a_table(browser, web_stack.url, kind_name, private=private, mode=mode)
    try:
        game = await play_to_the_end(
            table, grpc_client, stats, kind, eager, screenshots / f"{kind}.png" if screenshots else None
        )
        assert game.kind == kind
        assert len({s.display_name for s in game.seats}) == 3  # two guests and a bot
    finally:
        await table.close()


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param(base, id="base"),
        pytest.param(base_plus, id="base_plus"),
        pytest.param(contract_comp, id="contract_comp"),
    ],
)
async def test_the_other_port_royal_modes_reach_a_prompt_and_play_moves(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient, mode: Callable[[str], bool]
) -> None:
    table = await seat_a_table(browser, web_stack.url, "Port Royal", private=False, mode=mode)
    try:
        clicks = await play_some((table.host, table.guest), 8)
        assert clicks >= 8
        game = await grpc_client.get_game(table.game)
        assert game.last_event_id > clicks  # each move is at least one event
        for page in (table.host, table.guest):
            await page.wait_for_function(
                "(id) => Number(document.querySelector('main').getAttribute('data-through-event-id')) >= id",
                arg=game.last_event_id,
            )
    finally:
        await table.close()


@pytest.mark.skipif(FULL, reason="the complete game runs instead")
async def test_navegador_in_two_browsers_and_a_bot_plays_30_moves(
    browser: Browser, web_stack: WebStack, grpc_client: FlotillaClient, screenshots: Path | None
) -> None:
    table = await seat_a_table(browser, web_stack.url, "Navegador", private=False)
    try:
        assert await play_some((table.host, table.guest), 30) >= 30
        if screenshots:
            await table.host.screenshot(path=str(screenshots / "navegador.png"), full_page=True)
        game = await grpc_client.get_game(table.game)
        assert game.state == game_pb2.GAME_STATE_ACTIVE
        for page in (table.host, table.guest):
            await page.wait_for_function(
                "(id) => Number(document.querySelector('main').getAttribute('data-through-event-id')) >= id",
                arg=game.last_event_id,
            )
    finally:
        await table.close()
