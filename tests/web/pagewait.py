"""Waiting on a page's DOM without polling it on every animation frame."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

TIMEOUT_MS = 30_000  # any single wait of the UI (a move takes milliseconds; a loaded 2-core box, seconds)

# Until `PREDICATE` (a function of the argument, over the page's DOM) returns a truthy value: checked
# now and after each change of the DOM (a MutationObserver; and every 250 ms for what it cannot see),
# not on every animation frame as Playwright's wait_for_function polls (its "mutation" polling is
# gone): a page that waits costs nothing while nothing changes. Its value; an error after timeoutMs.
WHEN_JS = """
async ([arg, timeoutMs]) => {
  const predicate = (PREDICATE);
  return await new Promise((resolve, reject) => {
    let done = false;
    const finish = (value, failure) => {
      done = true; obs.disconnect(); clearInterval(every); clearTimeout(late);
      failure ? reject(new Error(failure)) : resolve(value);
    };
    const check = () => { if (done) return; const value = predicate(arg); if (value) finish(value); };
    const obs = new MutationObserver(check);
    const every = setInterval(check, 250);
    const late = setTimeout(() => finish(null, `timed out after ${timeoutMs} ms`), timeoutMs);
    obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    check();
  });
}
"""


async def when(page: Page, predicate: str, arg: Any, timeout_ms: float = TIMEOUT_MS) -> Any:
    """Until the JS function `predicate` of `arg` holds on the page (WHEN_JS); its value."""
    return await page.evaluate(WHEN_JS.replace("PREDICATE", predicate), [arg, timeout_ms])


# After a click: the page is past event `before`, the game is over, or an alert is shown.
MOVED_PAST_JS = """
([before]) => { const m = document.querySelector('main');
  return Number(m.getAttribute('data-through-event-id')) > before || m.getAttribute('data-game-status') === 'finished'
    || document.querySelector('[role=alert]') !== null; }
"""

# The page shows event `at` or a later one.
THROUGH_AT_LEAST_JS = "([at]) => Number(document.querySelector('main')?.getAttribute('data-through-event-id')) >= at"
