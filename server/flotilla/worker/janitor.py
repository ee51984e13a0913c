"""The janitor pass: drops listing entries (games, rooms) whose game or room has expired.

Games that never start and games that ended expire by TTL, rooms too; their ids stay in the
listing indexes until a pass finds them gone. Workers run it under a lease
(`flotilla:janitor:lease`), so one pass runs at a time across all of them; each pass looks
at a bounded number of entries per index and resumes where the previous pass stopped (ZSCAN
cursors kept in Redis), so a large index is covered over several passes.
"""

from __future__ import annotations

from collections.abc import Iterable

import structlog

from flotilla.games import REGISTRY
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.worker")

BUDGET = 2000  # entries looked at per index and pass


def listing_indexes(kinds: Iterable[str] | None = None) -> list[str]:
    """Every listing index: all games, games by kind, open rooms, open rooms by kind."""
    names = list(kinds or REGISTRY)
    return [
        keys.GAMES,
        *(keys.games_of_kind(kind) for kind in names),
        keys.ROOMS_LISTED,
        *(keys.rooms_listed(kind) for kind in names),
    ]


async def janitor_pass(store: RedisStore, budget: int = BUDGET) -> int:
    """One pass over every listing index; returns the number of entries dropped."""
    seen = dropped = 0
    for index in listing_indexes():
        looked, gone = await store.sweep_listing(index, budget)
        seen, dropped = seen + looked, dropped + gone
    log.info("worker.janitor_pass", looked=seen, dropped=dropped)
    return dropped
