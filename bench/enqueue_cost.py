"""The gateway's CPU per gated enqueue (`RedisStore.enqueue` with a submit's two buckets, the
fields of a counter move), as the Play path sends it: one at a time (M = 1) and in batches of
concurrent calls (one flush per event-loop turn). A fresh redis-server; uvloop when installed.

Reports this process's CPU (`time.process_time`) per enqueue, the best of the rounds (other
processes on a busy machine count less), and Redis's own µs per EVALSHA (INFO commandstats).

    python bench/enqueue_cost.py [--moves 4000] [--batches 1,20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from flotilla.app.limits import LIMITS, parse_limits  # noqa: E402
from flotilla.cli import run_service  # noqa: E402
from flotilla.records import WorkItem  # noqa: E402
from flotilla.redis_server import RedisServer  # noqa: E402
from flotilla.store.redis_store import RedisStore  # noqa: E402

ON = ",".join(f"{limit.name}={'1000000' if limit.is_quota else '100000/s:1000000'}" for limit in LIMITS)


async def round_of(store: RedisStore, moves: int, batch: int) -> float:
    """CPU µs of this process per enqueue over `moves` enqueues, `batch` at once."""
    rows = parse_limits(ON)
    gate = (rows["submit_per_user"].bucket("bench-user"), rows["submit_per_address"].bucket("127.0.0.1"))
    stream = "flotilla:work:{counter@1:0}"
    items = [
        WorkItem("b" * 32, 0, f"req-{i:08d}", action=b'{"Increment":{"by":1}}', inbox="flotilla:inbox:{x}").fields()
        for i in range(batch)
    ]
    started = time.process_time()
    for _ in range(moves // batch):
        await asyncio.gather(*(store.enqueue(stream, fields, gate) for fields in items))
    used = time.process_time() - started
    await store.redis.delete(stream)
    return used / moves * 1e6


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--batches", default="1,20")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp), aof=False).start()
        store = RedisStore.from_url(server.url)
        try:
            await round_of(store, 1000, 10)  # warm up: scripts loaded, connections open
            await store.redis.config_resetstat()
            result: dict[str, float] = {}
            for batch in (int(b) for b in args.batches.split(",")):
                best = min([await round_of(store, args.moves, batch) for _ in range(args.rounds)])
                result[f"client_cpu_us_per_enqueue_batch_{batch}"] = round(best, 1)
            info = await store.redis.info("commandstats")
            result["redis_us_per_evalsha"] = float(info.get("cmdstat_evalsha", {}).get("usec_per_call", 0.0))
            print(json.dumps(result))
        finally:
            await store.close()
            server.stop()


if __name__ == "__main__":
    run_service(main())  # on uvloop, as the gateway runs
