"""A worker process that takes moves and never applies them, as if stuck inside the rules.

`tests/worker/test_reclaim.py` and `bench/reclaim.py` SIGKILL it once it holds a move, to
measure how fast the live workers take that move over. It is a real `Worker` (liveness
thread, XREADGROUP, settings from the environment) except that its batches never finish and
it takes nothing over from other dead workers itself.

    REDIS_URL=... python tests/worker/holding_worker.py <consumer name>
"""

from __future__ import annotations

import asyncio
import sys

from flotilla.settings import Settings
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker
from flotilla.worker.plan import Work


class HoldingWorker(Worker):
    """Reads moves and holds them forever."""

    async def handle(self, batch: list[Work], *, read_ahead: bool = False) -> None:
        print("holding", *(w.request_id for w in batch), flush=True)
        await asyncio.Event().wait()

    async def reclaim_dead(self, *, full: bool | None = None) -> int:
        return 0


async def main(consumer: str) -> None:
    settings = Settings.from_env()
    worker = HoldingWorker.from_settings(RedisStore.from_settings(settings), settings, consumer)
    worker.claim_idle_ms = 10**9  # never the backstop either
    await worker.run()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
