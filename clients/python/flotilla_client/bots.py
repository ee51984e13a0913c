"""A random bot: a few lines of SDK code that play any game to the end."""

from __future__ import annotations

import random

from flotilla.api.game.v1 import game_service_pb2
from flotilla_client.client import FlotillaClient, FlotillaError, Seat


async def play_random(
    client: FlotillaClient, seat: Seat, rng: random.Random | None = None
) -> game_service_pb2.WatchGameResponse | None:
    """Play uniformly random legal actions for `seat` until the game ends (or the seat is absent: the
    server plays it then); returns the last update."""
    rng = rng or random.Random()
    last = None
    async for update in client.watch(seat.game, seat):
        last = update
        if update.HasField("prompt") and update.prompt.legal_actions:
            action = rng.choice(list(update.prompt.legal_actions))
            try:
                await client.submit(seat.game, seat, action, etag=update.prompt.etag)
            except FlotillaError as error:  # someone moved first (simultaneous seats): the next prompt decides
                if error.reason == "ERROR_REASON_SEAT_ABSENT":
                    return last  # timed out too often: the server plays the seat from now on
                if error.reason not in ("ERROR_REASON_STALE_GAME_VERSION", "ERROR_REASON_NOT_YOUR_TURN"):
                    raise
    return last
