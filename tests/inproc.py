"""In-process servicer tests: the gateway's servicers on a real `grpc.aio` server in the test process.

The middle of the test pyramid (issue 25, item 7). `InProcess` runs gateways and rules workers as
this process's own: each gateway is `flotilla.gateway.server.start_gateway` (what `flotilla gateway`
runs: every servicer, interceptor and limit, on a real grpc.aio server bound to 127.0.0.1:0), each
worker is `Worker.from_settings(...).run()` (what `flotilla worker` runs), all on one event loop of a
thread of their own, against a real redis-server (tests/conftest.py's `redis_server`). Tests call
them over loopback TCP exactly as they call a stack's processes, from their own event loop: a
module-scoped fixture serves every test of a module whatever loop each test runs in, with no fork,
no interpreter start and no process to wait for.

The module-scoped fixture `inproc` (import it into a directory's conftest.py) serves a module two
gateways and a worker on the session's Redis, with the module's `INPROC_SETTINGS` (a dict of
`Settings` fields, when it has one) applied, as `stack` applies a module's `STACK_ENV`.

Use it for what a servicer promises (status codes and ErrorInfo reasons of bad input, auth and
tokens, field limits, request scoping, rendering, paging); use `support.start_stack` where the
promise is about processes (admission under load, TLS, several processes on a port, crashes).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
import structlog

from flotilla.gateway.server import Gateway, start_gateway
from flotilla.redis_server import RedisServer
from flotilla.settings import Settings
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker
from support import stack_env, stack_limits

T = TypeVar("T")

STOP_TIMEOUT_S = 30.0
"""How long starting or stopping the in-process parts may take on a loaded machine (a start past it
fails the test; a stop past it is logged and its tasks cancelled, see `InProcess._stop_parts`)."""

CANCEL_WAIT_S = 5.0
"""How long the cancelled leftovers of stopped parts get to end before their loop closes."""

log = structlog.get_logger("tests.inproc")


def stack_settings(redis_url: str, **changes: Any) -> Settings:
    """The settings `support.start_stack` gives its processes (heartbeat 2 s, submit timeout 10 s,
    `support.LOOPBACK_LIMITS`, no trusted proxy), on a free port of 127.0.0.1, then `changes`."""
    base: dict[str, Any] = {
        "redis_url": redis_url,
        "bind": "127.0.0.1:0",
        "heartbeat_s": 2.0,
        "submit_timeout_s": 10.0,
        "limits": stack_limits(),
        "trusted_proxies": "",
    }
    return Settings(**{**base, **changes})


@dataclass
class _Running:
    """A worker running as a task of the current event loop, on a store of its own."""

    worker: Worker
    store: RedisStore
    task: asyncio.Task[None]

    @classmethod
    async def start(cls, settings: Settings, block_ms: int | None = None) -> _Running:
        store = RedisStore.from_settings(settings)
        worker = Worker.from_settings(store, settings, consumer=f"inproc-{uuid.uuid4().hex[:8]}")
        if block_ms is not None:
            worker.block_ms = block_ms
        task = asyncio.create_task(worker.run(), name=worker.consumer)
        await asyncio.sleep(0)  # `run` has begun: a `stop` from now on is not cleared by its start
        return cls(worker, store, task)

    async def stopped(self) -> None:
        """Stop the worker (it finishes the batch in hand) and release its store."""
        self.worker.stop()
        await asyncio.wait_for(self.task, STOP_TIMEOUT_S)
        await self.store.close()


@dataclass
class InProcess:
    """Gateways and workers on one event loop in a thread of this process (see the module docstring).

    `gateways` and `redis_url` have the shape of `support.Stack`'s, so a test written against a
    stack's targets runs against these unchanged."""

    settings: Settings
    gateways: list[str] = field(default_factory=list)
    running: list[Gateway] = field(default_factory=list)
    _workers: list[_Running] = field(default_factory=list)
    _loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.new_event_loop)
    _thread: threading.Thread | None = None

    @property
    def redis_url(self) -> str:
        return self.settings.redis_url

    @property
    def env(self) -> dict[str, str]:
        """`support.stack_env` with these parts' limits: for a process started beside them (a
        matchmaker, tests/lobby/mm_support.py), as beside a stack's."""
        return stack_env(self.redis_url, {"FLOTILLA_LIMITS": self.settings.limits})

    def call(self, work: Coroutine[Any, Any, T], timeout_s: float = STOP_TIMEOUT_S) -> T:
        """Run `work` on the parts' event loop and return its result (from a test's thread)."""
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout_s)

    async def acall(self, work: Coroutine[Any, Any, T]) -> T:
        """`call` from a test's event loop, without blocking it."""
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        return await asyncio.wait_for(asyncio.wrap_future(future), STOP_TIMEOUT_S)

    def start(self, gateways: int, workers: int) -> InProcess:
        self._thread = threading.Thread(target=self._loop.run_forever, name="inproc", daemon=True)
        self._thread.start()
        try:
            for _ in range(gateways):
                gateway = self.call(start_gateway(self.settings))
                self.running.append(gateway)
                self.gateways.append(f"127.0.0.1:{gateway.port}")
            for _ in range(workers):
                self.call(self._start_worker())
        except BaseException:
            self.stop()  # what started must not outlive a failed start
            raise
        return self

    async def _start_worker(self) -> None:
        self._workers.append(await _Running.start(self.settings))

    async def _stop_workers(self) -> None:
        stopping, self._workers = self._workers, []
        for running in stopping:
            running.worker.stop()  # all at once: each returns within its block (1 s)
        for running in stopping:
            await running.stopped()

    @contextlib.asynccontextmanager
    async def workers_paused(self) -> AsyncIterator[None]:
        """No worker serves the work streams for the block: submissions queue up unanswered; as
        many workers as before serve them after it (their entries wait in the streams meanwhile)."""
        count = len(self._workers)
        await self.acall(self._stop_workers())
        try:
            yield
        finally:
            for _ in range(count):
                await self.acall(self._start_worker())

    async def _stop_parts(self) -> None:
        """Stop the workers, then the gateways, within STOP_TIMEOUT_S; past it, cancel what is left
        and log it, as a stack kills a process that outlives SIGTERM (a stop that hangs is a bug of
        its own, reported apart, not a failure of the test that ran before)."""
        try:
            async with asyncio.timeout(STOP_TIMEOUT_S):
                await self._stop_workers()
                for gateway in self.running:
                    await gateway.stop(0)
        except TimeoutError:
            log.warning("inproc.stop_timed_out", timeout_s=STOP_TIMEOUT_S)
        await _cancel_the_rest()

    def stop(self) -> None:
        """Stop the workers and the gateways, then the loop and its thread."""
        if self._thread is None:
            return
        try:
            self.call(self._stop_parts(), STOP_TIMEOUT_S + 2 * CANCEL_WAIT_S)
        finally:
            self.running.clear()
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(STOP_TIMEOUT_S)
            self._loop.close()
            self._thread = None


