"""Driving the web client like a player: by the roles and accessible names of the page contract
(docs of issue 14's web client), never by the app's markup. Playwright's async API."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import statistics
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Locator, Page

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaClient
from web.pagewait import MOVED_PAST_JS, THROUGH_AT_LEAST_JS, TIMEOUT_MS, when

CHROMIUM = "/usr/bin/chromium"  # Debian's package (scripts/bootstrap installs it)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# In every page: the epoch time (ms, performance.timeOrigin + now: comparable across contexts of
# one machine) of each change of main's data-through-event-id, and of each click on a button; and
# each render whose log (main's data-through-event-id) was ahead of its board (the Board region's
# data-view-event-id: the event of the view it is drawn from).
INIT_SCRIPT = """
(() => {
  const log = { through: [], clicks: [], behind: [] };
  window.__flotillaLog = log;
  const now = () => performance.timeOrigin + performance.now();
  let last = null;
  const look = () => {
    const main = document.querySelector('main[data-through-event-id]');
    const id = main ? main.getAttribute('data-through-event-id') : null;
    if (id !== null && id !== last) { last = id; log.through.push([Number(id), now()]); }
    const board = main && main.querySelector('[data-view-event-id]');
    const at = board ? Number(board.getAttribute('data-view-event-id')) : null;
    if (at !== null && Number(id) > at && log.behind.length < 100) log.behind.push([Number(id), at]);
  };
  new MutationObserver(look).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-through-event-id', 'data-view-event-id'],
  });
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (button) log.clicks.push([button.textContent.trim(), now()]);
  }, true);
})();
"""

# The state of the game page a player waits on: over, a move to make, or neither.
READY_JS = """
([moves]) => {
  const main = document.querySelector('main');
  if (!main) return false;
  if (main.getAttribute('data-game-status') === 'finished') return 'finished';
  if (!moves.isConnected) return 'stale';
  return moves.querySelector('button:not([disabled])') ? 'move' : false;
}
"""

PASSIVE = re.compile(r"\b(pass|passes|end|stop|done|decline|skip|no|nothing|keep|don't|do not)\b", re.I)


def eager(labels: Sequence[str], rng: random.Random) -> int:
    """A player who takes, buys and plays rather than passes (shorter games): a random such label."""
    active = [i for i, label in enumerate(labels) if not PASSIVE.search(label)]
    return rng.choice(active or range(len(labels)))


Chooser = Callable[[Sequence[str], random.Random], int]


@dataclass
class Played:
    """What one page did in a game: its clicks (label, epoch ms) and its through-event-id log."""

    clicks: list[tuple[str, float]]
    through: list[tuple[int, float]]
    board_behind: list[tuple[int, int]]  # (log's event, board's event) of each render whose board was behind


@dataclass
class Stats:
    """Figures of the games played in this session (see bench/results/web.md)."""

    games: list[dict[str, Any]] = field(default_factory=list)

    def record(self, kind: str, seconds: float, played: Sequence[Played]) -> dict[str, Any]:
        latencies = click_to_opponent_ms(played)
        figures = {
            "kind": kind,
            "seconds": round(seconds, 2),
            "clicks": sum(len(p.clicks) for p in played),
            "latencies_ms": [round(x, 1) for x in latencies],
            "reaction_ms": [round(x, 1) for x in reaction_ms(played)],
        }
        self.games.append(figures)
        return figures

    def report(self, path: str | None) -> None:
        if not self.games:
            return
        every = [x for g in self.games for x in g["latencies_ms"]]
        for g in self.games:
            print(f"web: {g['kind']}: {g['clicks']} clicks in {g['seconds']} s")
        if reactions := [x for g in self.games for x in g["reaction_ms"]]:
            print(f"web: a test player's own time a move (update to click): p50 {percentile(reactions, 50):.1f} ms")
        if every:
            p50, p99 = percentile(every, 50), percentile(every, 99)
            print(f"web: click to opponent's page: p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(every)} moves")
        if path:
            Path(path).write_text(json.dumps(self.games, indent=1))


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))]


def reaction_ms(played: Sequence[Played]) -> list[float]:
    """For each click: the time since its page last changed event (the test player's own cost of a
    move: reading the page, GetView, the policy's choice, the click)."""
    found = []
    for page in played:
        for _, clicked_at in page.clicks:
            seen = [t for _, t in page.through if t <= clicked_at]
            if seen:
                found.append(clicked_at - seen[-1])
    return found


def click_to_opponent_ms(played: Sequence[Played]) -> list[float]:
    """For each move click on one page: the time until the other page first showed the event the
    click produced (the first event id the clicking page reached after its click)."""
    found = []
    for me, mine in enumerate(played):
        for _, clicked_at in mine.clicks:
            produced = next((i for i, t in mine.through if t > clicked_at), None)
            if produced is None:
                continue
            for other, theirs in enumerate(played):
                if other == me:
                    continue
                seen = next((t for i, t in theirs.through if t > clicked_at and i >= produced), None)
                if seen is not None:
                    found.append(seen - clicked_at)
    return found


def summary(values: Sequence[float]) -> str:
    return f"median {statistics.median(values):.1f}" if values else "none"


async def new_player(browser: Browser, url: str, name: str) -> Page:
    """A fresh browser context (its own sessionStorage: a second player) signed in as a guest."""
    context: BrowserContext = await browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    await context.add_init_script(INIT_SCRIPT)
    page = await context.new_page()
    await page.goto(url)
    await page.get_by_role("textbox", name="Name", exact=True).fill(name)
    await page.get_by_role("button", name="Play as guest", exact=True).click()
    await page.get_by_role("banner").get_by_text(name).wait_for()
    await page.get_by_role("heading", name="Lobby", exact=True).wait_for()
    return page


MARKS = {game_pb2.USER_KIND_GUEST: "guest", game_pb2.USER_KIND_BOT_ACCOUNT: "bot", game_pb2.USER_KIND_SERVER_BOT: "bot"}


def shown_name(seat: game_pb2.SeatInfo) -> str:
    """A seat's name as the game page shows it, its kind marked beside it ("Ann (guest)"; a name
    that ends with its mark already is not marked twice): clients/web/src/names.ts."""
    mark = MARKS.get(seat.user_kind, "")
    name = seat.display_name
    return f"{name} ({mark})" if mark and not name.endswith(f"({mark})") else name


def unique(name: str) -> str:
    """A display name no other test uses (room titles and lists are shared by the whole session)."""
    return f"{name} {uuid.uuid4().hex[:6]}"


async def choose_game(page: Page, kind_name: str, mode: Callable[[str], bool] | None = None) -> str:
    """Select the lobby's "Game" option of `kind_name` (and of a mode, by a test on its text)."""
    game = page.get_by_role("main").get_by_role("combobox", name="Game", exact=True)
    await game.locator("option").first.wait_for(state="attached")  # the catalogue may still be loading
    texts = [t.strip() for t in await game.locator("option").all_inner_texts()]
    fits = [t for t in texts if t.lower().startswith(kind_name.lower()) and (mode is None or mode(t.lower()))]
    assert fits, f"no {kind_name} option among {texts}"
    await game.select_option(label=fits[0])
    return fits[0]


async def set_seats(page: Page, seats: int) -> None:
    main = page.get_by_role("main")
    spin = main.get_by_role("spinbutton", name="Seats", exact=True)
    if await spin.count():
        await spin.fill(str(seats))
    else:
        await main.get_by_role("combobox", name="Seats", exact=True).select_option(str(seats))


async def create_room(
    page: Page, kind_name: str, seats: int, *, private: bool = False, mode: Callable[[str], bool] | None = None
) -> tuple[str, str]:
    """Create a room from the lobby; its title and (private rooms) its code."""
    await choose_game(page, kind_name, mode)
    await set_seats(page, seats)
    main = page.get_by_role("main")
    if private:
        await main.get_by_role("checkbox", name="Private room", exact=True).check()
    await main.get_by_role("button", name="Create room", exact=True).click()
    await page.wait_for_url(re.compile(r"#/rooms/"))
    await main.get_by_role("list", name="Seats", exact=True).wait_for()
    title = (await main.get_by_role("heading").first.inner_text()).strip()
    code = ""
    if private:
        text = await main.get_by_text(re.compile(r"Code: \S+")).first.inner_text()
        found = re.search(r"Code: (\S+)", text)
        assert found, text
        code = found.group(1)
    return title, code


async def join_room(
    page: Page, title: str = "", code: str = "", kind_name: str = "", mode: Callable[[str], bool] | None = None
) -> None:
    """Join by a private room's code, or by the lobby's list of `kind_name` rooms ("Join <title>")."""
    main = page.get_by_role("main")
    if code:
        await main.get_by_role("textbox", name="Room code", exact=True).fill(code)
        await main.get_by_role("button", name="Join by code", exact=True).click()
    else:
        await choose_game(page, kind_name, mode)  # the list shows the rooms of the chosen game
        rooms = main.get_by_role("list", name="Rooms", exact=True)
        await rooms.get_by_role("button", name=f"Join {title}", exact=True).click()
    await page.wait_for_url(re.compile(r"#/rooms/"))
    await main.get_by_role("list", name="Seats", exact=True).wait_for()


async def seat_items(page: Page, count: int) -> Locator:
    """The room's seat items, once there are `count` of them filled."""
    items = page.get_by_role("main").get_by_role("list", name="Seats", exact=True).get_by_role("listitem")
    await _until(lambda: _count_at_least(items, count), f"{count} seats listed")
    return items


async def _count_at_least(locator: Locator, n: int) -> bool:
    return await locator.count() >= n


async def _until(check: Callable[[], Any], what: str, timeout_s: float = TIMEOUT_MS / 1000) -> None:
    deadline = time.monotonic() + timeout_s
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def ready(page: Page) -> None:
    button = page.get_by_role("main").get_by_role("button", name="Ready", exact=True)
    await button.click()
    await page.get_by_role("main").get_by_role("button", name="Not ready", exact=True).wait_for()


async def start(host: Page, others: Sequence[Page]) -> str:
    """The host starts the room's game; every page goes to it. The game's id."""
    await host.get_by_role("main").get_by_role("button", name="Start game", exact=True).click()
    ids = set()
    for page in (host, *others):
        await page.wait_for_url(re.compile(r"#/games/[^/]+$"))
        ids.add(page.url.split("#/games/")[1])
        await page.locator("main[data-through-event-id]").wait_for()
    assert len(ids) == 1, ids
    return f"games/{ids.pop()}"


async def caught_up(page: Page, grpc_client: FlotillaClient, game: str, join_code: str = "") -> int:
    """Until the page shows the game's last event (as GetGame has it, with a private game's code); that
    event id. The page is waited on by its DOM (`when`), GetGame read again
    each time it reaches the event last read."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        last = (await grpc_client.get_game(game, join_code=join_code)).last_event_id
        left_ms = (deadline - time.monotonic()) * 1000
        if left_ms <= 0:
            raise AssertionError(f"timed out waiting for the page at {game}'s last event ({last})")
        await when(page, THROUGH_AT_LEAST_JS, [last], left_ms)
        shown = await through_event_id(page)
        if shown == (await grpc_client.get_game(game, join_code=join_code)).last_event_id:
            return shown


async def through_event_id(page: Page) -> int:
    value = await page.get_by_role("main").get_attribute("data-through-event-id")
    assert value is not None
    return int(value)


def moves_region(page: Page) -> Locator:
    return page.get_by_role("main").get_by_role("region", name="Your move", exact=True)


async def labels(page: Page) -> list[str]:
    """The accessible names of the "Your move" buttons, in order."""
    buttons = moves_region(page).get_by_role("button")
    return [await b.evaluate("b => b.getAttribute('aria-label') || b.textContent.trim()") for b in await buttons.all()]


async def wait_state(page: Page) -> str:
    """'finished' or 'move' (an enabled button in "Your move"), whichever comes first."""
    while True:
        region = await moves_region(page).element_handle()
        state = await when(page, READY_JS, [region], 60_000)
        if state != "stale":
            return str(state)


async def click_move(page: Page, chooser: Chooser, rng: random.Random) -> str:
    """Click one of the prompt's buttons (by its accessible name) and wait for the page to move on."""
    names = await labels(page)
    assert names, "a move was shown without buttons"
    pick = chooser(names, rng)
    label = names[pick]
    before = await through_event_id(page)
    nth = names[:pick].count(label)
    await moves_region(page).get_by_role("button", name=label, exact=True).nth(nth).click()
    # The click disabled the buttons; the page moves on with the update that carries the move.
    await when(page, MOVED_PAST_JS, [before])
    alert = page.get_by_role("alert")
    if await alert.count():  # a player's page never shows one while playing, not even after a lost race
        raise AssertionError(f"the move {label!r} was refused: {(await alert.first.inner_text()).strip()}")
    return label


async def page_log(page: Page) -> Played:
    log = await page.evaluate("window.__flotillaLog")
    return Played(
        clicks=[(c[0], c[1]) for c in log["clicks"]],
        through=[(t[0], t[1]) for t in log["through"]],
        board_behind=[(b[0], b[1]) for b in log["behind"]],
    )


async def final_scores(page: Page) -> list[list[str]]:
    """The "Final scores" table's rows: [Seat N, name, score, rank] in seat order."""
    region = page.get_by_role("main").get_by_role("region", name="Final scores", exact=True)
    await region.wait_for()
    rows = region.get_by_role("table").get_by_role("row")
    found = []
    for row in await rows.all():
        cells = [c.strip() for c in await row.get_by_role("cell").all_inner_texts()]
        if cells:
            found.append(cells)
    return found


async def scores_table(page: Page) -> list[list[str]]:
    """The "Scores" table's body rows (player name first)."""
    table = page.get_by_role("main").get_by_role("table", name="Scores", exact=True)
    rows = []
    for row in await table.get_by_role("row").all():
        cells = [c.strip() for c in await row.get_by_role("cell").all_inner_texts()]
        if cells:
            rows.append(cells)
    return rows


# Port Royal's modes by their lobby option's text (lower case): "Port Royal" and the mode, spelled freely.
def coop(text: str) -> bool:
    return "coop" in re.sub(r"[^a-z]", "", text)


def base(text: str) -> bool:
    return "base" in text and not plus(text)


def plus(text: str) -> bool:
    return "plus" in text or "+" in text


def base_plus(text: str) -> bool:
    return "base" in text and plus(text)


def contract_comp(text: str) -> bool:
    return "contract" in text and not coop(text)


@dataclass(frozen=True)
class Table:
    """Two humans and a bot at one room of `kind_name` (its display name in the lobby)."""

    host: Page
    guest: Page
    game: str
    code: str = ""  # a private room's join code: what a checker that holds no seat reads the game with

    async def close(self) -> None:
        await self.host.context.close()
        await self.guest.context.close()


async def seat_a_table(
    browser: Browser, url: str, kind_name: str, *, private: bool, mode: Callable[[str], bool] | None = None
) -> Table:
    """Through the UI: the host creates a 3-seat room and adds a bot, the guest joins, both ready, the
    host starts; both pages are on the game."""
    host = await new_player(browser, url, unique("Ann"))
    guest = await new_player(browser, url, unique("Bo"))
    title, code = await create_room(host, kind_name, 3, private=private, mode=mode)
    await host.get_by_role("main").get_by_role("button", name="Add bot", exact=True).click()
    await join_room(guest, title=title, code=code, kind_name=kind_name, mode=mode)
    await seat_items(host, 3)
    await ready(guest)
    if await host.get_by_role("main").get_by_role("button", name="Ready", exact=True).count():
        await ready(host)
    game = await start(host, [guest])
    for page in (host, guest):  # the lobby's clicks are not moves
        await page.evaluate("window.__flotillaLog.clicks = []")
    return Table(host, guest, game, code)


async def play_some(pages: Sequence[Page], moves: int, chooser: Chooser = eager, seed: int = 0) -> int:
    """The pages play their seats together until `moves` clicks in all (or the game is over);
    the clicks made. A page still waiting for its turn then stops waiting."""
    made = 0
    enough = asyncio.Event()

    async def one(page: Page, rng: random.Random) -> None:
        nonlocal made
        while not enough.is_set() and await wait_state(page) != "finished":
            await click_move(page, chooser, rng)
            made += 1
            if made >= moves:
                enough.set()

    players = asyncio.gather(*(one(p, random.Random(seed + i)) for i, p in enumerate(pages)))
    stop = asyncio.ensure_future(enough.wait())
    try:
        await asyncio.wait([players, stop], timeout=90, return_when=asyncio.FIRST_COMPLETED)
        if players.done():
            players.result()  # a player's failure
        assert made >= moves or players.done(), f"only {made} of {moves} moves in 90 s"
    finally:
        players.cancel()
        stop.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await players
    return made


async def page_with_prompt(pages: Sequence[Page]) -> Page:
    """The first of the pages to show a move to make."""
    waits = {asyncio.ensure_future(wait_state(p)): p for p in pages}
    try:
        done, _ = await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if task.result() == "move":
                return waits[task]
        raise AssertionError("no page shows a move to make")
    finally:
        for task in waits:
            task.cancel()
