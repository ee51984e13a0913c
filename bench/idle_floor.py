"""The floor under an idle WatchGame stream: what a bare grpc.aio server costs per open idle
server-streaming call (one first message, then nothing until the client leaves).

Starts the bare server (`--shape generator`: an async generator that yields once and then waits on
a future; `--shape write`: a coroutine handler that writes once with `context.write` and waits;
`--shape layers`: the generator under LAYERS more nested async generators, what each layer costs),
opens N streams on it with bench/idle_streams.py's idle clients, and prints its RSS before and
with every stream open, per stream, beside Flotilla's figure from bench/idle_streams.py.

    python bench/idle_floor.py --streams 10000 20000 --shape generator
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).parent))
from idle_streams import OPEN_TIMEOUT_S, rss_mb, start_idle_clients, wait_opened

from flotilla.redis_server import free_port

LAYERS = 8  # `--shape layers`: async generators nested as deep as WatchGame's (interceptor to Watcher.run)
FIRST = b""  # an empty WatchGameResponse: the client only counts messages


def _identity(blob: bytes) -> bytes:
    return blob


async def serve(port: int, shape: str) -> None:
    async def generator(_request: bytes, _context: Any) -> AsyncIterator[bytes]:
        yield FIRST
        await asyncio.get_running_loop().create_future()

    async def write(_request: bytes, context: Any) -> None:
        await context.write(FIRST)
        await asyncio.get_running_loop().create_future()

    async def layer(depth: int) -> AsyncIterator[bytes]:
        if depth == 0:
            yield FIRST
            await asyncio.get_running_loop().create_future()
        async for item in layer(depth - 1):
            yield item

    async def layers(_request: bytes, _context: Any) -> AsyncIterator[bytes]:
        async for item in layer(LAYERS):
            yield item

    behaviour = {"generator": generator, "write": write, "layers": layers}[shape]
    handler = grpc.unary_stream_rpc_method_handler(
        behaviour, request_deserializer=_identity, response_serializer=_identity
    )
    server = grpc.aio.server()
    generic = grpc.method_handlers_generic_handler("flotilla.api.game.v1.GameService", {"WatchGame": handler})
    server.add_generic_rpc_handlers([generic])
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    if os.environ.get("IDLE_FLOOR_TRACE"):
        tracemalloc.start(int(os.environ["IDLE_FLOOR_TRACE"]))
        signal.signal(signal.SIGUSR1, lambda *_: _trace_report())
    await server.wait_for_termination()


def _trace_report() -> None:
    """Python's share of the server's memory now (tracemalloc), by line, to stderr."""
    current, _peak = tracemalloc.get_traced_memory()
    print(f"traced {current / 1e6:.1f} MB", file=sys.stderr)
    for stat in tracemalloc.take_snapshot().statistics("traceback")[:15]:
        print(f"{stat.size / 1e6:.2f} MB {stat.count}", *stat.traceback.format()[-6:], sep="\n  ", file=sys.stderr)


def run_one(args: argparse.Namespace, streams: int) -> dict[str, Any]:
    port = free_port()
    target = f"127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--shape", args.shape])
    clients: list[Any] = []
    try:
        time.sleep(2)
        before = rss_mb(server.pid)
        t0 = time.monotonic()
        q, release = start_idle_clients(args, target, "x", ["g"], streams, clients)
        opened, failed = wait_opened(clients, q)
        open_s = time.monotonic() - t0
        time.sleep(2)
        after = rss_mb(server.pid)
        server.send_signal(signal.SIGUSR1)
        time.sleep(float(os.environ.get("IDLE_FLOOR_TRACE_WAIT", "0")))
        release.set()
        for _ in clients:
            q.get(timeout=OPEN_TIMEOUT_S)
        return {
            "shape": args.shape,
            "streams": streams,
            "opened": opened,
            "failed": failed,
            "open_s": round(open_s, 1),
            "rss_before_mb": round(before, 1),
            "rss_open_mb": round(after, 1),
            "kb_per_stream": round((after - before) * 1024 / max(opened, 1), 2),
        }
    finally:
        for proc in clients:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
        server.terminate()
        server.wait(15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, nargs="+", default=[10_000])
    parser.add_argument("--shape", choices=("generator", "write", "layers"), default="generator")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--in-flight", type=int, default=200)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve, args.shape))
        return 0
    for streams in args.streams:
        print(json.dumps(run_one(args, streams)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
