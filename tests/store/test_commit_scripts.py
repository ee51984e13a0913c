"""The commit script goes as a plain EVALSHA (no SCRIPT EXISTS round trip before each round): a Redis
that lost its scripts (a restart, SCRIPT FLUSH) still commits every move of a round, once. On one
Redis a round's commits share script calls (up to BATCH_MAX each), each judged as if alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from flotilla.store import commits, connections
from flotilla.store.commit_script import BATCH_MAX, CommitCode
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


async def test_a_round_shares_script_calls_on_one_redis_and_each_commit_is_judged_alone(
    store: RedisStore, uid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [f"{uid}-{i}" for i in range(BATCH_MAX + 2)]
    for game in games:
        await new_game(store, game)
        await fill(store, game)
    await store.commit_many([step(store, game, at=FIRST, request_id="r1") for game in games])  # (loaded everywhere)
    sent: list[bytes] = []

    async def run_packed(client: Any, packed: Sequence[bytes]) -> list[Any]:
        sent.extend(packed)
        return await connections.run_packed(client, packed)

    monkeypatch.setattr(commits, "run_packed", run_packed)  # what goes to Redis (others share it)
    round_ = [step(store, games[0], at=FIRST, request_id="r1")]  # applied before: its first outcome
    round_ += [step(store, games[1], at=FIRST + 5, request_id="r2")]  # the game is not there: moved
    round_ += [step(store, game, at=FIRST + 1, request_id="r2") for game in games[2:]]
    done = await store.commit_many(round_)
    assert [d.code for d in done] == [CommitCode.ALREADY_APPLIED, CommitCode.MOVED] + [CommitCode.COMMITTED] * BATCH_MAX
    assert (done[0].outcome, done[1].current_version) == (outcome(FIRST + 1), FIRST + 1)
    calls = [command.split(b"\r\n")[2] for command in sent]
    assert calls == [b"EVALSHA"] * (len(round_) if store.cluster else 2)  # a cluster: a call per game (its slot)
    for game in games[2:]:
        assert await store.outcomes(game, 0, ["r1", "r2"]) == [outcome(FIRST + 1), outcome(FIRST + 2)]
        assert len(await store.actions_log(game)) == 2
    meta = await store.game_meta(games[1])
    assert meta is not None
    assert meta.version == FIRST + 1


async def script_calls(probe: Any) -> int:
    """SCRIPT commands the backend answered, summed over a cluster's primaries (redis-py reads
    Redis's `cmdstat_script|exists` as `cmdstat_script`)."""
    if hasattr(probe, "get_primaries"):
        by_node = await probe.info("commandstats", target_nodes=probe.PRIMARIES)
        nodes = list(by_node.values())
    else:
        nodes = [await probe.info("commandstats")]
    return sum(int(node.get("cmdstat_script", {}).get("calls", 0)) for node in nodes)


async def test_the_next_read_goes_in_the_commits_write_and_delivers_what_came_after(
    store: RedisStore, probe: Any, uid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store.cluster:
        pytest.skip("one Redis only (a worker on a cluster reads each stream on its own)")
    stream = f"flotilla:work:{{{uid}}}"
    await store.ensure_group(stream)
    await new_game(store, uid)
    await fill(store, uid)
    await probe.script_flush()  # its calls are sent again, on another connection: the read still comes
    writes: list[int] = []

    async def run_packed_then(client: Any, packed: Sequence[bytes], last: bytes) -> Any:
        writes.append(len(packed) + 1)
        return await connections.run_packed_then(client, packed, last)

    monkeypatch.setattr(commits, "run_packed_then", run_packed_then)
    read = store.read_command([stream], "c1", 10, 5000)
    done, reading = await store.commit_then_read([step(store, uid, at=FIRST, request_id="r1")], read)
    assert [d.code for d in done] == [CommitCode.COMMITTED]
    assert writes == [2]  # one write: the script call and the read
    assert not reading.done()  # blocked: nothing was queued yet
    await store.enqueue(stream, {"g": uid, "r": "r2"})
    (message,) = await store.read_reply(reading)
    assert (message[0], message[2]) == (stream, {b"g": uid.encode(), b"r": b"r2"})
    assert await store.outcomes(uid, 0, ["r1"]) == [outcome(FIRST + 1)]
