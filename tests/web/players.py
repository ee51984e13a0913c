"""Test players who choose well and still click: each seat picks the button the server's `heuristic`
bot would pick in its place (the seat's view and prompt from `GetView` with the seat's token, the
policy's choice named by the prompt's label), and the page is still the only way a move is made."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from dataclasses import dataclass
from typing import Any

from playwright.async_api import ElementHandle, Page

from flotilla.app.host import host_for
from flotilla.bots.policy import make
from flotilla.bots.remote import PolicyBot
from flotilla_client import FlotillaClient, Seat
from web.pagewait import TIMEOUT_MS, when
from web.webui import moves_region

POLICY = "heuristic"
DIFFICULTY = 1  # the server bots' default strength: games as long as bot games

# One round trip per move: click the button named `pick` ([label, nth], or null for none), wait
# until the page moves on (the update with the move, a new prompt, or the end), then until it shows
# a move to make at event `atLeast` or later, or the game is over. Waiting is a MutationObserver
# (and a 250 ms poll for what it cannot see), never a fixed sleep. An alert ends it: a player's
# page must never show one while playing (a race lost at a simultaneous decision is none).
STEP_JS = """
async ([region, pick, atLeast, timeoutMs]) => {
  const main = () => document.querySelector('main');
  const through = () => Number(main()?.getAttribute('data-through-event-id') ?? -1);
  const finished = () => main()?.getAttribute('data-game-status') === 'finished';
  const alerted = () => {
    const a = document.querySelector('[role=alert]'); return a && a.textContent.trim() ? a.textContent.trim() : null; };
  const name = (b) => b.getAttribute('aria-label') || b.textContent.trim();
  const until = (f) => new Promise((resolve) => {
    let done = false;
    const finish = (v) => { done = true; obs.disconnect(); clearInterval(every); clearTimeout(late); resolve(v); };
    const check = () => { if (done) return; const v = f(); if (v) finish(v); };
    const obs = new MutationObserver(check);
    const every = setInterval(check, 250);
    const late = setTimeout(() => finish('timeout'), timeoutMs);
    obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  });
  if (pick) {
    const button = [...region.querySelectorAll('button')].filter((b) => name(b) === pick[0])[pick[1]];
    if (!button || button.disabled) return { state: 'gone' };
    const before = through();
    button.click();
    const after = await until(() => finished() ? 'finished' : through() !== before || !button.isConnected ? 'moved'
      : alerted() ? 'alert' : null);
    if (after !== 'moved' && after !== 'finished') return { state: after === 'alert' ? 'alert: ' + alerted() : after };
  }
  const state = await until(() => {
    if (!main()) return null;
    if (finished()) return 'finished';
    if (alerted()) return 'alert: ' + alerted();
    if (!region.isConnected) return 'stale';
    return through() >= atLeast && region.querySelector('button:not([disabled])') ? 'move' : null;
  });
  const labels = [...region.querySelectorAll('button')].map(name);
  return { state, labels, through: through() };
}
"""


# After a click: the page moved on (as STEP_JS waits after its own click).
MOVED_ON_JS = """
([button, before]) => { const m = document.querySelector('main');
  return Number(m.getAttribute('data-through-event-id')) !== before || !button.isConnected
    || m.getAttribute('data-game-status') === 'finished' || document.querySelector('[role=alert]') !== null; }
