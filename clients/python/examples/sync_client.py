"""The blocking client: the same calls without asyncio (scripts, notebooks, threads).

python sync_client.py [127.0.0.1:50051]
"""

from __future__ import annotations

import sys
import threading

from flotilla.api.game.v1 import game_pb2
from flotilla_client import FlotillaError, FlotillaSyncClient, Seat
from flotilla_client.bots import LOST_RACE


def play(client: FlotillaSyncClient, seat: Seat) -> None:
    """Watch the game as `seat` and answer every prompt with its first legal action."""
    for update in client.watch(seat.game, seat):
        if update.HasField("prompt") and update.prompt.legal_actions:
            try:
                client.submit(seat.game, seat, update.prompt.legal_actions[0], etag=update.prompt.etag)
            except FlotillaError as error:
                if error.reason not in LOST_RACE:  # another seat moved first: the next prompt decides
                    raise


def main(target: str) -> None:
    with FlotillaSyncClient(target) as ada, FlotillaSyncClient(target) as bob:
        ada.sign_in("ada")
        bob.sign_in("bob")
        game = ada.create_game("sail_away", seats=2, options={"max_rounds": "2"})
        seats = [ada.join(game.name), bob.join(game.name)]
        players = [threading.Thread(target=play, args=(bob, seats[1]))]  # bob in a thread, ada here
        players[0].start()
        play(ada, seats[0])
        players[0].join()
        finished = ada.get_game(game.name).state == game_pb2.GAME_STATE_FINISHED
        print("finished:", finished, "moves:", len(ada.record(game.name).actions))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051")
