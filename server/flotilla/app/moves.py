"""Submitting one move as the wire carries it: its deadline, the action decoded for the game's
rules, the queueing (`Games.submit`). SubmitAction and every Play submission go through here."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import structlog

from flotilla.app.games import Games, check_request_id
from flotilla.app.host import GameHost
from flotilla.app.limits import Gate
from flotilla.app.outcome import Outcome
from flotilla.rules import Seat

A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)


class MoveRequest(Protocol[A_co]):
    """One submission as the wire carries it (the API's SubmitActionRequest is one): the app reads
    these fields and hands `action` back to the wire's decoder once it knows the game's rules."""

    @property
    def game(self) -> str: ...
    @property
    def request_id(self) -> str: ...
    @property
    def etag(self) -> str: ...
    @property
    def action(self) -> A_co: ...


Decode = Callable[[GameHost, A], Any]
"""The wire's action decoder: the rules action of `action` for the game's rules (InvalidAction,
InvalidRequest when it is too large or malformed)."""


async def submit_move(
    games: Games,
    game_id: str,
    seat: Seat,
    move: MoveRequest[A],
    decode: Decode[A],
    gate: Gate,
    deadline_s: float | None = None,
    *,
    request_id: str | None = None,
    follows: bool = False,
) -> tuple[GameHost, Outcome]:
    """Queue the move and wait for its outcome (accepted or refused by the rules): all of it within
    FLOTILLA_SUBMIT_TIMEOUT (or the client's `deadline_s`, if shorter), the game's record read first
    included (a Redis cut off never answers it), else TimeoutError (DEADLINE_EXCEEDED: retried with
    the same request id). `request_id`: the move's, checked already (else checked here)."""
    bound = games.submit_timeout_s if deadline_s is None else min(deadline_s, games.submit_timeout_s)
    started = time.monotonic()
    host = games.known_host(game_id)
    if host is None:
        async with asyncio.timeout(bound):
            host = await games.host(game_id)
    action = decode(host, move.action)
    request_id = request_id or check_request_id(move.request_id)
    structlog.contextvars.bind_contextvars(seat=int(seat), request_id=request_id)  # game: the interceptor
    outcome = await games.submit(
        game_id,
        seat,
        action,
        etag=move.etag,
        request_id=request_id,
        timeout_s=bound - (time.monotonic() - started),
        gate=gate,
        follows=follows,
    )
    return host, outcome
