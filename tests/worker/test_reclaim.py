"""Taking over a dead worker's work: at once for a killed worker, by the backstop for a stuck one, applied once."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from flotilla.app.outcome import Outcome
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.liveness import Liveness
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker, parse_work, work_streams
from flotilla_client import FlotillaClient
from forkserver import Proc, spawn
from support import Stack, start_stack, until
from worker.counter_work import new_counter_game, work

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

HOLDING_WORKER = Path(__file__).resolve().parent / "holding_worker.py"
SUBMIT_DEADLINE_S = 10.0


async def consumers(store: RedisStore, stream: str) -> dict[str, int]:
    """The group's consumers on `stream` and how many messages each holds."""
    return {row["name"].decode(): int(row["pending"]) for row in await store.redis.xinfo_consumers(stream, "workers")}


@pytest.fixture
def fresh_stack(tmp_path: Path) -> Iterator[Stack]:
    """Its own Redis (no other test's consumers), one gateway and one healthy worker."""
    redis = RedisServer(tmp_path / "redis", aof=False).start()
    stack = start_stack(redis.url, tmp_path, gateways=1, workers=1)
    yield stack
    stack.stop()
    redis.stop()


def start_holding_worker(stack: Stack, consumer: str) -> Proc:
    """A holding worker process (forked from the tests' fork server, which has Flotilla imported)."""
    return spawn([sys.executable, str(HOLDING_WORKER), consumer], stack.env, stack.log_dir / f"{consumer}.log")


async def test_a_move_held_by_a_killed_worker_is_committed_well_under_a_second_later(fresh_stack: Stack) -> None:
    store = RedisStore.from_url(fresh_stack.redis_url)
    victim_name = "victim-" + uuid.uuid4().hex[:8]
    victim = start_holding_worker(fresh_stack, victim_name)
    players = [FlotillaClient(fresh_stack.gateways[0]) for _ in range(2)]
    try:
        await until(lambda: store.redis.exists(keys.worker(victim_name)), 30, "the holding worker to start")
        for i, player in enumerate(players):
            await player.sign_in(f"p{i}")
        game = await players[0].create_game("counter", 2, {"moves": "1000"})
        seats = [await player.join(game.name) for player in players]
        streams = work_streams(4, ["counter"])

        async def victim_holds_a_move() -> bool:
            held = [(await consumers(store, s)).get(victim_name, 0) for s in streams]
            return any(held)

        moves = 0
        for turn in range(60):  # the two workers take turns blocking on the streams: the victim gets one soon
            player, seat = players[turn % 2], seats[turn % 2]
            prompt = (await player.view(game.name, seat)).prompt
            submit = asyncio.create_task(player.submit(game.name, seat, prompt.legal_actions[0], etag=prompt.etag))
            moves += 1
            deadline = time.monotonic() + SUBMIT_DEADLINE_S
            while not submit.done() and not await victim_holds_a_move():
                assert time.monotonic() < deadline, "the move was neither applied nor held"
                await asyncio.sleep(0.005)
            if not submit.done():
                break
            assert (await submit).through_event_id == 1 + moves
        else:
            raise AssertionError("the holding worker never got a move")
        killed = time.monotonic()
        victim.send_signal(signal.SIGKILL)
        answer = await submit
        answered_s = time.monotonic() - killed
        print(f"kill -> SubmitAction OK in {answered_s * 1000:.0f} ms")
        assert answer.through_event_id == 1 + moves  # applied, once
        assert answered_s < 3.0, "the client waited for a dead worker (the submit deadline is 10 s)"
        assert (await players[0].get_game(game.name)).last_event_id == 1 + moves

        # The dead consumer goes from every stream: at once where it held work, once it has been
        # quiet for a read's block plus a liveness TTL (1.5 s) where it held none.
        async def victim_removed() -> bool:
            held = [await consumers(store, stream) for stream in streams]
            return all(victim_name not in consumers_of for consumers_of in held)

        await until(victim_removed, 20, "the dead consumer's removal from every stream")
        for stream in streams:  # nothing is left pending or stored
            assert await store.redis.xlen(stream) == 0
    finally:
        if victim.poll() is None:
            victim.kill()
        victim.wait(10)
        for player in players:
            await player.close()
        await store.close()


async def test_a_stuck_worker_loses_its_move_to_the_backstop_and_the_move_is_applied_once(redis_url: str) -> None:
    """A live worker holding a move past FLOTILLA_RECLAIM_IDLE_MS loses it to another worker;
    when the slow one gets to it after all, the commit script answers it from the recorded outcome."""
    store = RedisStore.from_url(redis_url)
    game_id = "stuck-" + uuid.uuid4().hex
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    await new_counter_game(store, game_id)
    stream = work_streams(1, ["counter"])[0]
    await store.ensure_group(stream)
    slow = Worker(store, shards=1, kinds=["counter"], consumer="slow-" + game_id)
    await store.redis.set(keys.worker(slow.consumer), 1, px=60_000)  # alive all along
    await store.enqueue(stream, work(game_id, 0, 7, "r1", inbox))
    held = [m for m in await store.read_work([stream], slow.consumer, 10, 100) if m[2][b"g"] == game_id.encode()]
    assert len(held) == 1
    helper = Worker(store, shards=1, kinds=["counter"], consumer="helper-" + game_id, claim_idle_ms=300, block_ms=50)
    running = asyncio.create_task(helper.run())

    async def applied() -> bool:
        meta = await store.game_meta(game_id)
        return meta is not None and meta.version == 2

    await until(applied, 20, "the backstop to apply the held move")
    helper.stop()
    await asyncio.wait_for(running, 10)
    await slow.handle([parse_work(*held[0])])  # the slow worker finishes its copy
    meta = await store.game_meta(game_id)
    assert meta is not None
    assert meta.version == 2  # applied once
    outcomes = [Outcome.loads(fields[b"o"]) for _id, fields in await store.read_inbox(inbox, "0-0", 10)]
    assert [(o.ok, o.version) for o in outcomes] == [(True, 2), (True, 2)]
    assert (await store.redis.xpending(stream, keys.WORKER_GROUP))["pending"] == 0
    assert await store.redis.xrange(stream, "-", "+") == []  # applied entries are deleted
    assert not await store.redis.exists(keys.worker(helper.consumer))  # a stopped worker drops its key
    await store.redis.delete(keys.worker(slow.consumer))
    await store.close()


