"""What the renamed work item's old field names cost per move (`records.LEGACY`, issue 26).

For one release a work item carries its action and etag twice (`act`/`a`, `t`/`e`): the
gateway packs them, Redis stores and returns them, the worker parses them. This bench queues
`--moves` counter work items through redis-py (auto-pipelined in batches of `--batch`, as a busy
gateway does), reads them back with XREADGROUP in batches as a worker does, and acknowledges
them, once with the old names written and once without, alternating `--rounds` times. It
reports client CPU (this process: the gateway's and the worker's share) and Redis CPU (INFO
cpu) per item, best of the rounds.

    python bench/legacy_cost.py --moves 20000 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from flotilla import records
from flotilla.records import WorkItem
from flotilla.redis_server import RedisServer

ACTION = b'{"t":"add","v":{"n":3}}'
ETAG = "v12-3f9a1c2e7b"


async def redis_cpu(client: Any) -> float:
    info = await client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


async def one_pass(client: Any, stream: str, moves: int, batch: int, legacy: bool) -> tuple[float, float]:
    """(client CPU µs per item, Redis CPU µs per item) for `moves` items with or without the old names."""
    saved = dict(records._OLD_NAMES)
    if not legacy:
        records._OLD_NAMES.pop("WorkItem", None)
    try:
        await client.delete(stream)
        await client.xgroup_create(stream, "g", id="0", mkstream=True)
        cpu, served = time.process_time(), await redis_cpu(client)
        for start in range(0, moves, batch):
            async with client.pipeline(transaction=False) as pipe:
                for i in range(start, min(start + batch, moves)):
                    item = WorkItem(
                        f"game{i % 100}", i % 2, f"r{i}", action=ACTION, etag=ETAG, inbox="gw:1", follows=True
                    )
                    pipe.xadd(stream, item.fields())
                await pipe.execute()
            read = await client.xreadgroup("g", "c", {stream: ">"}, count=batch)
            ids = []
            for _name, entries in read:
                for entry_id, fields in entries:
                    WorkItem(**WorkItem.decode_fields(fields))
                    ids.append(entry_id)
            await client.xack(stream, "g", *ids)
        client_us = (time.process_time() - cpu) / moves * 1e6
        redis_us = (await redis_cpu(client) - served) / moves * 1e6
        return client_us, redis_us
    finally:
        records._OLD_NAMES.clear()
        records._OLD_NAMES.update(saved)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        server = RedisServer(Path(scratch), appendfsync="always").start()
        try:
            client = aioredis.from_url(server.url)
            results: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
            for _ in range(args.rounds):
                for legacy in (True, False):
                    results[legacy].append(await one_pass(client, "work", args.moves, args.batch, legacy))
            await client.aclose()
        finally:
            server.stop()
    for legacy, runs in results.items():
        client_us = min(r[0] for r in runs)
        redis_us = min(r[1] for r in runs)
        label = "old names written too" if legacy else "new names only"
        print(f"{label:>22}: client {client_us:6.1f} µs/item, Redis {redis_us:6.1f} µs/item (best of {len(runs)})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
