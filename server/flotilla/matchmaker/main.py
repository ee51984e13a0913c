"""`flotilla matchmaker`: form games from ticket queues, play bot seats, rate finished games, until SIGTERM.

Configured from the environment (besides REDIS_URL, FLOTILLA_SECRET and FLOTILLA_SHARDS):

| variable | default | meaning |
|---|---|---|
| `FLOTILLA_GATEWAY` | `FLOTILLA_BIND` | gateway target(s) bots play through, comma-separated |
| `FLOTILLA_MM_WINDOW` | `3` | rating window (mu points) of a fresh ticket |
| `FLOTILLA_MM_WIDEN` | `1` | window growth per second of waiting |
| `FLOTILLA_MM_MAX_WINDOW` | `50` | the widest window |
| `FLOTILLA_MM_BOT_FILL_AFTER` | `30` | seconds before open seats are filled with bots (`off`: never) |
| `FLOTILLA_MM_EXPIRE_AFTER` | `300` | seconds before a ticket expires |
| `FLOTILLA_MM_LEASE` | `15` | seconds before a matchmaker completes a match (or room start) whose maker vanished |
| `FLOTILLA_MM_ROLES` | `match,bots,ratings,rooms` | which loops this process runs |
| `FLOTILLA_ROOM_GRACE` | `60` | seconds a seated player's WatchRoom may be gone before the seat is freed |
| `FLOTILLA_MM_MAX_BOTS` | `500` | bot seats one process plays at once |
| `FLOTILLA_MM_CLAIM_IDLE` | `30` | seconds before a dead process's bot seats and finished games are taken over |
| `FLOTILLA_BOT_POLICY`, `_DIFFICULTY` | `random`, `1` | bots filling matches, room bots naming none |

Bots reach the gateways over TLS per `FLOTILLA_GATEWAY_TLS` / `_CA` / `_CERT` / `_KEY` / `_SERVER_NAME`
(`server/flotilla/settings.py`, docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass

import structlog

from flotilla.app.games import Games
from flotilla.app.inbox import Inbox
from flotilla.gateway.tls import client_tls
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


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw else default


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
        fill = os.environ.get("FLOTILLA_MM_BOT_FILL_AFTER", "")
        policy = Policy(
            base_window=_float("FLOTILLA_MM_WINDOW", 3.0),
            widen_per_s=_float("FLOTILLA_MM_WIDEN", 1.0),
            max_window=_float("FLOTILLA_MM_MAX_WINDOW", 50.0),
            bot_fill_after_s=30.0 if not fill or fill == "off" else float(fill),
            bots_allowed=fill != "off",
            expire_after_s=_float("FLOTILLA_MM_EXPIRE_AFTER", 300.0),
        )
        targets = tuple(t for t in os.environ.get("FLOTILLA_GATEWAY", settings.bind).split(",") if t)
        roles = frozenset(r.strip() for r in os.environ.get("FLOTILLA_MM_ROLES", "match,bots,ratings,rooms").split(","))
        max_bots = int(_float("FLOTILLA_MM_MAX_BOTS", 500))
        lease_s, grace_s = _float("FLOTILLA_MM_LEASE", 15.0), _float("FLOTILLA_ROOM_GRACE", 60.0)
        claim_idle_s = _float("FLOTILLA_MM_CLAIM_IDLE", 30.0)
        return cls(targets, policy, roles, max_bots, lease_s, grace_s, claim_idle_s, client_tls(settings))


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
