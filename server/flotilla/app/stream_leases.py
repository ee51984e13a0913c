"""Quotas of open streams: per signed-in user and per address (bot accounts: per account; no
token: per address) over every gateway,
and per connection on this gateway.

A subject's open streams are leases in one Redis ZSET (`flotilla:streams:{<subject>}`, member
`<gateway>:<n>`, score its expiry). Opening a stream is one script (quota_take.lua: drop lapsed
leases, count, add); ending it one ZREM. Idle streams cost no command of their own: every
`lease_s / 3` the gateway renews all its leases in one pipeline, two commands per subject
(ZADD XX, PEXPIRE) whatever its number of streams. A gateway that dies leaves its leases to
lapse within `lease_s`. Per-connection counts never leave the gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Mapping

import structlog

from flotilla.app.limits import Limit, quota_exceeded
from flotilla.errors import StoreError
from flotilla.store import keys
from flotilla.store.limits_store import LimitStore

log = structlog.get_logger("flotilla.limits")

LEASE_S = 90.0


class StreamLeases:
    """Admits stream opens within `streams_per_user` and `streams_per_address` (a bot account:
    `streams_per_bot`; no token: `anonymous_streams_per_address`), shared by every gateway,
    and `streams_per_connection` (this gateway), and renews the leases of open streams."""

    def __init__(self, store: LimitStore, rows: Mapping[str, Limit], gateway_id: str, lease_s: float = LEASE_S) -> None:
        self.store = store
        self.per_user = rows.get("streams_per_user")
        self.per_bot = rows.get("streams_per_bot")  # a bot account's (API key), in place of per_user
        self.per_address = rows.get("anonymous_streams_per_address")
        self.signed_in_per_address = rows.get("streams_per_address")  # signed-in users' (not bots')
        self.per_connection = rows.get("streams_per_connection")
        self.gateway_id = gateway_id
        self.lease_ms = int(lease_s * 1000)
        self._numbers = itertools.count(1)
        self.connections: Counter[str] = Counter()
        self.leases: defaultdict[str, set[str]] = defaultdict(set)  # key -> members this gateway holds
        self._renewer: asyncio.Task[None] | None = None
        self._releases: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def open(self, user: str | None, address: str, connection: str, *, bot: bool = False) -> AsyncIterator[None]:
        """Hold a place for one stream while the block runs, or raise QuotaExceeded (`bot`: the
        user is a bot account, held to streams_per_bot)."""
        if self.per_connection is not None and self.connections[connection] >= self.per_connection.burst:
            raise quota_exceeded(self.per_connection, "end one of this connection's streams first")
        self.connections[connection] += 1
        held: list[tuple[str, str]] = []
        try:
            for limit, subject in self._quotas(user, address, bot):
                key, member = keys.stream_leases(subject), f"{self.gateway_id}:{next(self._numbers)}"
                if await self.store.hold(key, member, limit.burst, self.lease_ms, self.lease_ms) != 0:
                    whose = "your" if subject == user else "this address's"
                    raise quota_exceeded(limit, f"end one of {whose} streams first")
                held.append((key, member))
                self.leases[key].add(member)
                self._ensure_renewer()
            yield
        finally:
            for key, member in held:
                self._forget(key, member)
            self.connections[connection] -= 1
            if self.connections[connection] <= 0:
                del self.connections[connection]

    def _quotas(self, user: str | None, address: str, bot: bool) -> list[tuple[Limit, str]]:
        """The stream quotas one stream takes a place in: (limit, lease subject)."""
        if not user:
            wanted = [(self.per_address, f"address:{address}")]
        elif bot:
            wanted = [(self.per_bot, user)]
        else:
            wanted = [(self.per_user, user), (self.signed_in_per_address, f"signed-in:{address}")]
        return [(limit, subject) for limit, subject in wanted if limit is not None]

    def _forget(self, key: str, member: str) -> None:
        held = self.leases[key]
        held.discard(member)
        if not held:
            del self.leases[key]
        # In a task of its own: the stream's task may be cancelled (the client went away).
        task = asyncio.get_running_loop().create_task(self._release(key, member))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _release(self, key: str, member: str) -> None:
        try:
            await self.store.release(key, member)
        except StoreError as exc:  # the lease lapses by itself
            log.warning("limits.lease_release_failed", error=str(exc))

    def _ensure_renewer(self) -> None:
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever(), name="stream-leases")

    async def renew(self) -> None:
        """Renew every lease this gateway holds (one pipeline)."""
        snapshot = {key: sorted(members) for key, members in self.leases.items()}
        await self.store.renew(snapshot, self.lease_ms, self.lease_ms)

    async def _renew_forever(self) -> None:
        while self.leases:
            await asyncio.sleep(self.lease_ms / 3000)
            try:
                await self.renew()
            except StoreError as exc:  # unreachable, failing over: the next renewal tries again
                log.warning("limits.lease_renewal_failed", error=str(exc))

    async def close(self) -> None:
        """Stop renewing; let the releases under way finish (briefly: leases lapse by themselves)."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        if self._releases:
            await asyncio.wait(set(self._releases), timeout=2)
