"""Who may act on a game and whose view a caller reads: the authorization of the game API.

The edge verifies the caller's token (identity/) and hands the app its `Caller`; everything
decided from it lives here. A **seat token** acts for its seat of its game and reads that seat's
view (refused once the seat left: its tokens are revoked); a **session token** only reads, the
seat its user holds or as a spectator. A private room's game shows itself to a spectator only
with the room's join code, and checking one is a guess against the `code_guess` limits
(app/limits.py: a wrong code counts; a locked caller is refused whatever its code). A stream
opened with a token ends when the token expires, and a seat token's stream once its seat left
(`StreamGuard`). docs/security.md sections 2 and 3 say why.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from flotilla.app import join_codes
from flotilla.app.errors import NotSeated, SeatTokenRequired, TokenExpired, TokenRevoked, Unauthenticated, WrongJoinCode
from flotilla.app.games import Games, still_seated
from flotilla.app.host_events import ABSENT, LEFT
from flotilla.app.limits import Limiter
from flotilla.app.watching import Batch
from flotilla.rules import Seat
from flotilla.store.auth_store import AuthStore
from flotilla.store.meta import GameMeta
from flotilla.store.protocol import Store

Address = Callable[[], str]
"""The caller's client address, asked for only when a join code is checked (it costs a parse)."""


class Caller(Protocol):
    """The verified caller as the app sees it (identity/principal.py's `Principal` is one)."""

    @property
    def user(self) -> str: ...
    @property
    def game(self) -> str | None: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def expires(self) -> float: ...
    @property
    def is_seat(self) -> bool: ...


def acting_seat(caller: Caller | None, game_id: str) -> Seat:
    """The seat a call acts for: only that seat's token may act (a session token only reads)."""
    if caller is None:
        raise Unauthenticated("acting needs a seat token: 'authorization: Bearer <seat_token>'")
    if caller.game is None or caller.seat is None:
        raise SeatTokenRequired(
            "acting needs this seat's token (JoinGame's seat_token); a session token only reads",
            game=f"games/{game_id}",
        )
    if caller.game != game_id:
        raise NotSeated(f"this seat token is for games/{caller.game}", game=f"games/{game_id}")
    return Seat(caller.seat)


class StreamGuard:
    """Ends a stream once the token it was opened with expires (resume it with a refreshed one), and a
    seat token's stream after the batch that tells its seat left (its tokens are revoked)."""

    __slots__ = ("caller", "left", "seat")

    def __init__(self, caller: Caller | None, seat: Seat | None) -> None:
        self.caller = caller
        self.seat = seat if caller is not None and caller.is_seat else None
        self.left = False

    def check(self, batch: Batch) -> None:
        """Before sending `batch`."""
        if self.caller is not None and self.caller.expires <= time.time():
            raise TokenExpired("the token this stream was opened with expired; resume with a refreshed token")
        if self.left:
            raise TokenRevoked("this seat left the game: its tokens are revoked")
        if self.seat is not None:
            self.left = any(
                row.tag == ABSENT and row.payload.get("seat") == self.seat and row.payload.get("reason") == LEFT
                for row in batch.events
            )


@contextlib.asynccontextmanager
async def guessing(limiter: Limiter, user: str | None, code: str, address: Address) -> AsyncIterator[None]:
    """The block checks join `code` (if any) for this user from this address: a wrong one counts
    against the code_guess limits, and a locked subject is refused before the check
    (Limiter.guessing). An empty code guesses nothing and costs nothing."""
    if not code:
        yield
        return
    async with limiter.guessing(user, address()):
        yield


class Access:
    """Reading rights on games: whose view a caller reads, and private games' join codes."""

    def __init__(self, games: Games, auth: AuthStore, limiter: Limiter) -> None:
        self.games = games
        self.auth = auth
        self.limiter = limiter

    async def viewing_seat(self, caller: Caller | None, game_id: str) -> Seat | None:
        """The seat whose view the caller reads (None: spectator). A seat token reads its seat (refused
        once the seat left: its tokens are revoked); a session token reads the seat its user holds."""
        if caller is None:
            return None
        if caller.game is not None and caller.seat is not None:
            if caller.game != game_id:
                raise NotSeated(f"this seat token is for games/{caller.game}", game=f"games/{game_id}")
            if await self.auth.seat_revoked(game_id, caller.seat):
                raise TokenRevoked("this seat left the game: its tokens are revoked", game=f"games/{game_id}")
            return Seat(caller.seat)
        seat = await self.games.seat_of(game_id, caller.user)
        if seat is not None and await self.auth.seat_revoked(game_id, seat):
            return None  # the user left that seat: a spectator now
        return seat

    async def viewer(self, caller: Caller | None, game_id: str, join_code: str, address: Address) -> Seat | None:
        """The caller's seat, or None for a spectator; a private room's game needs its join code."""
        seat = await self.viewing_seat(caller, game_id)
        if seat is None:
            await self.check_code(caller, await self.games.meta(game_id), join_code, address)
        return seat

    async def shown(self, caller: Caller | None, meta: GameMeta, join_code: str, address: Address) -> None:
        """Refuse a private room's game to a caller without a seat in it or the room's code."""
        if meta.private_code and await self.viewing_seat(caller, meta.game_id) is None:
            await self.check_code(caller, meta, join_code, address)

    async def check_code(self, caller: Caller | None, meta: GameMeta, join_code: str, address: Address) -> None:
        """A spectator of a private room's game shows the room's code; a wrong one counts against
        the code_guess limits (a locked caller is refused whatever its code)."""
        if not meta.private_code:
            return
        async with guessing(self.limiter, caller.user if caller else None, join_code, address):
            if not join_codes.matches(join_code, meta.private_code):
                raise WrongJoinCode("this game is private: show its room's join code", game=f"games/{meta.game_id}")


async def seat_kept(store: Store, auth: AuthStore, game_id: str, seat: int, user: str) -> None:
    """Refuse a seat token's refresh unless its user still holds the seat: not left (TokenRevoked),
    taken and not absent (app/games.py `still_seated`)."""
    if await auth.seat_revoked(game_id, seat):
        raise TokenRevoked("this seat left the game: its tokens are revoked", game=f"games/{game_id}")
    await still_seated(store, game_id, seat, user)
