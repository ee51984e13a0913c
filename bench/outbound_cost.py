"""The gateway's outbound cost per move, in-process (issue 26): what one gateway does for a commit
when every seat of the game has a Play stream on it — the entry decoded as the feed reads it,
each seat's watcher moved on, and each seat's update rendered and serialized as Play sends it.

Two paths in this tree, alternately, each on fresh games (so every event is rendered anew, as
in a running gateway; the text caches stay warm): `message`, the update built as protobuf
messages (`Renderer.watch_response`, wrapped in a PlayResponse, serialized), and `bytes`, the
streams' path (gateway/update_bytes.py). Prints the fastest of `--rounds` runs of each, in µs of
CPU per move (all seats), and their ratio.

    python bench/outbound_cost.py [--kinds counter,sail_away,port_royal] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from flotilla.api.game.v1 import game_service_pb2
from flotilla.app.host import GameHost, host_for
from flotilla.app.pacing import Budget
from flotilla.app.watching import Batch, Watcher
from flotilla.gateway.render import Renderer
from flotilla.gateway.update_bytes import UpdateWire, play_update
from flotilla.records import Entry
from flotilla.rules import Seat

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from stored_games import stored_fields


async def _no_view() -> Batch:
    raise AssertionError("not used")


def per_move(host: GameHost, seats: int, fields: list[dict[bytes, bytes]], path: str, games: int) -> float:
    """µs of CPU per move for `games` fresh games (ids) of the same moves."""
    renderer = Renderer()
    wire = UpdateWire(renderer)
    moves, start = 0, time.process_time()
    for g in range(games):
        game_id, first = f"g{g}", Entry.decode(fields[0])
        watchers = []
        for seat in range(seats):
            w = Watcher(None, host, game_id, Seat(seat), _no_view, 10.0, Budget())  # type: ignore[arg-type]
            w.version, w.lineage, w.at, w.to_act = first.version, first.lineage, first, tuple(first.to_act)
            watchers.append(w)
        for stored in fields[1:]:
            moves += 1
            entry = Entry.decode(stored)
            for seat, w in enumerate(watchers):
                for batch in w.advance([entry])[0]:
                    send(renderer, wire, path, game_id, batch, Seat(seat))
    return (time.process_time() - start) / moves * 1e6


def send(renderer: Renderer, wire: UpdateWire, path: str, game_id: str, batch: Batch, seat: Seat) -> Any:
    if path == "bytes":
        return play_update(wire.update(game_id, batch, seat), batch.answers)
    msg = renderer.watch_response(game_id, batch, seat)
    msg.answered_request_ids.extend(a.request_id for a in batch.answers)
    return game_service_pb2.PlayResponse(update=msg).SerializeToString()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", default="counter,sail_away,port_royal")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print("| game | seats | message µs/move | bytes µs/move | bytes ÷ message |\n|---|---:|---:|---:|---:|")
    for kind in args.kinds.split(","):
        host = host_for(kind)
        seats = 2 if kind == "counter" else 3
        fields = stored_fields(host, seats, 150, seed=3)
        best = {"message": float("inf"), "bytes": float("inf")}
        for _ in range(args.rounds):
            for path in ("message", "bytes"):
                best[path] = min(best[path], per_move(host, seats, fields, path, args.games))
        ratio = best["bytes"] / best["message"]
        print(f"| {kind} | {seats} | {best['message']:.1f} | {best['bytes']:.1f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
