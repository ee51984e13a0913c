"""ListGames' paging without the wire (app/listing.py, Games.listed): pages of a size, newest
first, private games never, a state filter, and page tokens the server issued only."""

from __future__ import annotations

import uuid

import pytest

from app.app_support import App
from flotilla.app import listing
from flotilla.app.errors import InvalidRequest

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


def test_page_sizes_and_tokens() -> None:
    assert listing.page_size(0) == listing.DEFAULT_PAGE
    assert listing.page_size(listing.MAX_PAGE) == listing.MAX_PAGE
    for bad in (-1, listing.MAX_PAGE + 1):
        with pytest.raises(InvalidRequest) as refused:
            listing.page_size(bad)
        assert refused.value.metadata["field"] == "page_size"
    assert listing.score_after("") is None
    assert listing.score_after("1765000000000.5") == 1765000000000.5
    for bad in ("abc", "1e5", "-1", "1" * 17):
        with pytest.raises(InvalidRequest):
            listing.score_after(bad)


async def _all_pages(app: App, size: int, status: str | None) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor: int | None = None
    while True:
        metas, cursor = await app.games.listed("counter", cursor, size, status)
        pages.append([m.game_id for m in metas])
        if cursor is None:
            return pages
        assert len(pages) < 50, "the cursor never ends"


async def test_pages_cover_every_public_game_once_newest_first(app: App) -> None:
    made = [(await app.games.create("counter", 2, {}, uuid.uuid4().hex)).game_id for _ in range(7)]
    hidden = (await app.games.create("counter", 2, {}, uuid.uuid4().hex, private_code="K7MQ2XWD")).game_id
    pages = await _all_pages(app, 3, None)
    listed = [g for page in pages for g in page]
    assert all(len(page) <= 3 for page in pages)
    assert hidden not in listed
    assert len(listed) == len(set(listed))  # no game twice across pages
    assert set(made) <= set(listed)  # every public game, once
    created = [(await app.games.meta(g)).created_ms for g in listed]
    assert created == sorted(created, reverse=True)  # newest first (games of one millisecond: any order)


async def test_a_state_filter_skips_what_it_does_not_want(app: App) -> None:
    waiting = (await app.games.create("counter", 2, {}, uuid.uuid4().hex)).game_id
    started = (await app.games.create("counter", 2, {}, uuid.uuid4().hex)).game_id
    for user in ("a", "b"):
        await app.games.join(started, f"{user}-{started}", user, None)
    active = [g for page in await _all_pages(app, 2, "active") for g in page]
    assert started in active
    assert waiting not in active
    for game_id in active:
        assert (await app.games.meta(game_id)).status == "active"
