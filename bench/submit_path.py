"""The app's CPU per submitted move without Redis: `submit_move` (the game's host, the action
decoded, `Games.submit`, `_queue`: its deadline, the enqueue, the wait for the outcome) over a
store that accepts every move at once, as the followed feed would answer it. Sequential moves of
one counter game, this process's CPU (`time.process_time`) per move, the best of the rounds.

    python bench/submit_path.py [--moves 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from flotilla.api.counter.v1 import counter_pb2  # noqa: E402
from flotilla.api.game.v1 import game_pb2, game_service_pb2  # noqa: E402
from flotilla.app.games import Games  # noqa: E402
from flotilla.app.host import GameHost, host_for  # noqa: E402
from flotilla.app.inbox import Inbox  # noqa: E402
from flotilla.app.limits import Gate  # noqa: E402
from flotilla.app.moves import submit_move  # noqa: E402
from flotilla.app.outcome import Outcome  # noqa: E402
from flotilla.cli import run_service  # noqa: E402
from flotilla.gateway.render import Renderer  # noqa: E402
from flotilla.rules import Seat  # noqa: E402

GAME = "a" * 32
ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))


class AcceptingStore:
    """Accepts every enqueued move in the next loop turn (Inbox.resolve, as `Games.answer` does)."""

    wait_replicas = 0
    inbox: Inbox

    async def enqueue(self, stream: str, fields: Mapping[str, Any], gate: Sequence[Any] = ()) -> None:
        request = (str(fields["g"]), int(fields["s"]), str(fields["r"]))
        outcome = Outcome(True, 2, lineage="l", game=request[0], seat=request[1], announced=True)
        asyncio.get_running_loop().call_soon(self.inbox.resolve, request, outcome)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    store = AcceptingStore()
    store.inbox = Inbox(store)  # type: ignore[arg-type]
    games = Games(store, store.inbox, None, shards=4, submit_timeout_s=10, heartbeat_s=10)  # type: ignore[arg-type]
    games._kinds[GAME] = ("counter", host_for("counter").rules.version)
    renderer = Renderer()

    def decode(host: GameHost, action: Any) -> Any:
        return renderer.action_from_pb(host, action)

    best = float("inf")
    for _ in range(args.rounds):
        moves = [
            game_service_pb2.SubmitActionRequest(game=f"games/{GAME}", request_id=f"r{n}", action=ADD)
            for n in range(args.moves)
        ]
        started = time.process_time()
        for move in moves:
            await submit_move(games, GAME, Seat(0), move, decode, Gate(), request_id=move.request_id, follows=True)
        best = min(best, (time.process_time() - started) / args.moves * 1e6)
    print(f'{{"app_cpu_us_per_move": {best:.1f}}}')


if __name__ == "__main__":
    run_service(main())  # on uvloop, as the gateway runs
