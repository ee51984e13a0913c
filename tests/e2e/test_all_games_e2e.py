"""Every game end to end: random bots finish games through two gateways and two workers; every
watcher sees a gapless event sequence; the stored state is the replay of the action log. Sail Away
at each of its seat counts (once a module of its own, with a stack of its own: one stack serves both)."""

from __future__ import annotations

import pytest

from support import UNPACED, Stack, assert_gapless, assert_stored_state_replays, play_full_game

pytestmark = [pytest.mark.redis, pytest.mark.timeout(600)]
STACK_ENV = UNPACED  # the random seats submit as fast as the server answers (support.UNPACED)


@pytest.mark.parametrize(
    ("kind", "seats", "options"),
    [
        ("port_royal", 4, {"mode": "contract_comp"}),
        ("port_royal", 1, {"mode": "contract_coop"}),
        ("pirates_of_nassau", 4, {}),
        ("navegador", 4, {}),
        ("sail_away", 2, {}),
        ("sail_away", 3, {}),
        ("sail_away", 4, {}),
    ],
    ids=[
        "port_royal-4p-expansion",
        "port_royal-solo-coop",
        "pirates_of_nassau-4p",
        "navegador-4p",
        "sail_away-2p",
        "sail_away-3p",
        "sail_away-4p",
    ],
)
async def test_bots_finish_a_game(stack: Stack, kind: str, seats: int, options: dict[str, str]) -> None:
    played = await play_full_game(stack, kind, seats, options, seed=seats)
    for ids in played.event_ids_by_watcher:
        assert_gapless(ids, played.final_version)
    await assert_stored_state_replays(stack.redis_url, played.game)
