"""The Play session without the wire (app/play_session.py): updates and outcomes in one order, an
accepted move answered by the update that carries it, a refused one by its outcome, a bad message
answered while the stream goes on, and the stream's end with its game."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from app.app_support import App
from flotilla.app.errors import InvalidRequest, Unauthenticated
from flotilla.app.host import GameHost
from flotilla.app.limits import Gate
from flotilla.app.outcome import Outcome
from flotilla.app.play_session import PlaySession
from flotilla.app.watching import Answer, Batch
from flotilla.games.counter import Add
from flotilla.identity.principal import Principal
from flotilla.rules import NotYourTurn, Seat

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

WAIT_S = 30  # a loaded machine's worst case for one move through an in-process worker


@dataclass(frozen=True)
class Move:
    """A submission as a wire would carry it (app/moves.py MoveRequest)."""

    action: Any = None
    request_id: str = ""
    game: str = ""
    etag: str = ""


class Wire:
    """A PlayWire of plain values: ("update", batch, answered ids) and ("outcome", id, result)."""

    def __init__(self) -> None:
        self.decode = self.decode_action

    @staticmethod
    def decode_action(host: GameHost, action: Any) -> Any:
        return action

    @staticmethod
    def move(message: Move | str) -> Move:
        if not isinstance(message, Move):
            raise InvalidRequest("after `open`, Play messages must be `submit`", field="submit")
        return message

    @staticmethod
    async def update(batch: Batch) -> Batch:
        return batch

    @staticmethod
    def answered(update: Batch, answers: Sequence[Answer]) -> tuple[str, Batch, list[str]]:
        return ("update", update, [a.request_id for a in answers])

    @staticmethod
    def outcome(request_id: str, result: Outcome | Exception) -> tuple[str, str, Outcome | Exception]:
        return ("outcome", request_id, result)


class Client:
    """One Play stream as its client drives it: messages in, the session's items out."""

    def __init__(self, app: App, game_id: str, seat: Seat | None, caller: Principal | None) -> None:
        self.sent: asyncio.Queue[Move | str | None] = asyncio.Queue()
        session = PlaySession(app.games, game_id, seat, caller, Gate(), Wire())
        self.items = session.run(self._messages(), 0, "")

    async def _messages(self) -> AsyncIterator[Move | str]:
        while (message := await self.sent.get()) is not None:
            yield message

    async def send(self, message: Move | str) -> Any:
        """Send `message`, and return the next item of the stream."""
        self.sent.put_nowait(message)
        return await self.next()

    async def next(self) -> Any:
        return await asyncio.wait_for(anext(self.items), WAIT_S)


async def started_game(app: App, moves: int = 10) -> str:
    meta = await app.games.create("counter", 2, {"moves": str(moves)}, uuid.uuid4().hex)
    for seat in (0, 1):
        await app.games.join(meta.game_id, f"u{seat}", f"P{seat}", seat)
    return meta.game_id


def seat_token(game_id: str, seat: int) -> Principal:
    return Principal(f"u{seat}", f"P{seat}", game=game_id, seat=seat)


async def test_moves_bad_messages_and_refusals_in_one_order(app: App) -> None:
    game_id = await started_game(app)
    client = Client(app, game_id, Seat(0), seat_token(game_id, 0))
    try:
        tag, first, answered = await client.next()
        assert (tag, answered) == ("update", [])
        assert first.view is not None  # a full view opens the stream
        tag, update, answered = await client.send(Move(Add(1), "m1"))
        assert (tag, answered) == ("update", ["m1"])  # the update answers it: no outcome message follows
        assert update.version > first.version
        assert update.events  # the move's
        assert await client.send("hello") == ("outcome", "", _of(InvalidRequest))
        tag, request_id, refused = await client.send(Move(Add(1), "m2"))  # seat 1 is to act
        assert (tag, request_id) == ("outcome", "m2")
        assert isinstance(refused, Outcome)
        assert (refused.ok, refused.reason) == (False, NotYourTurn.reason)
        tag, request_id, error = await client.send(Move(Add(1), "m3", game="games/another"))
        assert (tag, request_id) == ("outcome", "m3")
        assert isinstance(error, InvalidRequest)
        assert error.metadata["field"] == "game"
    finally:
        await client.items.aclose()


async def test_a_spectator_may_not_act(app: App) -> None:
    game_id = await started_game(app)
    client = Client(app, game_id, None, None)
    try:
        await client.next()  # the spectator's view
        tag, request_id, error = await client.send(Move(Add(1), "x" * 200))
        assert tag == "outcome"
        assert request_id == "x" * 128  # a malformed id is echoed cut short
        assert isinstance(error, Unauthenticated)
    finally:
        await client.items.aclose()


async def test_the_stream_ends_with_its_game(app: App) -> None:
    game_id = await started_game(app, moves=1)
    client = Client(app, game_id, Seat(0), seat_token(game_id, 0))
    try:
        await client.next()
        tag, update, answered = await client.send(Move(Add(2), "last"))
        assert (tag, answered) == ("update", ["last"])
        if not update.finished:  # the end may come in an update of its own
            tag, update, answered = await client.next()
            assert update.finished
        with pytest.raises(StopAsyncIteration):
            await client.next()
    finally:
        await client.items.aclose()


class _of:  # noqa: N801 - reads as a value in an assertion
    """Equal to any instance of `cls`."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __eq__(self, other: object) -> bool:
        return isinstance(other, self.cls)

    def __hash__(self) -> int:
        return hash(self.cls)
