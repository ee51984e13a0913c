"""Consumers of the matchmaker process: bot seats (played over the public gRPC API) and finished games (rated).

Both read a Redis stream with a consumer group, so any number of matchmakers share the work;
a consumer that dies leaves its messages pending and another one reclaims them (XAUTOCLAIM)
once they have been idle for `claim_idle_ms`. A bot runner keeps its running games' messages
fresh (XCLAIM to itself) so no one takes them while it plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import time

import structlog

from flotilla.bots.remote import policy_bot
from flotilla.errors import StoreUnreachable
from flotilla.identity.tokens import Tokens
from flotilla.lobby.ratings import Ratings
from flotilla.lobby.rooms import Rooms
from flotilla.records import BotSeat, finished_game
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.transient import log_survived, survive
from flotilla_client import FlotillaClient, RandomBot, Seat, Tls, run_bot
from flotilla_client.bot import BotLike

log = structlog.get_logger("flotilla.matchmaker")


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class BotRunner:
    """Plays the bot seats queued on `flotilla:bots` through a gateway, each with its policy and
    difficulty (`policy`, `difficulty` where the seat names none) through `flotilla.bots.remote`."""

    def __init__(
        self,
        store: LobbyStore,
        tokens: Tokens,
        targets: list[str],
        *,
        max_bots: int = 500,
        claim_idle_ms: int = 30_000,
        block_ms: int = 1000,
        tls: Tls | None = None,
        policy: str = "random",
        difficulty: int = 1,
    ) -> None:
        self.store = store
        self.policy = policy
        self.difficulty = difficulty
        self.tokens = tokens
        self.tls = tls
        self.targets = targets
        self.max_bots = max_bots
        self.claim_idle_ms = claim_idle_ms
        self.block_ms = block_ms
        self.consumer = consumer_name()
        self.running: dict[bytes, asyncio.Task[None]] = {}
        self.finished = 0

    async def _play(self, client: FlotillaClient, msg_id: bytes, fields: dict[bytes, bytes]) -> None:
        bot = BotSeat.decode(fields)
        game, seat = bot.game_id, bot.seat
        token = self.tokens.seat(game, seat, bot.user, bot.name)
        taken = Seat(f"games/{game}", seat, token)
        try:
            await run_bot(client, taken, await self._bot(client, taken, bot))
            self.finished += 1
        except Exception:
            log.exception("bots.failed", game=game, seat=seat)
        finally:
            with contextlib.suppress(StoreUnreachable):
                await self.store.ack(keys.BOTS, keys.BOTS_GROUP, msg_id)
            self.running.pop(msg_id, None)

    async def _bot(self, client: FlotillaClient, seat: Seat, bot: BotSeat) -> BotLike:
        """The seat's policy (random without decoding anything; an unknown one plays random)."""
        name = bot.policy or self.policy
        difficulty = self.difficulty if bot.difficulty is None else bot.difficulty
        if name != "random":
            try:
                return await policy_bot(client, seat, name, difficulty)
            except ValueError:
                log.warning("bots.unknown_policy", game=bot.game_id, seat=bot.seat, policy=name[:40])
        return RandomBot(random.Random())

    async def run(self, stop: asyncio.Event) -> None:
        last_keep = time.monotonic()
        grouped = False  # the group is (re)made first, and after a failure (Redis may have lost it)
        async with FlotillaClient(*self.targets, tls=self.tls) as client:
            while not stop.is_set():
                try:
                    if not grouped:
                        await self.store.ensure_group(keys.BOTS, keys.BOTS_GROUP)
                        grouped = True
                    room = self.max_bots - len(self.running)
                    messages = []
                    if room > 0:
                        messages = await self.store.read_group(
                            keys.BOTS, keys.BOTS_GROUP, self.consumer, min(room, 100), self.block_ms
                        )
                    else:
                        await asyncio.sleep(self.block_ms / 1000)
                    if time.monotonic() - last_keep > self.claim_idle_ms / 3000:
                        last_keep = time.monotonic()
                        await self.store.keep(keys.BOTS, keys.BOTS_GROUP, self.consumer, list(self.running))
                        if room > 0:
                            messages += await self.store.reclaim(
                                keys.BOTS, keys.BOTS_GROUP, self.consumer, self.claim_idle_ms, min(room, 100)
                            )
                    for msg_id, fields in messages:
                        if msg_id not in self.running:
                            self.running[msg_id] = asyncio.create_task(self._play(client, msg_id, fields))
                except Exception as exc:  # Redis unreachable or failing over, or a bug: go on
                    grouped = False
                    await survive(log, "bots", exc)
            for task in list(self.running.values()):
                task.cancel()
            for task in list(self.running.values()):
                with contextlib.suppress(asyncio.CancelledError):
                    await task


class RatingsConsumer:
    """Rates each game on `flotilla:finished` once (the rate script's guard makes re-deliveries harmless)."""

    def __init__(
        self, store: LobbyStore, ratings: Ratings, *, claim_idle_ms: int = 30_000, block_ms: int = 1000
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.claim_idle_ms = claim_idle_ms
        self.block_ms = block_ms
        self.consumer = consumer_name()
        self.outcomes: dict[str, int] = {}

    async def handle(self, messages: list[tuple[bytes, dict[bytes, bytes]]]) -> None:
        for msg_id, fields in messages:
            game_id = finished_game(fields)
            try:
                outcome = await self.ratings.rate_game(game_id)
            except StoreUnreachable:
                raise
            except Exception:
                log.exception("ratings.failed", game=game_id)  # left pending: retried after claim_idle_ms
                continue
            self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
            await self.store.ack(keys.FINISHED, keys.RATINGS_GROUP, msg_id)

    async def run(self, stop: asyncio.Event) -> None:
        last_claim = 0.0
        grouped = False  # the group is (re)made first, and after a failure (Redis may have lost it)
        while not stop.is_set():
            try:
                if not grouped:
                    await self.store.ensure_group(keys.FINISHED, keys.RATINGS_GROUP)
                    grouped = True
                messages = await self.store.read_group(
                    keys.FINISHED, keys.RATINGS_GROUP, self.consumer, 100, self.block_ms
                )
                if time.monotonic() - last_claim > self.claim_idle_ms / 2000:
                    last_claim = time.monotonic()
                    messages += await self.store.reclaim(
                        keys.FINISHED, keys.RATINGS_GROUP, self.consumer, self.claim_idle_ms, 100
                    )
                await self.handle(messages)
            except Exception as exc:  # Redis unreachable or failing over, or a bug: go on
                grouped = False
                await survive(log, "ratings", exc)


class RoomSweeper:
    """Frees room seats of players whose WatchRoom stream has been gone for the grace period,
    and finishes room starts whose starter vanished midway (after `lease_s`)."""

    def __init__(self, rooms: Rooms, grace_s: float, *, lease_s: float = 15.0, interval_s: float = 1.0) -> None:
        self.rooms = rooms
        self.grace_s = grace_s
        self.lease_s = lease_s
        self.interval_s = interval_s

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                freed = await self.rooms.free_absent(self.grace_s)
                if freed:
                    log.info("rooms.absent_players_freed", seats=freed)
                started = await self.rooms.finish_stuck_starts(self.lease_s)
                if started:
                    log.info("rooms.stuck_starts_finished", rooms=started)
            except Exception as exc:  # Redis unreachable or failing over, or a bug: the next sweep goes on
                log_survived(log, "rooms", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.interval_s)
