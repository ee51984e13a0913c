"""A rules bug stays in its game (issue 23, point 10): through the public API, against a real gateway,
real worker processes (tests/worker/faulty_worker.py: counter with planted bugs) and a real Redis.

* An exception the rules raise fails that one move: INTERNAL / ENGINE_FAILURE with an incident id
  (a KeyError included, never "malformed action"), nothing applied or recorded under the request
  id, the worker lives, every other game goes on, the entry is set aside in the dead-letter stream
  at once; `flotilla deadletter retry` queues it again once the bug is fixed, applied once.
* An entry that kills its worker does not walk from worker to worker: after FLOTILLA_MAX_DELIVERIES
  deliveries (scaled to 2 here; the default 5 takes the same path three more times) it is in the
  dead-letter stream, and `flotilla deadletter list` shows it.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis.asyncio as aioredis

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.deadletter import DELIVERIES, ENGINE, DeadLetter, DeadLetters
from flotilla.store.liveness import STALLED_EXIT
from flotilla.worker.loop import work_streams
from flotilla_client import FlotillaClient, FlotillaError, Seat
from forkserver import Proc, spawn
from support import FLOTILLA, Stack, start_stack, until
from worker.faulty_worker import CRASH, HANG, KEY_ERROR, RUNTIME_ERROR

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

FAULTY_WORKER = Path(__file__).resolve().parent / "faulty_worker.py"
INCIDENT = re.compile(r"^[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Its own Redis (the dead letters and consumers are this module's alone) and one gateway; each
    test starts the workers it needs."""
    tmp = tmp_path_factory.mktemp("rules-bugs")
    redis = RedisServer(tmp / "redis", aof=False).start()
    running = start_stack(redis.url, tmp, gateways=1, workers=0, extra_env={"FLOTILLA_WORKER_PROCESSES": "1"})
    yield running
    running.stop()
    redis.stop()


def start_faulty_worker(stack: Stack, name: str, **env: str) -> Proc:
    """A faulty worker process (forked from the tests' fork server, which has Flotilla imported)."""
    return spawn([sys.executable, str(FAULTY_WORKER)], dict(stack.env, **env), stack.log_dir / f"{name}.log")


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


def cli(stack: Stack, name: str, *args: str) -> str:
    """`flotilla deadletter ...` against the stack's Redis; its output."""
    log = stack.log_dir / f"{name}.log"
    proc: Proc = spawn([*FLOTILLA, "deadletter", *args], stack.env, log)
    assert proc.wait(60) == 0, log.read_text()
    return log.read_text()


async def workers_alive(redis: aioredis.Redis, n: int) -> None:
    """Until `n` workers keep their liveness keys (started: they read the work streams)."""

    async def alive() -> bool:
        return len([key async for key in redis.scan_iter(match=keys.worker("*"))]) >= n

    await until(alive, 60, f"{n} workers to start", every_s=0.1)


async def letters_of(redis: aioredis.Redis, game: str) -> list[DeadLetter]:
    found = await DeadLetters(redis).page(1000)
    return [letter for letter in found if letter.fields.get(b"g", b"").decode() == game.removeprefix("games/")]


async def new_game(players: list[FlotillaClient]) -> tuple[str, list[Seat]]:
    game = await players[0].create_game("counter", 2, {"moves": "1000"})
    return game.name, [await player.join(game.name) for player in players]


async def no_pending_work(redis: aioredis.Redis) -> None:
    """Until no work entry is pending (acknowledged in the pipeline that answered: soon after)."""

    async def none_pending() -> bool:
        for stream in work_streams(4, ["counter"]):
            if await redis.exists(stream) and any(int(g["pending"]) for g in await redis.xinfo_groups(stream)):
                return False
        return True

    await until(none_pending, 10, "no work entry pending")


