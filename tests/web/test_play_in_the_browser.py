"""Two players in two browser contexts and a bot play each game to the end through the web client's
UI only (issue 14, point 4): sign in, create a room, add a bot, join (by the list or by code), ready,
start, then click the labelled buttons of "Your move" until the game is over. Both pages show the
final scores `GetGame` has. The click-to-opponent latency of every move is recorded (point 5).

Every game kind and Port Royal's base and co-operative modes (whose end differs: contracts
completed or the time pile out) are played to the end; the base_plus and competitive contract
modes end as the base game does, so they are played for a while (their own prompts and board
parts) and checked to agree with the server, which keeps the suite within its time."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaClient
from web.players import HeuristicPlayer, play_seat
from web.webstack import WebStack
from web.webui import (
    THROUGH_AT_LEAST_JS,
    Stats,
    Table,
    base,
    base_plus,
    caught_up,
    contract_comp,
    coop,
    final_scores,
    page_log,
    play_some,
    scores_table,
    seat_a_table,
    shown_name,
    when,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.timeout(300),  # a complete game takes 10-90 s on a loaded 2-core machine
]


def expected_rows(game: game_pb2.Game) -> list[tuple[str, str, int, int]]:
    return [
        (f"Seat {i + 1}", shown_name(game.seats[i]), game.result.scores[i], game.result.ranks[i])
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
    table: Table, grpc_client: FlotillaClient, stats: Stats, kind: str, screenshot: Path | None
) -> game_pb2.Game:
    """Both pages play their seats as the heuristic bot would (seeded by seat) until the game is
    over; then both show GetGame's final scores and ranks, log and board at the game's last event,
    and no render on the way showed the log ahead of the board."""
    pages = (table.host, table.guest)
    players = [await HeuristicPlayer.sit(p, grpc_client, table.game, seed, table.code) for seed, p in enumerate(pages)]
    shot = asyncio.create_task(_screenshot_mid_game(table.host, screenshot)) if screenshot else None
    began = time.monotonic()
    clicks = await asyncio.gather(*(play_seat(p, player) for p, player in zip(pages, players, strict=True)))
    seconds = time.monotonic() - began
    if shot:
        await shot
    assert all(clicks), f"each player made moves: {clicks}"
    game = await grpc_client.get_game(table.game, join_code=table.code)
    assert game.state == game_pb2.GAME_STATE_FINISHED
    for page in pages:
        assert parsed(await final_scores(page)) == expected_rows(game)
        assert await page.get_by_role("main").get_attribute("data-game-status") == "finished"
        assert int(await page.get_by_role("main").get_attribute("data-through-event-id") or 0) == game.last_event_id
        board = page.get_by_role("main").get_by_role("region", name="Board", exact=True)
        assert int(await board.get_attribute("data-view-event-id") or 0) == game.last_event_id
        names = [row[0] for row in await scores_table(page)]
        assert names == [shown_name(s) for s in game.seats]
    played = [await page_log(p) for p in pages]
    for log in played:  # no render showed an event in the log that its board did not
        assert not log.board_behind, f"(log's event, board's) of renders with the board behind: {log.board_behind[:5]}"
    stats.record(kind, seconds, played)
    return game


async def _screenshot_mid_game(page: Page, path: Path) -> None:
    """The page at mid-game: once its game has run a while (100 events), while it is still running."""
    await when(page, THROUGH_AT_LEAST_JS, [100], 60_000)
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True)


GAMES = [  # (kind, display name, private room?, mode): every kind, longest first
    # Navegador's stepwise prompts: 300-630 clicks, 1-4 minutes on a loaded 2-core machine
    pytest.param("navegador", "Navegador", True, None, id="navegador", marks=pytest.mark.timeout(600)),
    pytest.param("sail_away", "Sail Away", False, None, id="sail_away"),
    pytest.param("pirates_of_nassau", "Pirates of Nassau", False, None, id="pirates_of_nassau"),
    pytest.param("port_royal", "Port Royal", False, base, id="port_royal-base"),
    pytest.param("port_royal", "Port Royal", True, coop, id="port_royal-contract_coop"),
]
SOME_MOVES = 30  # clicks in all for a mode played for a while


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
        shot = screenshots / f"{kind}.png" if screenshots and mode in (None, base) else None
        game = await play_to_the_end(table, grpc_client, stats, kind, shot)
        assert game.kind == kind
        assert len({s.display_name for s in game.seats}) == 3  # two guests and a bot
    finally:
        await table.close()


@pytest.mark.parametrize(
    ("private", "mode", "option", "board_part"),
    [
        pytest.param(True, base_plus, "base_plus", "Expeditions", id="port_royal-base_plus"),
        pytest.param(False, contract_comp, "contract_comp", "Contracts", id="port_royal-contract"),
    ],
)
async def test_two_browsers_and_a_bot_play_a_port_royal_mode_for_a_while(
    browser: Browser,
    web_stack: WebStack,
    grpc_client: FlotillaClient,
    private: bool,
    mode: Callable[[str], bool],
    option: str,
    board_part: str,
) -> None:
    """30 clicks of a mode chosen in the lobby: both pages then show the game's last event with the
    board at it, the same scores and a part of the board the mode has, and no render showed the log
    ahead of the board."""
    table = await seat_a_table(browser, web_stack.url, "Port Royal", private=private, mode=mode)
    try:
        pages = (table.host, table.guest)
        made = await play_some(pages, SOME_MOVES)
        assert made >= SOME_MOVES
        last = await until_settled(table.game, grpc_client, pages, table.code)
        for page in pages:
            board = page.get_by_role("main").get_by_role("region", name="Board", exact=True)
            assert int(await board.get_attribute("data-view-event-id") or 0) == last
            await board.get_by_role("region", name=board_part).first.wait_for()
            assert not (await page_log(page)).board_behind
        assert await scores_table(table.host) == await scores_table(table.guest)
        game = await grpc_client.get_game(table.game, join_code=table.code)
        assert (game.kind, game.options["mode"], game.state) == ("port_royal", option, game_pb2.GAME_STATE_ACTIVE)
    finally:
        await table.close()


async def until_settled(game: str, grpc_client: FlotillaClient, pages: tuple[Page, ...], code: str) -> int:
    """Once the bot has made any move left to it: the game's last event, shown by every page."""
    while True:
        last = (await grpc_client.get_game(game, join_code=code)).last_event_id
        for page in pages:
            await caught_up(page, grpc_client, game, code)
        if (await grpc_client.get_game(game, join_code=code)).last_event_id == last:
            return last
