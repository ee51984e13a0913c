"""A random bot: plays any game to the end (async on the bot framework, and blocking)."""

from __future__ import annotations

import random

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.bot import LOST_RACE, SEAT_ABSENT, keep_playing, run_bot
from flotilla_client.client import FlotillaClient
from flotilla_client.errors import FlotillaError
from flotilla_client.seat import Seat
from flotilla_client.sync import FlotillaSyncClient

__all__ = ["LOST_RACE", "SEAT_ABSENT", "RandomBot", "keep_playing", "pick", "play_random", "play_random_sync"]


def pick(update: g.WatchGameResponse, rng: random.Random) -> game_pb2.Action | None:
    """A uniformly random legal action when `update` prompts for one."""
    if update.HasField("prompt") and update.prompt.legal_actions:
        return rng.choice(list(update.prompt.legal_actions))
    return None


class RandomBot:
    """Uniformly random legal actions (needs no view: no GetView per decision)."""

    needs_view = False

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    async def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        return self.rng.choice(list(prompt.legal_actions))


async def play_random(
    client: FlotillaClient, seat: Seat, rng: random.Random | None = None
) -> g.WatchGameResponse | None:
    """Play uniformly random legal actions for `seat` until the game ends (or the seat is absent: the
    server plays it then); returns the last update."""
    return (await run_bot(client, seat, RandomBot(rng))).last


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
