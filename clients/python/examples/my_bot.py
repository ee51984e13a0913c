"""A bot of your own: `choose(view, prompt)` returns one of the prompt's legal actions (sync or
async); `run_bot` plays a seat with it over a Play stream until the game ends.

python my_bot.py [127.0.0.1:50051]
"""

from __future__ import annotations

import asyncio
import logging
import sys

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaClient, RandomBot, run_bot


def choose(view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
    """Your evaluation goes here; this one takes the action with the longest description."""
    labels = [text.label for text in prompt.legal_action_texts]
    return prompt.legal_actions[labels.index(max(labels, key=len))]


async def main(target: str) -> None:
    logging.basicConfig(level=logging.INFO)  # the framework logs each fallback (DEBUG: every decision)
    async with FlotillaClient(target) as me, FlotillaClient(target) as rival:
        await me.sign_in("my-bot")
        await rival.sign_in("rival")
        game = await me.create_game("sail_away", seats=2, options={"max_rounds": "2"})
        seats = await me.join(game.name), await rival.join(game.name)
        mine, _ = await asyncio.gather(run_bot(me, seats[0], choose), run_bot(rival, seats[1], RandomBot()))
        print(f"my bot: {mine.decisions} decisions, {mine.fallbacks} fallbacks")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"))
