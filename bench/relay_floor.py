"""The floor under the gateway: what Python grpc.aio alone costs per move in Flotilla's `Play` shape.

Each of M games has two seats, each seat one bidirectional stream. A move is one request from the
mover (a ~40-byte message) and one update to each seat's stream (a ~300-byte message, about a
counter-game `WatchGameResponse`), relayed through an asyncio queue per stream as the gateway does.
No Redis, no rules, no rendering, no checks: the server only relays. The next mover answers the
instant its update arrives, as `bench/load.py` does.

Run the server on one core and the load on the other (`--pin`, as `run_e2e.py --pin`):

    python bench/relay_floor.py --games 1,10,100 --duration 8 --warmup 2 --pin

Prints one JSON row per M: moves/s and the server process's CPU µs per move (all its threads,
from /proc), to read beside `run_e2e.py`'s gateway column in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).parent))
from proc_cpu import tree_cpu_seconds

METHOD = "/relay.Relay/Play"
UPDATE = b"u" * 300
MOVE = b"m" * 40


def _identity(blob: bytes) -> bytes:
    return blob


class Tables:
    """Each game's two seat queues (the server's whole state)."""

    def __init__(self) -> None:
        self.seats: dict[bytes, list[asyncio.Queue[bytes]]] = {}


async def serve(port: int, lifetime_s: float) -> None:
    """The relay server: a seat's first message names its game; every later one is a move."""
    tables = Tables()

    async def play(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        first = await requests.__anext__()
        seats = tables.seats.setdefault(first, [])
        seats.append(queue)

        async def moves() -> None:
            async for _ in requests:
                for seat in seats:
                    seat.put_nowait(UPDATE)

        reader = asyncio.get_running_loop().create_task(moves())
        try:
            while True:
                await context.write(await queue.get())
        finally:
            reader.cancel()

    handler = grpc.stream_stream_rpc_method_handler(play, request_deserializer=_identity, response_serializer=_identity)
    server = grpc.aio.server()
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("relay.Relay", {"Play": handler})])
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await asyncio.sleep(lifetime_s)
    await server.stop(0)


async def drive(port: int, games: int, warmup_s: float, duration_s: float, server_pid: int) -> dict[str, object]:
    """M games of two seats; the seat an update makes the mover answers at once. Counts moves."""
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    play = channel.stream_stream(METHOD, request_serializer=_identity, response_deserializer=_identity)
    moves = 0
    stop = time.monotonic() + warmup_s + duration_s

    async def game(index: int) -> None:
        nonlocal moves
        outboxes = [asyncio.Queue[bytes | None]() for _ in range(2)]

        async def requests(seat: int) -> AsyncIterator[bytes]:
            yield f"game-{index}".encode()
            while (item := await outboxes[seat].get()) is not None:
                yield item

        calls = [play(requests(seat)) for seat in range(2)]
        await asyncio.sleep(0.2)  # both seats registered before the first move
        outboxes[0].put_nowait(MOVE)
        turn = 0

        async def listen(seat: int) -> None:
            nonlocal moves, turn
            async for _ in calls[seat]:
                if seat == 0:  # count each move once, at one seat
                    moves += 1
                    turn ^= 1
                    if time.monotonic() < stop:
                        outboxes[turn].put_nowait(MOVE)
                    else:
                        break

        listeners = [asyncio.create_task(listen(seat)) for seat in range(2)]
        await asyncio.wait(listeners, timeout=warmup_s + duration_s + 5, return_when=asyncio.FIRST_COMPLETED)
        for task in listeners:
            task.cancel()
        for call in calls:
            call.cancel()

    tasks = [asyncio.create_task(game(i)) for i in range(games)]
    await asyncio.sleep(warmup_s)
    start_moves, start_cpu, started = moves, tree_cpu_seconds([server_pid]), time.monotonic()
    await asyncio.sleep(duration_s)
    done_moves, done_cpu, window = (
        moves - start_moves,
        tree_cpu_seconds([server_pid]) - start_cpu,
        time.monotonic() - started,
    )
    await asyncio.gather(*tasks, return_exceptions=True)
    await channel.close()
    return {
        "system": "grpc.aio relay floor",
        "games": games,
        "moves_per_s": round(done_moves / window, 1),
        "server_us_per_move": round(1e6 * done_cpu / max(done_moves, 1), 1),
        "server_cpu_pct": round(100 * done_cpu / window, 1),
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,10,100")
    parser.add_argument("--duration", type=float, default=8)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--pin", action="store_true", help="server on CPU 0, load on CPU 1")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # internal: run the server on this port
    parser.add_argument("--drive", type=int, help=argparse.SUPPRESS)  # internal: drive the server on this port
    parser.add_argument("--server-pid", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, lifetime_s=600))
        return
    if args.drive:
        for games in (int(g) for g in args.games.split(",")):
            row = asyncio.run(drive(args.drive, games, args.warmup, args.duration, args.server_pid))
            print(json.dumps(row), flush=True)
        return
    pin = args.pin and shutil.which("taskset") is not None
    port = free_port()
    me = [sys.executable, __file__]
    server = subprocess.Popen([*(["taskset", "-c", "0"] if pin else []), *me, "--serve", str(port)])
    try:
        time.sleep(1.5)
        for games in args.games.split(","):  # a fresh client per M, the one server
            subprocess.run(
                [
                    *(["taskset", "-c", "1"] if pin else []),
                    *me,
                    "--drive",
                    str(port),
                    "--server-pid",
                    str(server.pid),
                    "--games",
                    games,
                    "--duration",
                    str(args.duration),
                    "--warmup",
                    str(args.warmup),
                ],
                check=True,
            )
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        if server.poll() is None:
            server.kill()


if __name__ == "__main__":
    main()
