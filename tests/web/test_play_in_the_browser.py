"""Two players in two browser contexts and a bot sit at each game through the web client's UI only
(issue 14, point 4): sign in, create a room, add a bot, join (by the list or by code), ready, start;
then the host's page (and in some games the guest's too, see below) clicks the labelled buttons of
"Your move" until the game is over. The pages that play show the final scores `GetGame` has. The
click-to-opponent latency of every move between two playing pages is recorded (point 5).

Every game kind and Port Royal's base and co-operative modes (whose end differs: contracts
completed or the time pile out) are played to the end; the base_plus and competitive contract
modes end as the base game does, so they are played for a while (their own prompts and board
parts) and checked to agree with the server, which keeps the suite within its time.

Both pages click to the end in one full game (Pirates of Nassau) and in both modes played for a
while (Port Royal): there the two contexts see each other's moves (the click-to-opponent latency)
and both show the same scores (in Pirates the final ones). In the other full games the guest's page joins, readies and
is on the game like the host's, then closes, and its seat is played on by the same heuristic
player through the SDK (`run_bot`): a second page clicking there would prove what the first
page's clicks prove (its rendering and its buttons are the same code, drawn from the same view)
while it cost a second Chromium page and its reads, about half the game's CPU (docs/notes.md)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaClient
from flotilla_client.bot import Played, run_bot
from web.pagewait import THROUGH_AT_LEAST_JS, when
from web.players import HeuristicPlayer, play_seat
from web.webstack import WebStack
from web.webui import (
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
    table: Table, grpc_client: FlotillaClient, stats: Stats, kind: str, screenshot: Path | None, *, sdk: str = ""
) -> game_pb2.Game:
    """Both seats are played as the heuristic bot would (seeded by seat) until the game is over: by
    both pages, or (`sdk`: a gateway's address) by the host's page and, the guest's page closed, the
    guest's seat through the SDK (`run_bot`, as the guest: a private game's seat needs no code then).
    Then each page that played shows GetGame's final scores and ranks, log and board at the game's
    last event, and no render on the way showed the log ahead of the board."""
    seated = (table.host, table.guest)
    players = [await HeuristicPlayer.sit(p, grpc_client, table.game, seed, table.code) for seed, p in enumerate(seated)]
    pages = (table.host,) if sdk else seated
    async with contextlib.AsyncExitStack() as stack:
        by_sdk: list[Awaitable[int]] = []
        if sdk:
            guest = await stack.enter_async_context(FlotillaClient(sdk))
            guest.session_token = str(await table.guest.evaluate(SESSION_TOKEN_JS))
            await table.guest.close()
            by_sdk.append(_decisions(run_bot(guest, players[1].seat, players[1].bot)))
        shot = asyncio.create_task(_screenshot_mid_game(table.host, screenshot)) if screenshot else None
        began = time.monotonic()
        clicks = await asyncio.gather(
            *(play_seat(p, player) for p, player in zip(pages, players, strict=False)), *by_sdk
        )
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


SESSION_TOKEN_JS = "() => JSON.parse(sessionStorage.getItem('flotilla.session')).token"  # the page's sign-in


async def _decisions(played: Awaitable[Played]) -> int:
    return (await played).decisions


async def _screenshot_mid_game(page: Page, path: Path) -> None:
    """The page at mid-game: once its game has run a while (100 events), while it is still running."""
    await when(page, THROUGH_AT_LEAST_JS, [100], 60_000)
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True)


GAMES = [  # (kind, display name, private room?, mode, both pages play?): every kind, longest first
    # Navegador's stepwise prompts: 300-630 clicks, 1-4 minutes on a loaded 2-core machine
    pytest.param("navegador", "Navegador", True, None, False, id="navegador", marks=pytest.mark.timeout(600)),
    pytest.param("sail_away", "Sail Away", False, None, False, id="sail_away"),
    pytest.param("pirates_of_nassau", "Pirates of Nassau", False, None, True, id="pirates_of_nassau"),
    pytest.param("port_royal", "Port Royal", False, base, False, id="port_royal-base"),
    pytest.param("port_royal", "Port Royal", True, coop, False, id="port_royal-contract_coop"),
]
SOME_MOVES = 30  # clicks in all for a mode played for a while


@pytest.mark.parametrize(("kind", "kind_name", "private", "mode", "both"), GAMES)
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
    both: bool,
) -> None:
    table = await seat_a_table(browser, web_stack.url, kind_name, private=private, mode=mode)
    try:
        shot = screenshots / f"{kind}.png" if screenshots and mode in (None, base) else None
        sdk = "" if both else web_stack.stack.gateways[0]
        game = await play_to_the_end(table, grpc_client, stats, kind, shot, sdk=sdk)
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
