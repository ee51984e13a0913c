"""The benchmark counter game end to end: real Redis, two gateways and two workers as processes."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from key_families import families, matching
from support import Stack, assert_gapless, assert_stored_state_replays, play_full_game

pytestmark = [pytest.mark.redis, pytest.mark.timeout(300)]


async def test_bots_finish_counter_games_and_every_watcher_sees_every_event(stack: Stack) -> None:
    played = await play_full_game(stack, "counter", 2)
    assert played.final_version == 202  # GameStarted + 200 moves + GameFinished
    for ids in played.event_ids_by_watcher:
        assert_gapless(ids, played.final_version)


async def test_stored_state_equals_the_replay_of_the_action_log(stack: Stack) -> None:
    played = await play_full_game(stack, "counter", 2, seed=7)
    await assert_stored_state_replays(stack.redis_url, played.game)


async def test_every_key_a_played_game_leaves_is_a_documented_family(stack: Stack) -> None:
    await play_full_game(stack, "counter", 2, {"moves": "6"}, seed=3)
    documented = families()
    client = aioredis.from_url(stack.redis_url)
    try:
        found = {key.decode(): (await client.type(key)).decode().upper() async for key in client.scan_iter(count=1000)}
    finally:
        await client.aclose()
    assert any(key.endswith(":events") for key in found)
    assert any(":req:" in key for key in found)
    wrong = {
        key: kind for key, kind in found.items() if not any(f.redis_type == kind for f in matching(key, documented))
    }
    assert not wrong, f"keys (and types) store/keys.py's table does not document: {wrong}"
