"""What the rate limits add to queueing a move: RedisStore.enqueue with a submit's two buckets
(user and address) vs without, on a fresh redis-server, alternating rounds.

Reports per queued move: the Redis server's time (INFO commandstats: EVALSHA of rate_gate.lua
vs XADD) and the wall time of batches of concurrent enqueues as a gateway sends them (one
pipeline per event-loop turn).

    python bench/limits_cost.py [--moves 20000] [--batch 50] [--rounds 6] [--users 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from flotilla.app.limits import LIMITS, parse_limits  # noqa: E402
from flotilla.redis_server import RedisServer  # noqa: E402
from flotilla.store.redis_store import RedisStore  # noqa: E402

ON = ",".join(f"{limit.name}={'1000000' if limit.is_quota else '10000/s:1000000'}" for limit in LIMITS)


async def round_of(store: RedisStore, gated: bool, moves: int, batch: int, users: int = 1) -> float:
    rows = parse_limits(ON)
    gates = [
        (rows["submit_per_user"].bucket(f"bench-user-{u}"), rows["submit_per_address"].bucket("127.0.0.1"))
        for u in range(users)
    ]
    fields = {"g": "bench-game", "s": 0, "a": b'{"n":1}', "r": "r", "e": "", "i": "flotilla:inbox:{bench}"}
    stream = "flotilla:work:{bench@1:0}"
    started = time.perf_counter()
    for _ in range(moves // batch):
        await asyncio.gather(*(store.enqueue(stream, fields, gates[i % users] if gated else ()) for i in range(batch)))
    elapsed = time.perf_counter() - started
    await store.redis.delete(stream)
    return elapsed / moves * 1e6


def usec_per_call(info: dict[str, dict[str, float]], command: str) -> float:
    return float(info.get(f"cmdstat_{command}", {}).get("usec_per_call", 0.0))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--users", type=int, default=1, help="distinct users (buckets) among the moves of a batch")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp), aof=False).start()
        store = RedisStore.from_url(server.url)
        try:
            await round_of(store, True, 2000, args.batch)  # warm up: scripts loaded, connections open
            walls: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(args.rounds):
                for gated in (True, False):
                    walls[gated].append(await round_of(store, gated, args.moves, args.batch, args.users))
            info = await store.redis.info("commandstats")
            result = {
                "moves_per_round": args.moves,
                "batch": args.batch,
                "users": args.users,
                "rounds": args.rounds,
                "wall_us_per_move_gated": statistics.median(walls[True]),
                "wall_us_per_move_plain": statistics.median(walls[False]),
                "redis_us_evalsha_gate": usec_per_call(info, "evalsha"),
                "redis_us_xadd": usec_per_call(info, "xadd"),
            }
            print(json.dumps(result))
        finally:
            await store.close()
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
