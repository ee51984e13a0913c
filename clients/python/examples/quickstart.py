"""Sign in, create a game, take both seats and play it to the end over Play; check the seed.

python quickstart.py [127.0.0.1:50051]
"""

from __future__ import annotations

import asyncio
import sys

from flotilla_client import FlotillaClient, Seat, check_commitment


async def play(client: FlotillaClient, seat: Seat) -> None:
    """Answer every prompt with its first legal action, over one Play stream."""
    stream = client.play(seat)
    async for response in stream:
        if response.HasField("outcome"):  # a refused action: e.g. another seat moved first
            print("refused:", response.outcome.status.message)
        elif response.update.HasField("prompt") and response.update.prompt.legal_actions:
            prompt = response.update.prompt
            stream.send(prompt.legal_actions[0], etag=prompt.etag)


async def main(target: str) -> None:
    async with FlotillaClient(target) as ada, FlotillaClient(target) as bob:
        await ada.sign_in("ada")
        await bob.sign_in("bob")
        game = await ada.create_game("sail_away", seats=2, options={"max_rounds": "2"})
        print("created", game.name, "seed commitment", game.seed_sha256)
        seats = [await ada.join(game.name), await bob.join(game.name)]
        await asyncio.gather(play(ada, seats[0]), play(bob, seats[1]))
        finished = await ada.get_game(game.name)
        print("scores", list(finished.result.scores))
        check_commitment(await ada.record(game.name), game.seed_sha256)  # raises VerificationFailed if not
        print("seed verified")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"))
