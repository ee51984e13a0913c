"""The gateway's side of rate limits and quotas: who and where a call comes from, then app/limits.py."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from flotilla.app.limits import Gate, Limiter
from flotilla.app.stream_leases import StreamLeases
from flotilla.gateway.peers import Network, bridged_peer, client_address

Context = grpc.aio.ServicerContext[Any, Any]


class CallLimits:
    """Rate limits, quotas and stream leases of one gateway, by gRPC call."""

    def __init__(self, limiter: Limiter, streams: StreamLeases, trusted: tuple[Network, ...]) -> None:
        self.limiter = limiter
        self.streams = streams
        self.trusted = trusted
        self.bridge_key: str | None = None  # set when the browser bridge runs (gateway/browser.py)

    def address(self, context: Context) -> str:
        return client_address(context, self.trusted, self.bridge_key)

    def connection(self, context: Context) -> str:
        """The client's connection: the grpc peer, or the browser's of a bridged call."""
        browser = bridged_peer(context, self.bridge_key)
        return (context.peer() or "") if browser is None else f"browser:{browser}"

    def subjects(self, context: Context) -> tuple[str, str]:
        """The call's connection and client address (what admission control counts places by)."""
        return self.connection(context), self.address(context)

    async def check(self, call: str, context: Context, user: str | None) -> None:
        """Refuse (RateLimited) or count one `call` of this user from this address."""
        await self.limiter.check(call, user, self.address(context))

    def gate(self, call: str, context: Context, user: str | None) -> Gate:
        """The buckets of one `call`, taken later (with the work it queues: see Games.submit)."""
        return self.limiter.gate(call, user, self.address(context))

    @contextlib.asynccontextmanager
    async def stream(self, context: Context, user: str | None) -> AsyncIterator[None]:
        """A stream opens: the stream_open rate limits, then a place within the stream quotas
        while the block runs."""
        address = self.address(context)
        await self.limiter.check("stream_open", user, address)
        async with self.streams.open(user, address, self.connection(context)):
            yield
