"""Chaos: the gateways are SIGKILLed in turn (each restarted on its address) under 50 watch
streams: 10 games, each with 2 random bots and 3 spectators spread over both gateways. The
streams and bots of a killed gateway resume through the SDK on the other one. Nothing confirmed
is lost or doubled, every stored state replays, every watcher sees each event exactly once, in
order, and every game finishes.

The games are counter, Sail Away and Pirates: what the scenario proves is about streams, not
rules, and the 50 streams stay (the count is the claim). Two Port Royal games (~620 events each,
against a Pirates game's ~220) were two fifths of the events every stream carried; the counter
games (300 moves) still outlast the kills."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from chaos.chaos_support import CHAOS_ENV, PIRATES, Table, assert_sound, every, play_out
from flotilla.redis_server import RedisServer
from ledger import Ledger
from support import Stack, start_stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(240)]

GAMES = [("counter", 2, {"moves": "300"})] * 4 + [("sail_away", 2, {"max_rounds": "8"})] * 2 + [PIRATES] * 4
SPECTATORS = 3  # 10 games x (2 bots + 3 spectators) = 50 watch streams
KILLS = 8  # at most: every 1 s (plus the restart), gateway 0, 1, 0, 1, ... while the games last
WITHIN_S = 150  # 7-40 s alone (7.5 s on a quiet machine, 2026-12), 60-100 s loaded; a stall fails sooner (STALL_S)


@pytest.fixture
def stack(redis_server: RedisServer, tmp_path: Path) -> Iterator[Stack]:
    """Two gateways (killed in turn) and two workers of its own."""
    running = start_stack(redis_server.url, tmp_path, extra_env=CHAOS_ENV)
    yield running
    running.stop()


async def test_a_gateway_killed_under_50_watchers_loses_doubles_and_skips_nothing(stack: Stack) -> None:
    ledger = Ledger()
    table = Table(stack.gateways, ledger, seed=3)
    killed: list[int] = []

    async def kill_a_gateway() -> None:
        index = len(killed) % len(stack.gateways)
        killed.append(index)
        await asyncio.to_thread(stack.restart_gateway, index)

    games, kills = await play_out(
        table, GAMES, WITHIN_S, lambda stop: every(1.0, stop, kill_a_gateway, KILLS), spectators=SPECTATORS
    )
    assert kills >= 3, f"the games ended after {kills} gateway kills: too short for the scenario"
    assert table.failed_over() >= 25, "the streams of a killed gateway should have resumed on the other"
    watchers = [t for g in games for t in (*g.bots, *g.spectators)]
    assert len(watchers) == 50
    kept = await assert_sound(stack.redis_url, ledger, games)
    print(f"{kills} gateways killed; {kept.confirmed} confirmed moves, 0 lost, 0 doubled, {len(watchers)} gapless")
