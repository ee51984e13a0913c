"""OpenSpiel's ISMCTS bot as a seat of a real Flotilla game over gRPC; a random bot takes the other.

python examples/openspiel_ismcts.py [127.0.0.1:50051] [kind] [simulations] [key=value ...]

The ISMCTS seat sees only what its seat may see: at each prompt it rebuilds a world from its view
(`GameRules.from_view`) and searches from there (flotilla.openspiel.seat). Needs the openspiel
extra (`pip install 'flotilla[openspiel]'`) and a game whose rules have `from_view`.
"""

from __future__ import annotations

import asyncio
import random
import sys

from flotilla.api.game.v1 import game_pb2
from flotilla.openspiel.seat import ismcts, play_seat
from flotilla_client import FlotillaClient, play_random


async def main(target: str, kind: str = "counter", simulations: str = "20", *options: str) -> None:
    opts = dict(o.split("=", 1) for o in options) if options else ({"moves": "12"} if kind == "counter" else {})
    async with FlotillaClient(target) as host, FlotillaClient(target) as other:
        await host.sign_in("ismcts-bot")
        await other.sign_in("random-bot")
        game = (await host.create_game(kind, seats=2, options=opts)).name
        mine = await host.join(game)
        theirs = await other.join(game)
        decisions, _ = await asyncio.gather(
            play_seat(host, mine, ismcts(int(simulations), seed=1), random.Random(1)),
            play_random(other, theirs, random.Random(2)),
        )
        final = await host.get_game(game)
    state = game_pb2.GameState.Name(final.state)
    print(f"openspiel seat made {decisions} decisions; {state}, winners {list(final.result.winners)}")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]) if len(sys.argv) > 1 else main("127.0.0.1:50051"))
