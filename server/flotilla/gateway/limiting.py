"""The gateway's side of rate limits and quotas: who and where a call comes from, then app/limits.py."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import grpc

from flotilla.app.limits import Gate, Limiter
from flotilla.app.stream_leases import StreamLeases
from flotilla.gateway.peers import XFF, Network, bridged_peer, client_address
from flotilla.identity.principal import Principal

Context = grpc.aio.ServicerContext[Any, Any]


class CallLimits:
    """Rate limits, quotas and stream leases of one gateway, by gRPC call."""

    def __init__(
        self, limiter: Limiter, streams: StreamLeases, trusted: tuple[Network, ...], forwarded_header: str = XFF
    ) -> None:
        self.limiter = limiter
        self.streams = streams
        self.trusted = trusted
        self.forwarded_header = forwarded_header  # the one header trusted proxies write (gateway/peers.py)
        self.bridge_key: str | None = None  # set when the browser bridge runs (gateway/browser.py)

    def address(self, context: Context) -> str:
        return client_address(context, self.trusted, self.bridge_key, self.forwarded_header)

    def connection(self, context: Context) -> str:
        """The client's connection: the grpc peer, or the browser's of a bridged call."""
        browser = bridged_peer(context, self.bridge_key)
        return (context.peer() or "") if browser is None else f"browser:{browser}"

    def subjects(self, context: Context) -> tuple[str, str]:
        """The call's connection and client address (what admission control counts places by)."""
        return self.connection(context), self.address(context)

    async def check(self, call: str, context: Context, user: str | None, *, bot: bool = False) -> None:
        """Refuse (RateLimited) or count one `call` of this user (`bot`: a bot account's) from this address."""
        await self.limiter.check(call, user, self.address(context), bot=bot)

    def submit_gate(self, context: Context, who: Principal | None, address: str | None = None) -> Gate:
        """The buckets of a move by `who` (a seat token's: its game and seat count too), taken later
        with the move it queues (see Games.submit); `address`: the client's, when known already."""
        address = address or self.address(context)
        if who is None:
            return self.limiter.gate("submit", None, address)
        seat = f"{who.game}:{who.seat}" if who.is_seat else None
        return self.limiter.gate("submit", who.user, address, bot=who.is_bot_account, seat=seat)

    @contextlib.asynccontextmanager
    async def stream(
        self, context: Context, user: str | None, *, bot: bool = False, address: str | None = None
    ) -> AsyncIterator[None]:
        """A stream opens: the stream_open rate limits, then a place within the stream quotas
        while the block runs; `address`: the client's, when known already."""
        address = address or self.address(context)
        await self.limiter.check("stream_open", user, address, bot=bot)
        async with self.streams.open(user, address, self.connection(context), bot=bot):
            yield