async def test_the_sweep_lists_consumers_only_for_a_lapsed_registered_worker_or_as_the_backstop(
    tmp_path: Path,
) -> None:
    """Sweeps read the worker registry; the streams' consumers are listed (and dead ones' work
    claimed) only when a registered worker's liveness lapsed, or on the periodic backstop sweep."""
    redis = RedisServer(tmp_path / "redis", aof=False).start()  # its own registry: no other test's dead workers
    store = RedisStore.from_url(redis.url)
    stream = "flotilla:work:{test-registry}"
    registered, unregistered = "dead-registered", "dead-unregistered"
    await store.ensure_group(stream)
    for consumer in (registered, unregistered):
        await store.redis.xadd(stream, {"n": consumer})
        assert len(await store.read_work([stream], consumer, 1, 100)) == 1
    sweeper = Worker(store, shards=1, kinds=["counter"], consumer="sweeper", block_ms=50)
    sweeper.streams = [stream]
    live = Liveness(store.sync_client(2.0), "live", ttl_ms=60_000, refresh_ms=50)
    live.start()
    try:
        await store.redis.zadd(keys.WORKERS, {"live-but-late": 0})  # lapsed score, key still there
        await store.redis.set(keys.worker("live-but-late"), 1, px=60_000)
        assert await store.lapsed_workers() == []
        assert await sweeper.reclaim_dead(full=False) == 0  # nobody lapsed: no consumer listed
        assert await consumers(store, stream) == {registered: 1, unregistered: 1}
        assert await sweeper.reclaim_dead(full=True) == 2  # the backstop finds both dead consumers
        assert await consumers(store, stream) == {"sweeper": 0}

        await store.redis.xadd(stream, {"n": registered})
        assert len(await store.read_work([stream], registered, 1, 100)) == 1
        await store.redis.zadd(keys.WORKERS, {registered: 0})  # its key lapsed (never set here)
        assert await store.lapsed_workers() == [registered]
        assert await sweeper.reclaim_dead(full=False) == 1
        assert await store.redis.zscore(keys.WORKERS, registered) is not None  # kept until nothing is left
        assert await sweeper.reclaim_dead(full=False) == 0
        assert await store.redis.zscore(keys.WORKERS, registered) is None  # swept: forgotten
    finally:
        live.stop()
    assert await store.lapsed_workers() == ["live"]  # a stopped worker is lapsed at once
    await store.close()
    redis.stop()


async def test_an_idle_sweeper_reads_the_registry_at_its_next_lapse_not_every_sweep_ms(tmp_path: Path) -> None:
    """Idle, a worker reads the registry when its next score lapses (here ~3 times a second with a
    300 ms TTL, not 50 times with sweep_ms=20), and a worker that dies is still taken over as its
    score lapses: no later than with a read every sweep_ms."""
    redis = RedisServer(tmp_path / "redis", aof=False).start()  # its own registry
    store = RedisStore.from_url(redis.url)
    stream = "flotilla:work:{test-paced}"
    await store.ensure_group(stream)
    sweeper = Worker(store, shards=1, kinds=["counter"], consumer="sweeper", block_ms=50, sweep_ms=20)
    sweeper.liveness_ttl_ms = 300
    sweeper.streams = [stream]
    reads = 0
    read = store.lapsed_and_next

    async def counted() -> tuple[list[str], int | None]:
        nonlocal reads
        reads += 1
        return await read()

    store.lapsed_and_next = counted  # type: ignore[method-assign]
    live = Liveness(store.sync_client(2.0), "live", ttl_ms=300, refresh_ms=50)
    live.start()
    sweep = asyncio.create_task(sweeper._sweep_loop())
    try:
        await asyncio.sleep(1.0)
        assert 2 <= reads <= 12  # every 250-300 ms (every 20 ms before: ~50)
        await store.redis.xadd(stream, {"n": "dying"})
        assert len(await store.read_work([stream], "dying", 1, 100)) == 1
        dying = Liveness(store.sync_client(2.0), "dying", ttl_ms=300, refresh_ms=50)
        dying.start()
        await asyncio.sleep(0.2)
        dying._stop.set()  # dies: its key and score lapse unrenewed (within 300 ms)
        died = time.monotonic()
        await until(lambda: consumers_of(store, stream, "sweeper"), 5.0, "the dead worker's entry claimed")
        assert time.monotonic() - died < 0.3 + 0.7  # its lapse, then one sweep (slack for a loaded machine)
        dying._thread.join(timeout=2)
        dying.client.close()
    finally:
        sweeper._stopping.set()
        sweep.cancel()
        live.stop()
    await store.close()
    redis.stop()


async def consumers_of(store: RedisStore, stream: str, consumer: str) -> bool:
    """Whether `consumer` holds, or has applied, work on `stream` (the entry claimed)."""
    return (await consumers(store, stream)).get(consumer, 0) > 0 or sum((await consumers(store, stream)).values()) == 0
