"""The commit script goes as a plain EVALSHA (no SCRIPT EXISTS round trip before each round): a Redis
that lost its scripts (a restart, SCRIPT FLUSH) still commits every move of a round, once."""

from __future__ import annotations

from typing import Any

import pytest

from flotilla.store.commit_script import CommitCode
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, fill, new_game, outcome, step

pytestmark = pytest.mark.redis


async def test_a_round_after_redis_lost_its_scripts_commits_each_move_once(
    store: RedisStore, probe: Any, uid: str
) -> None:
    games = [f"{uid}-a", f"{uid}-b", f"{uid}-c"]
    for game in games:
        await new_game(store, game)
        await fill(store, game)
    (first,) = await store.commit_many([step(store, games[0], at=FIRST, request_id="r1")])  # the script is loaded
    assert first.code == CommitCode.COMMITTED
    await probe.script_flush()  # as a restarted Redis: no script is loaded
    later = [step(store, games[0], at=FIRST + 1, request_id="r2")]
    later += [step(store, game, at=FIRST, request_id="r1") for game in games[1:]]
    done = await store.commit_many(later)
    assert [d.code for d in done] == [CommitCode.COMMITTED] * 3
    assert await store.outcomes(games[0], 0, ["r1", "r2"]) == [outcome(FIRST + 1), outcome(FIRST + 2)]
    for game in games:
        meta = await store.game_meta(game)
        assert meta is not None
        assert meta.version == (FIRST + 2 if game == games[0] else FIRST + 1)
        assert len(await store.actions_log(game)) == (2 if game == games[0] else 1)


async def test_a_round_sends_no_script_command(store: RedisStore, probe: Any, uid: str) -> None:
    await new_game(store, uid)
    await fill(store, uid)
    await store.commit_many([step(store, uid, at=FIRST, request_id="r1")])  # loaded
    before = await script_calls(probe)
    await store.commit_many([step(store, uid, at=FIRST + 1, request_id="r2")])
    assert await script_calls(probe) == before


async def script_calls(probe: Any) -> int:
    """SCRIPT commands the backend answered, summed over a cluster's primaries (redis-py reads
    Redis's `cmdstat_script|exists` as `cmdstat_script`)."""
    if hasattr(probe, "get_primaries"):
        by_node = await probe.info("commandstats", target_nodes=probe.PRIMARIES)
        nodes = list(by_node.values())
    else:
        nodes = [await probe.info("commandstats")]
    return sum(int(node.get("cmdstat_script", {}).get("calls", 0)) for node in nodes)