"""


@dataclass(frozen=True)
class Step:
    """What the page shows after a step: 'move' (with its buttons' labels), 'finished', ..."""

    state: str
    labels: list[str]
    through: int


class HeuristicPlayer:
    """The seat a page holds, choosing as the `heuristic` bot would (its own seeded generator)."""

    def __init__(self, client: FlotillaClient, seat: Seat, bot: PolicyBot) -> None:
        self.client, self.seat, self.bot = client, seat, bot
        self.rereads = 0  # GetView was ahead of the page (the page was still catching up)

    @classmethod
    async def sit(
        cls, page: Page, client: FlotillaClient, game: str, seed: int, join_code: str = ""
    ) -> HeuristicPlayer:
        """The player of the seat `page`'s tab holds in `game` (a private game: with its code); `seed`
        fixes its choices."""
        seat = await seat_of(page, game)
        found = await client.get_game(game, join_code=join_code)
        rules = host_for(found.kind, found.rules_version).rules
        return cls(client, seat, PolicyBot(rules, make(POLICY, rules, DIFFICULTY), random.Random(seed)))

    async def choose(self, labels: list[str], through: int) -> tuple[str, int] | int:
        """The button to click ([label, its rank among same-named buttons]) for the page's prompt
        at event `through`; or the event the page must reach first (GetView is ahead of it)."""
        reply = await self.client.view(self.seat.game, self.seat)
        at = reply.view.through_event_id
        if at > through or not reply.HasField("prompt"):
            self.rereads += 1
            return max(at, through + 1)
        texts = [t.label for t in reply.prompt.legal_action_texts]
        assert at == through, f"the page is at event {through}, ahead of GetView's {at}"
        assert texts == labels, f"the page's buttons {labels[:4]} are not the prompt's {texts[:4]} at {at}"
        decision = self.bot.decision(reply.view, reply.prompt)
        index = decision.legal.index(self.bot.policy.choose(decision, self.bot.rng))
        return texts[index], texts[:index].count(texts[index])


class Stepper:
    """STEP_JS on one page's "Your move" region, its handle kept until the page re-renders it (one
    Playwright round trip a move)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.region: ElementHandle | None = None

    async def step(self, pick: tuple[str, int] | None, at_least: int) -> Step:
        while True:
            if self.region is None:
                self.region = await moves_region(self.page).element_handle()
            found = await asyncio.wait_for(
                self.page.evaluate(STEP_JS, [self.region, list(pick) if pick else None, at_least, 2 * TIMEOUT_MS]),
                3 * TIMEOUT_MS / 1000,
            )
            if found["state"] == "stale":
                self.region = None
            if found["state"] != "stale" or pick:
                labels = [str(x) for x in found.get("labels", [])]
                return Step(str(found["state"]), labels, int(found.get("through", -1)))


async def play_seat(page: Page, player: HeuristicPlayer, *, by_playwright: int = 3) -> int:
    """Play the page's seat through its buttons until the game is over; the clicks made. The first
    `by_playwright` clicks are Playwright's own (real input events on the button found by role and
    name), the rest the page's click events (one round trip a move instead of a dozen)."""
    clicks, pick, at_least = 0, None, 0
    stepper = Stepper(page)
    while True:
        now = await stepper.step(pick, at_least)
        assert not now.state.startswith("alert"), f"the page showed an alert: {now.state}"
        assert now.state != "timeout", f"the page stopped at event {now.through}"
        if now.state == "finished":
            return clicks
        pick, at_least = None, 0
        if now.state != "move":  # 'gone' or 'stale': the prompt changed under the click; look again
            continue
        choice = await player.choose(now.labels, now.through)
        if isinstance(choice, int):
            at_least = choice
            continue
        clicks += 1
        if clicks > by_playwright:
            pick = choice
            continue
        button = moves_region(page).get_by_role("button", name=choice[0], exact=True).nth(choice[1])
        handle = await button.element_handle()
        await button.click()
        await when(page, MOVED_ON_JS, [handle, now.through])


async def seat_of(page: Page, game: str) -> Seat:
    """The seat (index and token) the page's tab holds in `game`: the contract keeps seat tokens in
    sessionStorage; the entry is found by its content (a JSON object with `seat` and `token`)."""
    entries: dict[str, str] = await page.evaluate("() => ({ ...sessionStorage })")
    for key, text in entries.items():
        if game in key:
            with contextlib.suppress(ValueError, TypeError):
                saved: Any = json.loads(text)
                if isinstance(saved, dict) and "token" in saved and "seat" in saved:
                    return Seat(game, int(saved["seat"]), str(saved["token"]))
    raise AssertionError(f"no seat of {game} in the tab's sessionStorage: {sorted(entries)}")
