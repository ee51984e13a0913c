"""A gateway's inbox: one Redis stream where workers put the outcomes of its submitted actions.

One reader task per gateway process resolves the waiting futures, so waiting costs no Redis
connection per request. Request ids are scoped to (game, seat): waiters are keyed by all three,
as are the inbox entries (fields g, s, r and the outcome o).

The inbox lives only while its gateway does: it has a TTL (`ttl_s`) that the reader renews
(re-creating the stream if it vanished, e.g. with a Redis that lost its data), workers never
create it (XADD NOMKSTREAM), and the reader trims what it has read.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid

import structlog

from flotilla.app.outcome import Outcome
from flotilla.errors import StoreError, StoreUnreachable
from flotilla.records import InboxReply
from flotilla.store import keys
from flotilla.store.protocol import Store
from flotilla.store.supervise import supervised
from flotilla.store.transient import RETRY_PAUSE_S

log = structlog.get_logger("flotilla.inbox")

Request = tuple[str, int, str]  # (game id, seat, request id)


class Inbox:
    """Futures of outcomes by (game, seat, request id), fed by one XREAD loop."""

    def __init__(self, store: Store, gateway_id: str | None = None, block_ms: int = 5000, ttl_s: float = 30.0) -> None:
        self.store = store
        self.key = keys.inbox(gateway_id or uuid.uuid4().hex)
        self.ttl_ms = int(ttl_s * 1000)
        self.block_ms = min(block_ms, self.ttl_ms // 4)  # the reader renews the TTL between reads
        self._waiters: dict[Request, list[asyncio.Future[Outcome | None]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._kept = 0.0  # when the TTL was last renewed (monotonic); 0: renew first thing
        self._down = False

    async def start(self) -> None:
        """Create the inbox (before any action is queued with its name), then read it.

        With Redis unreachable the gateway starts all the same; the reader creates the inbox
        once Redis answers."""
        with contextlib.suppress(StoreError):
            await self.store.keep_inbox(self.key, self.ttl_ms)
            self._kept = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(supervised("inbox", self._run), name="inbox")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task], timeout=1)  # a cluster client's blocked read may linger
        with contextlib.suppress(StoreUnreachable):
            await self.store.drop_inbox(self.key)

    def expect(self, request: Request) -> asyncio.Future[Outcome | None]:
        """A future of this caller's own that the outcome of `request` resolves (concurrent
        duplicates each have one, so a caller's deadline cancels only its own); None when the
        reader got Redis back after losing it: a work entry queued before may have been lost
        with it (a Redis that came back behind), so the caller queues it again."""
        waiter: asyncio.Future[Outcome | None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(request, []).append(waiter)
        return waiter

    def resolve(self, request: Request, outcome: Outcome) -> None:
        """Resolve the waiters of `request` (if any wait) from elsewhere than the inbox."""
        for waiter in self._waiters.pop(request, ()):
            if not waiter.done():
                waiter.set_result(outcome)

    def forget(self, request: Request, waiter: asyncio.Future[Outcome | None]) -> None:
        waiting = self._waiters.get(request)
        if waiting is not None and waiter in waiting:
            waiting.remove(waiter)
            if not waiting:
                del self._waiters[request]

    def came_back(self) -> None:
        """Redis answers again after an outage: every waiter is told to queue its entry again."""
        waiting, self._waiters = self._waiters, {}
        for waiters in waiting.values():
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def _run(self, _restarted: bool = False) -> None:
        """Read the inbox for ever (supervised: a bug restarts it rather than leaving submits unanswered)."""
        cursor = "0-0"
        while True:
            try:
                if time.monotonic() - self._kept > self.ttl_ms / 3000:
                    if await self.store.keep_inbox(self.key, self.ttl_ms) and self._kept:
                        log.warning("inbox.recreated", inbox=self.key)  # it vanished: Redis lost it or we stalled
                    self._kept = time.monotonic()
                rows = await self.store.read_inbox(self.key, cursor, self.block_ms, trim=True)
            except StoreError as exc:  # unreachable, failing over, ...: the reader must go on
                log.warning("inbox.redis_unavailable", error=str(exc))
                self._kept = 0.0  # renew (re-create) first thing once Redis is back
                self._down = True
                await asyncio.sleep(RETRY_PAUSE_S)
                continue
            if self._down:
                self._down = False
                self.came_back()
            for msg_id, fields in rows:
                cursor = msg_id.decode()
                try:
                    reply = InboxReply.decode(fields)
                except (KeyError, ValueError, UnicodeDecodeError):  # unaddressed: no waiter may take it
                    log.warning("inbox.unaddressed_outcome", entry=cursor)
                    continue
                request = (reply.game_id, reply.seat, reply.request_id)
                if request in self._waiters:
                    self.resolve(request, Outcome.loads(reply.outcome, game=reply.game_id, seat=reply.seat))
