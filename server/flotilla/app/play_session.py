"""The Play session: one stream's game updates and the answers to its submissions, in one order.

A Play stream opens on a game (the edge checks the caller and finds its seat first), then carries
the caller's submissions one after another while the game's updates flow the other way. Two tasks
feed one bounded queue (`PLAY_QUEUE`: the watch waits while the client is not reading, and flow
control reaches the store reads): the watch puts each update, listing the stream's submissions it
answers, and only then resolves them (the update tells the client first); the submitter answers
each submission with an outcome message — none for an accepted one that an update announced
already. An error of one submission becomes its outcome's status and the stream goes on. When the
game ends, a submission still in flight is answered (within the submit timeout), then the stream
closes; what ended the watch otherwise ends the stream.

The session speaks no wire: a `PlayWire` (the gateway's) reads the submissions and builds the
messages, so the app's rules (who may act, the deadline, the ordering) stay here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Generic, Protocol, TypeVar

from flotilla import metrics
from flotilla.app.authorize import Caller, StreamGuard, acting_seat
from flotilla.app.errors import InvalidRequest, TokenExpired
from flotilla.app.games import Games, check_request_id
from flotilla.app.limits import Gate
from flotilla.app.moves import Decode, MoveRequest, submit_move
from flotilla.app.outcome import Outcome
from flotilla.app.watching import Answer, Batch
from flotilla.rules import Seat

PLAY_QUEUE = 8  # Play responses waiting for the transport, per stream

R_contra = TypeVar("R_contra", contravariant=True)  # a request message
U = TypeVar("U")  # an update as rendered for the stream's viewer
T = TypeVar("T")  # a response message
T_co = TypeVar("T_co", covariant=True)
A = TypeVar("A")  # a submission's action as the wire carries it
R = TypeVar("R")


class PlayWire(Protocol[R_contra, U, T_co, A]):
    """The messages of one Play stream (the gateway's side of the session)."""

    @property
    def decode(self) -> Decode[A]:
        """The rules action of a submission's action (app/moves.py)."""
        ...

    def move(self, message: R_contra) -> MoveRequest[A]:
        """The submission a message after `open` carries; InvalidRequest when it carries none."""
        ...

    async def update(self, batch: Batch) -> U:
        """`batch` rendered for the stream's viewer (a catch-up's within the catch-up budget)."""
        ...

    def answered(self, update: U, answers: Sequence[Answer]) -> T_co:
        """The message of `update`, naming the submissions of this stream it answers."""
        ...

    def outcome(self, request_id: str, result: Outcome | Exception) -> T_co:
        """The outcome message of one submission: accepted, refused by the rules, or failed."""
        ...


class PlaySession(Generic[R, U, T, A]):
    """One Play stream of `caller` on a game, read as `seat` (None: a spectator, who may not act)."""

    def __init__(
        self,
        games: Games,
        game_id: str,
        seat: Seat | None,
        caller: Caller | None,
        gate: Gate,
        wire: PlayWire[R, U, T, A],
    ) -> None:
        self.games = games
        self.game_id = game_id
        self.name = f"games/{game_id}"
        self.seat = seat
        self.caller = caller
        self.gate = gate  # the submit buckets of this caller (app/limits.py)
        self.wire = wire
        self.decode = wire.decode
        self.out: asyncio.Queue[T | None] = asyncio.Queue(PLAY_QUEUE)
        self.idle = asyncio.Event()  # no submission in flight
        self.idle.set()
        self.waiting: set[str] = set()  # request ids submitted on this stream and not answered yet

    async def run(self, requests: AsyncIterator[R], after: int, after_etag: str) -> AsyncGenerator[T]:
        """The stream's messages, from a full view (`after` 0) or a resume point, until the game ends."""
        watcher = asyncio.create_task(self._watch(after, after_etag))
        submitter = asyncio.create_task(self._submits(requests))
        metrics.OPEN_STREAMS.labels("Play").inc()
        try:
            while True:
                item = await self.out.get()
                if item is not None:
                    yield item
                    continue
                watcher.result()  # re-raises what ended the watch
                # The game is over: answer a submission still in flight, then close.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.idle.wait(), self.games.submit_timeout_s)
                while not self.out.empty():
                    rest = self.out.get_nowait()
                    if rest is not None:
                        yield rest
                return
        finally:
            metrics.OPEN_STREAMS.labels("Play").dec()
            for task in (watcher, submitter):
                task.cancel()
            for task in (watcher, submitter):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _watch(self, after: int, after_etag: str) -> None:
        seat, waiting, guard = self.seat, self.waiting, StreamGuard(self.caller, self.seat)
        try:
            async for batch in self.games.watch(self.game_id, seat, after, after_etag):
                guard.check(batch)
                update = await self.wire.update(batch)
                mine = [a for a in batch.answers if a.seat == seat and a.request_id in waiting]
                await self.out.put(self.wire.answered(update, mine))
                self.games.answer(self.game_id, mine)  # after the update: it tells the client first
                if batch.view is not None and waiting and seat is not None:
                    await self.games.answer_from_store(self.game_id, seat, sorted(waiting))
        finally:
            await self.out.put(None)

    async def _submits(self, requests: AsyncIterator[R]) -> None:
        async for message in requests:
            try:
                move = self.wire.move(message)
            except InvalidRequest as error:
                await self.out.put(self.wire.outcome("", error))
                continue
            self.idle.clear()
            try:
                outcome = await self._answer(move)
                if outcome is not None:
                    await self.out.put(outcome)
            finally:
                self.idle.set()

    async def _answer(self, move: MoveRequest[A]) -> T | None:
        """One submission's outcome message; errors become its status. None when the update that
        carries the action's events answered it (`waiting`: the ids in flight)."""
        try:
            if move.game and move.game != self.name:
                raise InvalidRequest("a Play stream acts on the game it was opened for", field="game")
            if self.caller is not None and self.caller.expires <= time.time():
                raise TokenExpired("the token this stream was opened with expired; reopen it with a refreshed one")
            seat = acting_seat(self.caller, self.game_id)
            request_id = check_request_id(move.request_id)
            self.waiting.add(request_id)
            try:
                _host, outcome = await submit_move(
                    self.games, self.game_id, seat, move, self.decode, self.gate, request_id=request_id, follows=True
                )
            finally:
                self.waiting.discard(request_id)
        except Exception as exc:
            return self.wire.outcome(move.request_id[:128], exc)  # valid ids are shorter
        if not outcome.ok:
            return self.wire.outcome(move.request_id[:128], outcome)
        if outcome.announced:
            return None
        return self.wire.outcome(request_id, outcome)
