"""Sail Away end to end: random bots finish games through two gateways and two workers."""

from __future__ import annotations

import pytest

from support import UNPACED, Stack, assert_gapless, assert_stored_state_replays, play_full_game

pytestmark = [pytest.mark.redis, pytest.mark.timeout(600)]
STACK_ENV = UNPACED  # the random seats submit as fast as the server answers (support.UNPACED)


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_bots_finish_a_sail_away_game(stack: Stack, seats: int) -> None:
    played = await play_full_game(stack, "sail_away", seats, seed=seats)
    for ids in played.event_ids_by_watcher:
        assert_gapless(ids, played.final_version)
    await assert_stored_state_replays(stack.redis_url, played.game)
