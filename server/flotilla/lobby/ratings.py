"""Ratings per game kind (openskill's Plackett-Luce model), rated exactly once per finished game.

A game is rated when it was made rated (the matchmaker's games and rated rooms' games:
`LobbyStore.mark_rated_game`), finished, is not co-operative, and has at least two distinct
human seats, none of them a guest; bot seats are left out (the humans are ranked among
themselves by the game's ranks). Casual rooms and `CreateGame` tables move no ratings: whoever
picks the table (a second account, a friend who always loses) cannot farm one with them; and
guests, whose accounts cost one call, have no ratings to farm. The rate
script stores every new rating, the leaderboard scores and the history entries only if the
game's guard key is unset, and sets it in the same step: a re-delivered end rates nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import structlog
from openskill.models import PlackettLuce

from flotilla.app.host import host_for
from flotilla.identity.principal import GUEST
from flotilla.lobby.room_document import is_bot
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.protocol import Store

log = structlog.get_logger("flotilla.ratings")

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
CAS_RETRIES = 10


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one game kind."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate the leaderboard sorts by (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma

    @classmethod
    def loads(cls, raw: bytes | None) -> Rating:
        if not raw:
            return cls()
        data = orjson.loads(raw)
        return cls(data["mu"], data["sigma"], data.get("games", 0))

    def dumps(self) -> bytes:
        return orjson.dumps({"mu": self.mu, "sigma": self.sigma, "games": self.games})


def is_cooperative(kind: str, options: Mapping[str, str]) -> bool:
    """Co-operative games (all seats win or lose together) are not rated: there is no ranking."""
    return "coop" in options.get("mode", "").lower() or kind.endswith("_coop")


def rate(previous: list[Rating], ranks: list[int]) -> list[Rating]:
    """New ratings of players (each a team of one) after a game; lower rank is better."""
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in previous]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Rating(team[0].mu, team[0].sigma, p.games + 1) for team, p in zip(after, previous, strict=True)]


GUARD_MARGIN_MS = 60_000  # a game's rated guard outlives the game by this much


class Ratings:
    """Rating use cases: rate a finished game once, leaderboards, histories."""

    def __init__(self, store: LobbyStore, games: Store) -> None:
        self.store = store
        self.games = games

    async def rate_game(self, game_id: str) -> str:
        """Rate one finished game; returns what happened: rated, already, unrated or not_finished."""
        meta = await self.games.game_meta(game_id)
        if meta is None or meta.status != "finished" or meta.result is None:
            return "not_finished"
        if is_cooperative(meta.kind, meta.options) or not await self.store.is_rated_game(game_id):
            return "unrated"
        seats = await self.games.seats(game_id)
        humans = sorted((seat, holder["user"]) for seat, holder in seats.items() if not is_bot(holder["user"]))
        users = [u for _, u in humans]
        if len(set(users)) < 2 or len(set(users)) != len(users):
            return "unrated"
        if any(kind == GUEST for _, kind in await self.store.user_names(users)):  # guests move no ratings
            return "unrated"
        ranks = [int(meta.result["ranks"][seat]) for seat, _ in humans]
        now_ms = int(time.time() * 1000)
        for _ in range(CAS_RETRIES):
            raw = await self.store.read_ratings(meta.kind, users)
            after = rate([Rating.loads(r) for r in raw], ranks)
            history = [
                orjson.dumps(
                    {
                        "game": game_id,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "ordinal": r.ordinal,
                        "rank": rank,
                        "time_ms": now_ms,
                    }
                )
                for r, rank in zip(after, ranks, strict=True)
            ]
            done = await self.store.store_ratings(
                meta.kind,
                game_id,
                users,
                raw,
                [r.dumps() for r in after],
                [r.ordinal for r in after],
                history,
                keep_guard_ms=await self.games.expires_in_ms(game_id, GUARD_MARGIN_MS),
            )
            if done >= 0:
                log.info("ratings.rated" if done else "ratings.already_rated", game=game_id, kind=meta.kind)
                return "rated" if done else "already"
            await asyncio.sleep(0.01)
        msg = f"ratings of games/{game_id} kept moving"
        raise RuntimeError(msg)

    async def mean_rating(self, kind: str, users: list[str]) -> float:
        ratings = [Rating.loads(r) for r in await self.store.read_ratings(kind, users)]
        return sum(r.mu for r in ratings) / len(ratings) if ratings else DEFAULT_MU

    async def rating(self, kind: str, user: str) -> Rating:
        return Rating.loads((await self.store.read_ratings(kind, [user]))[0])

    async def player(self, kind: str, user: str) -> tuple[tuple[str, str], Rating]:
        """A user's (display name, user kind) and rating in a game kind (UnknownGameKind for a kind
        not played here)."""
        host_for(kind)
        names = await self.store.user_names([user])
        return names[0], await self.rating(kind, user)

    async def leaderboard(self, kind: str, offset: int, size: int) -> list[tuple[str, tuple[str, str], Rating]]:
        """(user, (display name, user kind), rating), best first (UnknownGameKind for a kind not played here)."""
        host_for(kind)
        rows = await self.store.leaderboard(kind, offset, size)
        users = [u for u, _ in rows]
        names = await self.store.user_names(users)
        ratings = [Rating.loads(r) for r in await self.store.read_ratings(kind, users)]
        return list(zip(users, names, ratings, strict=True))

    async def history(self, kind: str, user: str, offset: int, size: int) -> list[dict[str, Any]]:
        """A user's rating changes in a game kind, newest first (UnknownGameKind for a kind not played here)."""
        host_for(kind)
        return await self.store.history(kind, user, offset, size)
