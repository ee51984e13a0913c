"""The benchmark counter game end to end: real Redis, two gateways and two workers as processes
(and the keys a game leaves, from a gateway and a worker in the test process)."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis.asyncio as aioredis

from flotilla.redis_server import RedisServer
from inproc import in_process
from key_families import families, matching
from support import UNPACED, Stack, assert_gapless, assert_stored_state_replays, play_full_game

pytestmark = [pytest.mark.redis, pytest.mark.timeout(300)]
STACK_ENV = UNPACED  # the random seats submit as fast as the server answers (support.UNPACED)


async def test_bots_finish_counter_games_and_every_watcher_sees_every_event(stack: Stack) -> None:
    played = await play_full_game(stack, "counter", 2)
    assert played.final_version == 202  # GameStarted + 200 moves + GameFinished
    for ids in played.event_ids_by_watcher:
        assert_gapless(ids, played.final_version)


async def test_stored_state_equals_the_replay_of_the_action_log(stack: Stack) -> None:
    # 40 moves (the game above plays the default 200): a replay repeats the same step per move.
    played = await play_full_game(stack, "counter", 2, {"moves": "40"}, seed=7)
    await assert_stored_state_replays(stack.redis_url, played.game)


async def test_every_key_a_played_game_leaves_is_a_documented_family(tmp_path: Path) -> None:
    # A Redis of its own: the session's holds other tests' keys (and some are made up by them).
    # A gateway and a worker in this process (tests/inproc.py): the keys are their code's, not
    # their processes'.
    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis", aof=False).start()
    try:
        with in_process(server.url, gateways=1, workers=1) as own:
            await play_full_game(own, "counter", 2, {"moves": "6"}, seed=3)
            found = await _keys_and_types(server.url)
    finally:
        server.stop()
    assert any(key.endswith(":events") for key in found)
    assert any(":req:" in key for key in found)
    documented = families()
    wrong = {
        key: kind for key, kind in found.items() if not any(f.redis_type == kind for f in matching(key, documented))
    }
    assert not wrong, f"keys (and types) store/keys.py's table does not document: {wrong}"


async def _keys_and_types(url: str) -> dict[str, str]:
    client = aioredis.from_url(url)
    found: dict[str, str] = {}
    try:
        async for key in client.scan_iter(count=1000):
            kind = (await client.type(key)).decode().upper()
            if kind != "NONE":  # expired since the scan saw it (a rate-limit bucket)
                found[key.decode()] = kind
    finally:
        await client.aclose()
    return found