async def test_a_rules_exception_fails_its_move_alone_and_the_worker_lives(stack: Stack) -> None:
    redis = aioredis.Redis.from_url(stack.redis_url)
    workers = [start_faulty_worker(stack, f"faulty-{i}") for i in range(2)]
    players = [FlotillaClient(stack.gateways[0]) for _ in range(2)]
    fixed: Proc | None = None
    try:
        await workers_alive(redis, 2)
        for i, player in enumerate(players):
            await player.sign_in(f"p{i}")
        broken, seats = await new_game(players)
        other, other_seats = await new_game(players)

        incidents = []
        for n, request_id in ((RUNTIME_ERROR, "bug-runtime"), (KEY_ERROR, "bug-keyerror")):
            with pytest.raises(FlotillaError) as caught:
                await players[0].submit(broken, seats[0], add(n), request_id=request_id)
            error = caught.value
            assert error.code == grpc.StatusCode.INTERNAL, error  # never INVALID_ARGUMENT "malformed action"
            assert error.reason == "ERROR_REASON_ENGINE_FAILURE"
            assert INCIDENT.match(error.metadata["incident"])
            assert error.metadata["incident"] in error.message
            incidents.append(error.metadata["incident"])

        # The refusal changed nothing: no move, no outcome recorded under the request id, nothing pending.
        assert (await players[0].get_game(broken)).last_event_id == 1
        game_id = broken.removeprefix("games/")
        assert not await redis.exists(keys.game_reply(game_id, 0, "bug-runtime"))
        await no_pending_work(redis)
        # The workers live, and every game goes on: the other one, and this one with a sound move.
        assert all(worker.poll() is None for worker in workers)
        for turn in range(4):
            done = await players[turn % 2].submit(other, other_seats[turn % 2], add(1))
            assert done.through_event_id == 2 + turn
        # Set aside at once, as delivered once: the entry does not go round the workers.
        letters = await letters_of(redis, broken)
        assert [(letter.why, letter.deliveries, letter.incident) for letter in letters] == [
            (ENGINE, 1, incident) for incident in incidents
        ]
        logged = "".join((stack.log_dir / f"faulty-{i}.log").read_text() for i in range(2))
        for incident in incidents:
            assert f'"incident":"{incident}"' in logged.replace(": ", ":")
        listed = cli(stack, "deadletter-list-1", "list")
        assert all(incident in listed for incident in incidents)

        # The bug is fixed (workers of the sound rules): the set-aside move is queued again and
        # applied, once; the client's own retry of the request id gets that outcome.
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(30)
        fixed = stack.start_worker()
        cli(stack, "deadletter-retry-1", "retry", letters[0].id)

        async def retried() -> bool:
            return (await players[0].get_game(broken)).last_event_id == 2

        await until(retried, 60, "the retried move to be applied", every_s=0.05)
        again = await players[0].submit(broken, seats[0], add(RUNTIME_ERROR), request_id="bug-runtime")
        assert again.through_event_id == 2
        assert (await players[1].submit(broken, seats[1], add(1))).through_event_id == 3
        assert [letter.incident for letter in await letters_of(redis, broken)] == incidents[1:]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait(10)
        if fixed is not None:  # the next test's workers are faulty alone
            fixed.terminate()
            fixed.wait(30)
        for player in players:
            await player.close()
        await redis.aclose()


@pytest.mark.parametrize(("n", "exit_status"), [(CRASH, 70), (HANG, STALLED_EXIT)], ids=["crash", "hang"])
async def test_a_move_that_kills_its_workers_goes_to_the_dead_letters_after_max_deliveries(
    stack: Stack, n: int, exit_status: int
) -> None:
    """`crash`: the rules end the process; `hang`: they never return, and the worker's watchdog
    (FLOTILLA_WORKER_STALL_S, scaled to 1 s from 60) ends it."""
    redis = aioredis.Redis.from_url(stack.redis_url)
    env = {"FLOTILLA_MAX_DELIVERIES": "2", "FLOTILLA_WORKER_STALL_S": "1"}
    workers = [start_faulty_worker(stack, f"crashing-{n}-{i}", **env) for i in range(2)]
    players = [FlotillaClient(stack.gateways[0]) for _ in range(2)]
    try:
        await workers_alive(redis, 2)
        for i, player in enumerate(players):
            await player.sign_in(f"c{i}")
        game, seats = await new_game(players)
        submit = asyncio.create_task(players[0].submit(game, seats[0], add(n), request_id="crash-1"))

        # Each worker that takes the move dies with it: the first reads it, the second takes it
        # over from the first. Two deliveries, the most FLOTILLA_MAX_DELIVERIES=2 allows.

        async def both_dead() -> bool:
            return all(worker.poll() is not None for worker in workers)

        await until(both_dead, 60, "both workers to die", every_s=0.05)
        assert [w.returncode for w in workers] == [exit_status, exit_status]
        # A third worker (a supervisor's restart) takes it over once more: delivered too often, set aside.
        survivor = start_faulty_worker(stack, f"crashing-{n}-survivor", **env)
        workers.append(survivor)

        async def set_aside() -> bool:
            return bool(await letters_of(redis, game))

        await until(set_aside, 60, "the move in the dead letters", every_s=0.05)
        [letter] = await letters_of(redis, game)
        assert (letter.why, letter.deliveries) == (DELIVERIES, 3)
        assert letter.fields[b"r"] == b"crash-1"
        assert letter.stream in work_streams(4, ["counter"])
        await no_pending_work(redis)
        with pytest.raises(FlotillaError) as caught:  # INTERNAL if its gateway still waited, else the deadline
            await asyncio.wait_for(submit, 30)
        assert caught.value.code in (grpc.StatusCode.INTERNAL, grpc.StatusCode.DEADLINE_EXCEEDED), caught.value
        if caught.value.code == grpc.StatusCode.INTERNAL:
            assert caught.value.metadata["incident"] == letter.incident
        # Nothing was applied; the survivor lives and the game goes on.
        assert (await players[0].get_game(game)).last_event_id == 1
        assert (await players[0].submit(game, seats[0], add(1))).through_event_id == 2
        assert survivor.poll() is None
        listed = cli(stack, f"deadletter-list-{n}", "list")
        assert letter.incident in listed
        assert "deliveries=3" in listed
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
            worker.wait(10)
        for player in players:
            await player.close()
        await redis.aclose()
