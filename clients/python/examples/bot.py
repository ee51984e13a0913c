"""A bot loop: take a seat in a game and play random legal moves to the end. Without a game id,
it makes one and a second bot (another user) takes the other seat.

python bot.py [127.0.0.1:50051] [games/<id>]
"""

from __future__ import annotations

import asyncio
import random
import sys

from flotilla_client import FlotillaClient, FlotillaError, play_random


async def bot(target: str, name: str, game: str) -> int:
    """Sign in as `name`, take a seat in `game`, play it out; the last event id seen."""
    async with FlotillaClient(target) as client:
        await client.sign_in(name)
        seat = await client.join(game)
        try:
            last = await play_random(client, seat, random.Random(name))
        except FlotillaError as error:  # code, message, reason: e.g. UNAVAILABLE after every retry
            print("gave up:", error.code.name, error.reason, error.message)
            raise
        return last.through_event_id if last else 0


async def main(target: str, game: str = "") -> None:
    if game:
        print("game over at event", await bot(target, "random-bot", game))
        return
    async with FlotillaClient(target) as host:
        await host.sign_in("host")
        game = (await host.create_game("sail_away", seats=2, options={"max_rounds": "2"})).name
    ends = await asyncio.gather(bot(target, "bot-1", game), bot(target, "bot-2", game))
    print("game over at event", max(ends))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:3]) if len(sys.argv) > 1 else main("127.0.0.1:50051"))
