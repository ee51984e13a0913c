"""Raw gRPC calls for bad-input and fuzz tests: any bytes in, the status and its ErrorInfo out.

Importable from any test module (`from raw_rpc import ...`; pytest adds tests/ to sys.path).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import grpc
import redis.asyncio as aioredis
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from grpc_health.v1 import health_pb2

from flotilla.api.game.v1 import game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2

SERVICES: tuple[ServiceDescriptor, ...] = (
    game_service_pb2.DESCRIPTOR.services_by_name["GameService"],
    game_service_pb2.DESCRIPTOR.services_by_name["AuthService"],
    lobby_service_pb2.DESCRIPTOR.services_by_name["LobbyService"],
    matchmaking_service_pb2.DESCRIPTOR.services_by_name["MatchmakingService"],
    matchmaking_service_pb2.DESCRIPTOR.services_by_name["RatingService"],
)
METHODS: tuple[MethodDescriptor, ...] = tuple(m for s in SERVICES for m in s.methods)
MAX_DETAILS = 200  # characters of a status message (gateway/errors.py)
MAX_METADATA_VALUE = 64  # characters of one ErrorInfo metadata value
MAX_TRAILER_BYTES = 2048  # the whole grpc-status-details-bin trailer


@dataclass
class Answer:
    """How a call ended: its code, message and ErrorInfo (reason "" when there is none)."""

    code: grpc.StatusCode
    details: str
    reason: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    trailer_bytes: int = 0

    def check_typed(self) -> None:
        """A typed status: never UNKNOWN or INTERNAL; an error carries an ErrorInfo and a short echo."""
        assert self.code not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL), self
        if self.code == grpc.StatusCode.OK:
            return
        assert self.reason.startswith("ERROR_REASON_"), self
        assert len(self.details) <= MAX_DETAILS, self
        assert all(len(v) <= MAX_METADATA_VALUE for v in self.metadata.values()), self
        assert self.trailer_bytes <= MAX_TRAILER_BYTES, self


def answer_of(error: grpc.aio.AioRpcError) -> Answer:
    out = Answer(error.code(), error.details() or "")
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            assert isinstance(value, bytes)
            out.trailer_bytes = len(value)
            for detail in status_pb2.Status.FromString(value).details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    out.reason, out.metadata = info.reason, dict(info.metadata)
    return out


def path(method: MethodDescriptor) -> str:
    return f"/{method.containing_service.full_name}/{method.name}"


def auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),) if token else ()


async def call(
    channel: grpc.aio.Channel,
    method: MethodDescriptor,
    bodies: Sequence[bytes],
    token: str = "",
    deadline_s: float = 10,
) -> Answer:
    """Send `bodies` (one for a unary request) as they are; a stream that answers is closed after
    its first response (OK)."""
    metadata = auth(token)
    try:
        if method.client_streaming:
            stream = channel.stream_stream(path(method))

            async def requests() -> AsyncIterator[bytes]:
                for body in bodies:
                    yield body
                await asyncio.sleep(deadline_s)  # keep the stream open: the server answers or ends it

            live = stream(requests(), metadata=metadata, timeout=deadline_s)
            await first_or_end(live)
        elif method.server_streaming:
            live = channel.unary_stream(path(method))(bodies[0], metadata=metadata, timeout=deadline_s)
            await first_or_end(live)
        else:
            await channel.unary_unary(path(method))(bodies[0], metadata=metadata, timeout=deadline_s)
    except grpc.aio.AioRpcError as error:
        return answer_of(error)
    return Answer(grpc.StatusCode.OK, "")


async def first_or_end(live: grpc.aio.Call) -> None:
    """Wait for a stream's first response (then cancel it) or its end (an error raises)."""
    try:
        await live.read()  # type: ignore[attr-defined]
    finally:
        live.cancel()


async def call_message(
    channel: grpc.aio.Channel, method: MethodDescriptor, message: Message, token: str = "", deadline_s: float = 10
) -> Answer:
    return await call(channel, method, [message.SerializeToString()], token, deadline_s)


async def serving(channel: grpc.aio.Channel) -> bool:
    """The gateway's health check says SERVING."""
    check = channel.unary_unary(
        "/grpc.health.v1.Health/Check",
        request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
        response_deserializer=health_pb2.HealthCheckResponse.FromString,
    )
    reply = await check(health_pb2.HealthCheckRequest(), timeout=5)
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def snapshot(redis_url: str, skip: Sequence[str] = ()) -> dict[bytes, bytes]:
    """Every key of the Redis at `redis_url` with its DUMP, but keys starting with one of `skip`."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        out: dict[bytes, bytes] = {}
        async for key in client.scan_iter(count=1000):
            if any(key.startswith(prefix.encode()) for prefix in skip):
                continue
            dumped = await client.dump(key)
            if dumped is not None:
                out[key] = dumped
        return out
    finally:
        await client.aclose()
