"""Client and Redis CPU per commit of the worker's commit path alone (issue 26, the worker's side).

Rounds of one commit per game (`RedisStore.commit_many`, what `Worker.round` sends) on G games, on
a Redis with `appendfsync always`: this process's CPU (packing, sending, parsing; building the
commits is left out) and Redis's (INFO cpu) per commit, best of 3 per G. Needs `tests` on the path
(the store contract's games and steps). Far less noisy than the end-to-end bench on a loaded host.

    PYTHONPATH=server:tests python bench/commit_cost.py --rounds 300
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from flotilla.redis_server import RedisServer
from flotilla.store.redis_store import RedisStore
from store.contract import FIRST, fill, new_game, step


async def redis_cpu(client: Any) -> float:
    info = await client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def one_pass(url: str, games: int, rounds: int, tag: str) -> tuple[float, float]:
    """(client µs per commit, Redis µs per commit) over `rounds` rounds of `games` commits."""
    store = RedisStore.from_url(url)
    ids = [f"{tag}-{i}" for i in range(games)]
    for game in ids:
        await new_game(store, game)
        await fill(store, game)
    at, building = FIRST, 0.0
    for _warm in range(3):
        await store.commit_many([step(store, game, at=at, request_id=f"w{at}") for game in ids])
        at += 1
    cpu, served = time.process_time(), await redis_cpu(store.redis)
    for _round in range(rounds):
        started = time.process_time()
        calls = [step(store, game, at=at, request_id=f"r{at}") for game in ids]
        building += time.process_time() - started
        done = await store.commit_many(calls)
        assert all(d.code == 1 for d in done)
        at += 1
    commits = games * rounds
    client_us = (time.process_time() - cpu - building) / commits * 1e6
    redis_us = (await redis_cpu(store.redis) - served) / commits * 1e6
    await store.close()
    return client_us, redis_us


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        server = RedisServer(Path(scratch), appendfsync="always").start()
        try:
            for games in (1, 10, 100):
                rounds = args.rounds if games == 1 else max(args.rounds * 10 // games, 20)
                runs = [await one_pass(server.url, games, rounds, f"g{games}x{i}") for i in range(3)]
                client_us, redis_us = min(r[0] for r in runs), min(r[1] for r in runs)
                print(f"G={games:>3}: client {client_us:6.1f} µs/commit, Redis {redis_us:6.1f} µs/commit (best of 3)")
        finally:
            server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    asyncio.run(main(parser.parse_args()))
