"""Authorization of the game API without the wire (app/authorize.py): who acts, whose view is
read, private games' join codes, and when a stream ends."""

from __future__ import annotations

import time
import uuid

import pytest

from app.app_support import App
from flotilla.app.authorize import StreamGuard, acting_seat
from flotilla.app.errors import (
    NotSeated,
    RateLimited,
    SeatTokenRequired,
    TokenExpired,
    TokenRevoked,
    Unauthenticated,
    WrongJoinCode,
)
from flotilla.app.host import host_for
from flotilla.app.watching import Batch
from flotilla.identity.principal import Principal
from flotilla.rules import Seat

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

CODE = "K7MQ2XWD"


def seat_token(game_id: str, seat: int, user: str = "u0") -> Principal:
    return Principal(user, "Ann", game=game_id, seat=seat)


async def new_game(app: App, private_code: str = "") -> str:
    meta = await app.games.create("counter", 2, {}, uuid.uuid4().hex, private_code=private_code)
    return meta.game_id


class Addresses:
    """An address the app may ask for, counting how often it did."""

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self) -> str:
        self.asked += 1
        return "203.0.113.7"


def test_only_the_seats_own_token_acts() -> None:
    with pytest.raises(Unauthenticated):
        acting_seat(None, "g1")
    with pytest.raises(SeatTokenRequired):
        acting_seat(Principal("u0", "Ann"), "g1")  # a session token only reads
    with pytest.raises(NotSeated):
        acting_seat(seat_token("g2", 0), "g1")
    assert acting_seat(seat_token("g1", 1), "g1") == Seat(1)


async def test_whose_view_a_caller_reads(app: App) -> None:
    game_id = await new_game(app)
    seat, _meta = await app.games.join(game_id, "u0", "Ann", None)
    session = Principal("u0", "Ann")
    assert await app.access.viewing_seat(session, game_id) == seat  # the seat its user holds
    assert await app.access.viewing_seat(Principal("u9", "Bo"), game_id) is None  # a spectator
    assert await app.access.viewing_seat(None, game_id) is None
    assert await app.access.viewing_seat(seat_token(game_id, seat), game_id) == seat
    with pytest.raises(NotSeated):
        await app.access.viewing_seat(seat_token("other", seat), game_id)
    await app.auth.revoke_seat(game_id, seat, 60)  # the seat left
    with pytest.raises(TokenRevoked):
        await app.access.viewing_seat(seat_token(game_id, seat), game_id)
    assert await app.access.viewing_seat(session, game_id) is None  # a spectator now


async def test_a_private_game_shows_itself_with_its_code(app: App) -> None:
    game_id = await new_game(app, private_code=CODE)
    spectator = Principal(f"u-{uuid.uuid4().hex[:8]}", "Bo")
    addresses = Addresses()
    with pytest.raises(WrongJoinCode):
        await app.access.viewer(spectator, game_id, "", addresses)
    assert addresses.asked == 0  # no code: no guess, no address needed
    with pytest.raises(WrongJoinCode):
        await app.access.viewer(spectator, game_id, "AAAAAAAA", addresses)
    assert await app.access.viewer(spectator, game_id, "k7mq-2xwd", addresses) is None  # as typed
    assert addresses.asked == 2  # each code shown was a guess from this address
    public = await new_game(app)
    assert await app.access.viewer(spectator, public, "", addresses) is None
    meta = await app.games.meta(game_id)
    seat, _ = await app.games.join(game_id, spectator.user, spectator.name, None)
    await app.access.shown(spectator, meta, "", addresses)  # a player needs no code
    assert await app.access.viewer(spectator, game_id, "", addresses) == seat


async def test_wrong_codes_lock_the_guesser_out(app: App) -> None:
    game_id = await new_game(app, private_code=CODE)
    guesser = Principal(f"u-{uuid.uuid4().hex[:8]}", "Eve")
    burst = app.limiter.rows["code_guess_per_user"].burst
    for _ in range(int(burst)):
        with pytest.raises(WrongJoinCode):
            await app.access.viewer(guesser, game_id, "AAAAAAAA", Addresses())
    with pytest.raises(RateLimited):  # locked: refused whatever its code
        await app.access.viewer(guesser, game_id, CODE, Addresses())


def test_a_stream_ends_with_its_token_or_its_seat() -> None:
    batch = Batch(host_for("counter"), 1)
    expired = Principal("u0", "Ann", expires=time.time() - 1)
    with pytest.raises(TokenExpired):
        StreamGuard(expired, None).check(batch)
    StreamGuard(None, None).check(batch)  # anonymous: nothing expires
    StreamGuard(Principal("u0", "Ann"), None).check(batch)
