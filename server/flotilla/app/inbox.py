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
        self._waiters: dict[Request, asyncio.Future[Outcome]] = {}
        self._task: asyncio.Task[None] | None = None
        self._kept = 0.0  # when the TTL was last renewed (monotonic); 0: renew first thing
        self._recovered: asyncio.Future[None] | None = None  # resolved when Redis answers after an outage
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

    def expect(self, request: Request) -> asyncio.Future[Outcome]:
        """The future that the outcome of `request` resolves (shared by concurrent duplicates)."""
        waiter = self._waiters.get(request)
        if waiter is None or waiter.done():
            waiter = asyncio.get_running_loop().create_future()
            self._waiters[request] = waiter
        return waiter

    def recovery(self) -> asyncio.Future[None]:
        """A future resolved the next time the reader gets Redis back after losing it: a work
        entry queued before may have been lost with it (a Redis that came back behind)."""
        if self._recovered is None or self._recovered.done():
            self._recovered = asyncio.get_running_loop().create_future()
        return self._recovered

    def resolve(self, request: Request, outcome: Outcome) -> None:
        """Resolve the waiter of `request` (if one waits) from elsewhere than the inbox."""
        waiter = self._waiters.get(request)
        if waiter is not None and not waiter.done():
            waiter.set_result(outcome)

    def forget(self, request: Request, waiter: asyncio.Future[Outcome]) -> None:
        if self._waiters.get(request) is waiter:
            del self._waiters[request]

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
                if self._recovered is not None and not self._recovered.done():
                    self._recovered.set_result(None)
            for msg_id, fields in rows:
                cursor = msg_id.decode()
                try:
                    reply = InboxReply.decode(fields)
                except (KeyError, ValueError, UnicodeDecodeError):  # unaddressed: no waiter may take it
                    log.warning("inbox.unaddressed_outcome", entry=cursor)
                    continue
                waiter = self._waiters.get((reply.game_id, reply.seat, reply.request_id))
                if waiter is not None and not waiter.done():
                    waiter.set_result(Outcome.loads(reply.outcome, game=reply.game_id, seat=reply.seat))
