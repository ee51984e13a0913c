"""`flotilla worker`: run the rules worker until SIGTERM (finishing the batch in hand)."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from flotilla.loop_lag import watch_loop
from flotilla.settings import Settings
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker


async def run_worker(settings: Settings) -> None:
    store = RedisStore.from_settings(settings)
    worker = Worker.from_settings(store, settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, worker.stop)
    try:
        async with watch_loop(settings.loop_stall_ms):
            await worker.run()
    finally:
        await store.close()
