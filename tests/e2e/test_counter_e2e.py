"""The benchmark counter game end to end: real Redis, two gateways and two workers as processes."""

from __future__ import annotations

import pytest

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
