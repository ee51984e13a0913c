"""`flotilla matchmaker`: form games from ticket queues, play bot seats, rate finished games, until SIGTERM.

Configured from the environment like every process (`flotilla/settings.py`, the README's table):
besides REDIS_URL, FLOTILLA_SECRET and FLOTILLA_SHARDS, its own knobs are `FLOTILLA_GATEWAY` (the
gateways its bots play through; empty: `FLOTILLA_BIND`), `FLOTILLA_MM_*`, `FLOTILLA_ROOM_GRACE` and
`FLOTILLA_BOT_POLICY` / `_DIFFICULTY`. Bots reach the gateways over TLS per `FLOTILLA_GATEWAY_TLS` /
`_CA` / `_CERT` / `_KEY` / `_SERVER_NAME` (docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import dataclass

import structlog

from flotilla.app.games import Games
from flotilla.app.inbox import Inbox
from flotilla.client_tls import client_tls
from flotilla.identity.configure import close_tokens, start_tokens
from flotilla.lobby.ratings import Ratings
from flotilla.lobby.rooms import Rooms
from flotilla.loop_lag import watch_loop
from flotilla.matchmaker.forming import Former
from flotilla.matchmaker.matcher import Policy
from flotilla.matchmaker.workers import BotRunner, RatingsConsumer, RoomSweeper
from flotilla.settings import Settings
from flotilla.store.feeds import Feeds
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla_client.tls import Tls

log = structlog.get_logger("flotilla.matchmaker")


@dataclass(frozen=True, slots=True)
class MatchmakerSettings:
    """The matchmaker's own knobs (see the module docstring)."""

    targets: tuple[str, ...]
    policy: Policy
    roles: frozenset[str]
    max_bots: int
    lease_s: float
    room_grace_s: float
    claim_idle_s: float = 30.0
    tls: Tls | None = None  # how bots reach the gateways (None: plaintext)

    @classmethod
    def from_env(cls, settings: Settings) -> MatchmakerSettings:
        """The matchmaker's part of `settings` (read from the environment by `Settings.from_env`)."""
        fill = settings.mm_bot_fill_after_s  # None: FLOTILLA_MM_BOT_FILL_AFTER=off
        policy = Policy(
            base_window=settings.mm_window,
            widen_per_s=settings.mm_widen,
            max_window=settings.mm_max_window,
            bot_fill_after_s=30.0 if fill is None else fill,
            bots_allowed=fill is not None,
            expire_after_s=settings.mm_expire_after_s,
        )
        targets = tuple(t for t in (settings.gateway_targets or settings.bind).split(",") if t)
        roles = frozenset(r.strip() for r in settings.mm_roles.split(","))
        return cls(
            targets,
            policy,
            roles,
            settings.mm_max_bots,
            settings.mm_lease_s,
            settings.room_grace_s,
            settings.mm_claim_idle_s,
            client_tls(settings),
        )


async def run_matchmaker(settings: Settings, mm: MatchmakerSettings) -> None:
    store = RedisStore.from_settings(settings)
    lobby = LobbyStore.of(store)
    tokens = await start_tokens(settings, store, external=False)
    games = Games(
        store,
        Inbox(store),
        Feeds(store),
        shards=settings.shards,
        submit_timeout_s=settings.submit_timeout_s,
        heartbeat_s=settings.heartbeat_s,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    tasks = []
    if "match" in mm.roles:
        fill_in = (settings.bot_policy, settings.bot_difficulty)  # FLOTILLA_BOT_POLICY, _DIFFICULTY
        former = Former(lobby, games, mm.policy, lease_s=mm.lease_s, bot_policy=fill_in[0], bot_difficulty=fill_in[1])
        tasks.append(former.run(stop))
    if "bots" in mm.roles:
        idle_ms = int(mm.claim_idle_s * 1000)
        runner = BotRunner(
            lobby,
            tokens,
            list(mm.targets),
            max_bots=mm.max_bots,
            claim_idle_ms=idle_ms,
            tls=mm.tls,
            policy=settings.bot_policy,
            difficulty=settings.bot_difficulty,
        )
        tasks.append(runner.run(stop))
    if "ratings" in mm.roles:
        consumer = RatingsConsumer(lobby, Ratings(lobby, store), claim_idle_ms=int(mm.claim_idle_s * 1000))
        tasks.append(consumer.run(stop))
    if "rooms" in mm.roles:
        tasks.append(RoomSweeper(Rooms(lobby, games), mm.room_grace_s, lease_s=mm.lease_s).run(stop))
    log.info("matchmaker.started", roles=sorted(mm.roles), targets=mm.targets)
    try:
        async with watch_loop(settings.loop_stall_ms):
            await asyncio.gather(*tasks)
    finally:
        log.info("matchmaker.stopped")
        await close_tokens(tokens)
        await store.close()
