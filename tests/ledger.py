"""A ledger of the moves clients were told are committed, checked against what Redis kept.

Bots record each `SubmitAction` (or `Play` submit) answered OK; `assert_kept` then reads each
game's action log (`[seat, action, version, by, request_id]` rows, written by the worker's
commit) and checks that no confirmed move is missing (lost) and that no (seat, request id) was
applied twice (doubled). (The order in which a client hears of its moves is not the log's when it
has several in flight, as a Play stream may.)
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field

from flotilla.store.redis_store import RedisStore


@dataclass(frozen=True, slots=True)
class Confirmed:
    """One move a client was told is committed."""

    game: str  # games/{id}
    seat: int
    request_id: str
    etag: str


@dataclass(frozen=True, slots=True)
class Kept:
    """What the ledger found in Redis."""

    confirmed: int  # confirmed moves checked
    logged: int  # action-log rows of the checked games
    lost: list[Confirmed]
    doubled: list[tuple[str, int, str]]  # (game, seat, request id) applied more than once


@dataclass
class Ledger:
    """Every confirmed move, in the order the clients heard of them."""

    moves: list[Confirmed] = field(default_factory=list)
    _waiting: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)

    def confirm(self, game: str, seat: int, request_id: str, etag: str) -> None:
        self.moves.append(Confirmed(game, seat, request_id, etag))
        for count, future in self._waiting:
            if len(self.moves) >= count and not future.done():
                future.set_result(None)

    async def reached(self, count: int) -> None:
        """Return once `count` moves in all have been confirmed."""
        if len(self.moves) < count:
            future = asyncio.get_running_loop().create_future()
            self._waiting.append((count, future))
            await future

    def of(self, game: str) -> list[Confirmed]:
        return [m for m in self.moves if m.game == game]

    async def check(self, redis_url: str, games: list[str]) -> Kept:
        """Compare the confirmed moves of `games` with their action logs."""
        store = RedisStore.from_url(redis_url)
        lost: list[Confirmed] = []
        doubled: list[tuple[str, int, str]] = []
        logged = 0
        try:
            for game in games:
                rows = await store.actions_log(game.removeprefix("games/"))
                logged += len(rows)
                applied = [(row.seat, row.request_id) for row in rows if row.request_id]
                counts = Counter(applied)
                doubled += [(game, seat, rid) for (seat, rid), n in counts.items() if n > 1]
                lost += [m for m in self.of(game) if (m.seat, m.request_id) not in counts]
        finally:
            await store.close()
        return Kept(sum(len(self.of(g)) for g in games), logged, lost, doubled)

    async def assert_kept(self, redis_url: str, games: list[str]) -> Kept:
        """0 lost, 0 doubled; returns the counts for the test's report."""
        kept = await self.check(redis_url, games)
        assert kept.confirmed > 0, "no move was confirmed"
        assert not kept.lost, f"{len(kept.lost)} confirmed moves are not in the action log: {kept.lost[:5]}"
        assert not kept.doubled, f"{len(kept.doubled)} moves were applied more than once: {kept.doubled[:5]}"
        return kept
