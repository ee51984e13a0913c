"""Turn clocks against real processes: a timeout fires after the worker that set it died, absent
seats are played by bots to the end, and leaving with the ABORT policy aborts the game."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator

import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.redis_server import RedisServer
from flotilla_client import FlotillaClient
from support import Stack, start_stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=5)))


@pytest.fixture(scope="module")
def one_worker(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("clocks"), gateways=1, workers=1)
    yield running
    running.stop()


async def timed_game(stack: Stack, clock: game_pb2.Clock, moves: int = 200) -> tuple[FlotillaClient, str, list]:  # type: ignore[type-arg]
    host = FlotillaClient(stack.gateways[0])
    await host.sign_in("host")
    reply = await host.games.CreateGame(
        game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, options={"moves": str(moves)}, clock=clock),
        metadata=host._auth(host.session_token),
    )
    name = reply.game.name
    other = FlotillaClient(stack.gateways[0])
    await other.sign_in("other")
    seats = [await host.join(name), await other.join(name)]
    await other.close()
    return host, name, seats


async def events_until(client: FlotillaClient, game: str, stop: str, timeout_s: float) -> list[game_pb2.GameEvent]:
    seen: list[game_pb2.GameEvent] = []

    async def collect() -> None:
        async for update in client.watch(game, after_event_id=1):
            seen.extend(update.events)
            if any(e.WhichOneof("event") == stop for e in update.events):
                return

    await asyncio.wait_for(collect(), timeout_s)
    return seen


async def test_a_timeout_fires_after_the_worker_that_set_it_was_killed(one_worker: Stack) -> None:
    host, game, seats = await timed_game(one_worker, game_pb2.Clock(turn_seconds=2, max_timeouts=10))
    await host.submit(game, seats[0], ADD)  # the worker sets seat 1's deadline ...
    one_worker.worker_procs[0].send_signal(signal.SIGKILL)  # ... and dies
    one_worker.worker_procs[0].wait()
    one_worker.start_worker()
    events = await events_until(host, game, "seat_timed_out", 30)
    timed_out = [e.seat_timed_out for e in events if e.WhichOneof("event") == "seat_timed_out"]
    assert [(t.seat, t.consecutive) for t in timed_out] == [(1, 1)]
    # The server played the default action for seat 1 right after the timeout event.
    after = events[[e.WhichOneof("event") for e in events].index("seat_timed_out") + 1]
    assert after.counter.added.seat == 1
    info = await host.get_game(game)
    assert info.seats[1].timeouts == 1
    assert info.seats[0].deadline.seconds > 0  # now seat 0's clock runs
    await host.close()


async def test_absent_seats_are_played_by_bots_to_the_end(one_worker: Stack) -> None:
    host, game, _seats = await timed_game(one_worker, game_pb2.Clock(turn_seconds=1, max_timeouts=1), moves=30)
    events = await events_until(host, game, "game_finished", 60)
    kinds = [e.WhichOneof("event") for e in events]
    absent = [e.seat_absent for e in events if e.WhichOneof("event") == "seat_absent"]
    assert sorted(a.seat for a in absent) == [0, 1]
    assert all(a.reason == "timeouts" and a.policy == game_pb2.ABSENCE_POLICY_BOT for a in absent)
    assert kinds.count("counter") == 30
    record = await host.record(game)
    assert all(a.by_server for a in record.actions)
    final = await host.get_game(game)
    assert final.state == game_pb2.GAME_STATE_FINISHED
    assert all(s.absent for s in final.seats)
    await host.close()


async def test_leaving_with_the_abort_policy_aborts_the_game(one_worker: Stack) -> None:
    clock = game_pb2.Clock(absence_policy=game_pb2.ABSENCE_POLICY_ABORT)  # untimed: only leaving matters
    host, game, seats = await timed_game(one_worker, clock)
    await host.submit(game, seats[0], ADD)
    await host.games.LeaveGame(
        game_service_pb2.LeaveGameRequest(game=game, request_id="leave-1"), metadata=host._auth(seats[1].token)
    )
    events = await events_until(host, game, "game_aborted", 20)
    assert [e.WhichOneof("event") for e in events][-2:] == ["seat_absent", "game_aborted"]
    final = await host.get_game(game)
    assert final.state == game_pb2.GAME_STATE_ABANDONED
    await host.close()


async def test_a_forfeiting_seat_ranks_last(one_worker: Stack) -> None:
    clock = game_pb2.Clock(absence_policy=game_pb2.ABSENCE_POLICY_FORFEIT)
    host, game, seats = await timed_game(one_worker, clock, moves=4)
    await host.games.LeaveGame(
        game_service_pb2.LeaveGameRequest(game=game, request_id="leave-2"), metadata=host._auth(seats[0].token)
    )
    for _ in range(20):  # seat 1 plays its turns; the bot plays seat 0's at once
        info = await host.get_game(game)
        if info.state == game_pb2.GAME_STATE_FINISHED:
            break
        if 1 in info.to_act:
            await host.submit(game, seats[1], ADD)
        await asyncio.sleep(0.1)
    final = await host.get_game(game)
    assert final.state == game_pb2.GAME_STATE_FINISHED
    assert list(final.result.winners) == [1]
    assert list(final.result.ranks) == [2, 1]
    assert final.seats[0].forfeited
    await host.close()
