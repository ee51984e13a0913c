"""Listing pages: page sizes, page tokens, and the scan behind ListGames.

Every list call takes `page_size` (0: `DEFAULT_PAGE`, at most `MAX_PAGE`) and an opaque
`page_token` the server issued: a listing score (games: an integer, `inputs.page_number`;
rooms: a float score as `repr` writes it) or an offset (leaderboards, rating histories).
"""

from __future__ import annotations

import re

from flotilla.app.errors import InvalidRequest
from flotilla.store.meta import GameMeta
from flotilla.store.protocol import Store

DEFAULT_PAGE = 50  # a page when the request names no size
MAX_PAGE = 500  # the largest page a list call returns
SCAN_ROUNDS = 20  # store pages ListGames reads at most for one answer page when a state filter skips games
_SCORE_TOKEN = re.compile(r"[0-9]{1,16}(\.[0-9]{1,6})?")  # a listing score as repr() writes it (below 1e16)


def page_size(size: int) -> int:
    """The page size a request asks for (0: the default); InvalidRequest beyond 1..MAX_PAGE."""
    size = size or DEFAULT_PAGE
    if not 0 < size <= MAX_PAGE:
        raise InvalidRequest(f"page_size must be 1..{MAX_PAGE}", field="page_size")
    return size


def score_after(token: str) -> float | None:
    """The listing score a rooms page token carries (None when empty); InvalidRequest when it
    is not one this server issued."""
    if not token:
        return None
    if _SCORE_TOKEN.fullmatch(token) is None:
        raise InvalidRequest("page_token is not one this server issued", field="page_token")
    return float(token)


async def list_games(
    store: Store, kind: str, cursor: int | None, size: int, status: str | None
) -> tuple[list[GameMeta], int | None]:
    """Up to `size` public games of `kind` ("" any) listed below `cursor`, newest first, in `status`
    (None: any), and the cursor of the next page (None: the last). A status filter scans at most
    SCAN_ROUNDS store pages, then answers what it found with the cursor where it stopped."""
    games: list[GameMeta] = []
    for _ in range(SCAN_ROUNDS):
        rows = await store.list_games(kind, cursor, size)
        if not rows:
            return games, None
        metas = await store.metas([g for g, _ in rows])
        for (_game_id, score), meta in zip(rows, metas, strict=True):
            cursor = score
            if meta is not None and not meta.private_code and (status is None or meta.status == status):
                games.append(meta)
                if len(games) == size:
                    break
        if len(games) == size or len(rows) < size:
            if len(rows) < size and len(games) < size:
                cursor = None
            break
    return games, cursor
