"""A submission's way through the app (`submit_move`, `Games.submit`, `Games._queue`) over a store
that answers at once, in process: no task of its own per move (a game's kind known already), and
still the deadline when the store never answers."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from flotilla.app.games import Games
from flotilla.app.host import GameHost, host_for
from flotilla.app.inbox import Inbox
from flotilla.app.limits import Gate
from flotilla.app.moves import submit_move
from flotilla.app.outcome import Outcome
from flotilla.games.counter import Add
from flotilla.rules import Seat
from flotilla.store.limits_store import Bucket

pytestmark = pytest.mark.timeout(30)

GAME = "g" * 32


@dataclass(frozen=True)
class Move:
    action: Any
    request_id: str
    game: str = ""
    etag: str = ""


class AnsweringStore:
    """Queues nothing: every enqueued move is accepted at once (as its feed entry would answer it),
    but for the request ids in `silent` (as a Redis that lost the entry)."""

    wait_replicas = 0

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.silent: set[str] = set()
        self.calls: list[tuple[str, tuple[Bucket, ...]]] = []
        self.inbox: Inbox | None = None

    async def enqueue(
        self, stream: str, fields: Mapping[str, Any], gate: Sequence[Bucket] = ()
    ) -> tuple[int, int] | None:
        self.calls.append((str(fields["r"]), tuple(gate)))
        if not self.answer:
            await asyncio.Event().wait()  # a Redis cut off
        assert self.inbox is not None
        request = (str(fields["g"]), int(fields["s"]), str(fields["r"]))
        if request[2] not in self.silent:
            outcome = Outcome(True, 2, lineage="l", game=request[0], seat=request[1], announced=True)
            asyncio.get_running_loop().call_soon(self.inbox.resolve, request, outcome)
        return None


def games_over(store: AnsweringStore) -> Games:
    inbox = Inbox(store)  # type: ignore[arg-type]
    store.inbox = inbox
    games = Games(store, inbox, None, shards=1, submit_timeout_s=5, heartbeat_s=1)  # type: ignore[arg-type]
    games._kinds[GAME] = ("counter", host_for("counter").rules.version)
    return games


def plain(_host: GameHost, action: Any) -> Any:
    return action


async def test_a_move_of_a_known_game_makes_no_task_of_its_own() -> None:
    games = games_over(AnsweringStore())
    loop = asyncio.get_running_loop()
    made: list[Any] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        made.append(coro)
        return asyncio.Task(coro, loop=loop, **kwargs)

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    try:
        for n in range(3):
            _host, outcome = await submit_move(games, GAME, Seat(0), Move(Add(1), f"r{n}"), plain, Gate())
            assert outcome.ok
            assert outcome.version == 2
    finally:
        loop.set_task_factory(None)
    assert made == []


async def test_a_store_that_never_answers_ends_the_move_at_its_deadline() -> None:
    games = games_over(AnsweringStore(answer=False))
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(TimeoutError):
        await submit_move(games, GAME, Seat(0), Move(Add(1), "late"), plain, Gate(), deadline_s=0.2)
    assert 0.15 <= loop.time() - started < 2
    assert games.inbox._waiters == {}  # forgotten


async def test_a_move_is_queued_again_once_redis_came_back_and_takes_its_buckets_once() -> None:
    store = AnsweringStore()
    games = games_over(store)
    store.silent.add("lost")
    bucket = Bucket("flotilla:limit:{submit:u}", 1.0, 5)
    move = asyncio.ensure_future(submit_move(games, GAME, Seat(0), Move(Add(1), "lost"), plain, Gate((), (bucket,))))
    await asyncio.sleep(0.05)
    assert store.calls == [("lost", (bucket,))]
    store.silent.clear()
    games.inbox.came_back()  # the inbox's reader got Redis back: the entry may be gone
    _host, outcome = await move
    assert outcome.ok
    assert store.calls == [("lost", (bucket,)), ("lost", ())]
    assert games.inbox._waiters == {}


async def test_a_duplicate_past_its_deadline_leaves_the_other_waiting_for_the_outcome() -> None:
    store = AnsweringStore()
    games = games_over(store)
    store.silent.add("twice")
    first = asyncio.ensure_future(submit_move(games, GAME, Seat(0), Move(Add(1), "twice"), plain, Gate()))
    with pytest.raises(TimeoutError):
        await submit_move(games, GAME, Seat(0), Move(Add(1), "twice"), plain, Gate(), deadline_s=0.05)
    assert not first.done()
    games.inbox.resolve((GAME, 0, "twice"), Outcome(True, 7, lineage="l", game=GAME, seat=0, announced=True))
    _host, outcome = await first
    assert outcome.version == 7
    assert games.inbox._waiters == {}