async def _cancel_the_rest() -> None:
    """Cancel what the stopped parts left running (a loop closed over pending tasks warns), and wait
    a moment for it to end."""
    rest = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=CANCEL_WAIT_S)


@contextlib.asynccontextmanager
async def own_gateway(redis_url: str, **settings: Any) -> AsyncIterator[Gateway]:
    """One more gateway, on the calling test's own event loop, at the production defaults (but a
    0.3 s heartbeat and a free port) with `settings` applied: for a test of settings of its own."""
    base: dict[str, Any] = {"redis_url": redis_url, "bind": "127.0.0.1:0", "heartbeat_s": 0.3}
    running = await start_gateway(Settings(**{**base, **settings}))
    try:
        yield running
    finally:
        await running.stop(0)


OWN_WORKER_BLOCK_MS = 100
"""How long `own_worker`'s reads of the work streams block (production: 1 s). A stop waits for the
read in hand, so a test that starts and stops a worker of its own would wait up to a second for
it; a read returns as soon as work arrives either way."""


@contextlib.asynccontextmanager
async def own_worker(redis_url: str, **settings: Any) -> AsyncIterator[Worker]:
    """A rules worker on the calling test's own event loop (`flotilla worker`'s construction), at the
    production defaults (but OWN_WORKER_BLOCK_MS) with `settings` applied, stopped at the end of the
    block."""
    running = await _Running.start(Settings(redis_url=redis_url, **settings), OWN_WORKER_BLOCK_MS)
    try:
        yield running.worker
    finally:
        await running.stopped()


@contextlib.contextmanager
def in_process(redis_url: str, *, gateways: int = 2, workers: int = 1, **settings: Any) -> Iterator[InProcess]:
    """`gateways` gateways and `workers` workers in this process on `redis_url` (`stack_settings`
    with `settings` applied), stopped at the end of the block."""
    running = InProcess(stack_settings(redis_url, **settings)).start(gateways, workers)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def inproc(request: pytest.FixtureRequest, redis_server: RedisServer) -> Iterator[InProcess]:
    """Two gateways and a worker in the test process on the session's Redis (module-scoped, like
    `stack`; each starts in milliseconds, but a module's tests may share what they create), with the
    module's `INPROC_SETTINGS` applied."""
    with in_process(redis_server.url, **getattr(request.module, "INPROC_SETTINGS", {})) as running:
        yield running
