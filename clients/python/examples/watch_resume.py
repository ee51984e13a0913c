"""Watch a game as a spectator, stop, and resume from the last etag (on any gateway): every
event arrives exactly once. `watch` also does this by itself after a disconnect.

python watch_resume.py [127.0.0.1:50051]
"""

from __future__ import annotations

import asyncio
import sys

from flotilla_client import FlotillaClient, play_random


async def main(target: str) -> None:
    players = [FlotillaClient(target), FlotillaClient(target)]
    async with players[0], players[1], FlotillaClient(target) as spectator:
        for i, player in enumerate(players):
            await player.sign_in(f"player-{i}")
        game = await players[0].create_game("sail_away", seats=2, options={"max_rounds": "2"})
        seats = [await player.join(game.name) for player in players]
        bots = asyncio.gather(*(play_random(player, seat) for player, seat in zip(players, seats, strict=True)))
        seen: list[int] = []
        etag = ""
        async for update in spectator.watch(game.name):  # no seat: the public view
            seen += [event.event_id for event in update.events]
            etag = update.etag
            if len(seen) >= 3:
                break  # e.g. the app went to the background
        async for update in spectator.watch(game.name, after_etag=etag):  # resumes after the last one seen
            if update.HasField("view") and update.resync_reason:
                seen.clear()  # the history moved under us: start over from this full view
            seen += [event.event_id for event in update.events]
        await bots
        assert seen == list(range(seen[0], seen[0] + len(seen))), "gapless, each event once"
        print("saw events", seen[0], "to", seen[-1])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"))
