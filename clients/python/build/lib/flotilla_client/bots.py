"""A random bot: a few lines of SDK code that play any game to the end (async and blocking)."""

from __future__ import annotations

import random

from flotilla_client.api.game.v1 import game_pb2
from flotilla_client.api.game.v1 import game_service_pb2 as g
from flotilla_client.client import FlotillaClient
from flotilla_client.errors import FlotillaError
from flotilla_client.seat import Seat
from flotilla_client.sync import FlotillaSyncClient

SEAT_ABSENT = "ERROR_REASON_SEAT_ABSENT"  # timed out too often: the server plays the seat from now on
LOST_RACE = ("ERROR_REASON_STALE_GAME_VERSION", "ERROR_REASON_NOT_YOUR_TURN")  # someone moved first


def pick(update: g.WatchGameResponse, rng: random.Random) -> game_pb2.Action | None:
    """A uniformly random legal action when `update` prompts for one."""
    if update.HasField("prompt") and update.prompt.legal_actions:
        return rng.choice(list(update.prompt.legal_actions))
    return None


def keep_playing(error: FlotillaError) -> bool:
    """After a refused move: False when the seat is absent (stop), True when another seat moved
    first (simultaneous seats: the next prompt decides); anything else is re-raised."""
    if error.reason == SEAT_ABSENT:
        return False
    if error.reason in LOST_RACE:
        return True
    raise error


async def play_random(
    client: FlotillaClient, seat: Seat, rng: random.Random | None = None
) -> g.WatchGameResponse | None:
    """Play uniformly random legal actions for `seat` until the game ends (or the seat is absent: the
    server plays it then); returns the last update."""
    rng = rng or random.Random()
    last = None
    async for update in client.watch(seat.game, seat):
        last = update
        if (action := pick(update, rng)) is not None:
            try:
                await client.submit(seat.game, seat, action, etag=update.prompt.etag)
            except FlotillaError as error:
                if not keep_playing(error):
                    return last
    return last


def play_random_sync(
    client: FlotillaSyncClient, seat: Seat, rng: random.Random | None = None
) -> g.WatchGameResponse | None:
    """`play_random`, blocking."""
    rng = rng or random.Random()
    last = None
    for update in client.watch(seat.game, seat):
        last = update
        if (action := pick(update, rng)) is not None:
            try:
                client.submit(seat.game, seat, action, etag=update.prompt.etag)
            except FlotillaError as error:
                if not keep_playing(error):
                    return last
    return last
