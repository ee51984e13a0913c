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

from flotilla.api.catalog.v1 import catalog_service_pb2
from flotilla.api.game.v1 import game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2

SERVICES: tuple[ServiceDescriptor, ...] = (
    game_service_pb2.DESCRIPTOR.services_by_name["GameService"],
    game_service_pb2.DESCRIPTOR.services_by_name["AuthService"],
    lobby_service_pb2.DESCRIPTOR.services_by_name["LobbyService"],
    matchmaking_service_pb2.DESCRIPTOR.services_by_name["MatchmakingService"],
    matchmaking_service_pb2.DESCRIPTOR.services_by_name["RatingService"],
    catalog_service_pb2.DESCRIPTOR.services_by_name["CatalogService"],
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
    client_race: bool = False  # see `lost_to_a_write`: the server's status never reached us

    def check_typed(self) -> None:
        """A typed status: never UNKNOWN or INTERNAL; an error carries an ErrorInfo and a short echo."""
        assert self.code not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL), self
        if self.code == grpc.StatusCode.OK:
            return
        assert self.reason.startswith("ERROR_REASON_"), self
        assert len(self.details) <= MAX_DETAILS, self
        assert all(len(v) <= MAX_METADATA_VALUE for v in self.metadata.values()), self
        assert self.trailer_bytes <= MAX_TRAILER_BYTES, self


def lost_to_a_write(error: grpc.aio.AioRpcError) -> bool:
    """grpc's Python client, writing to a stream the server has just ended, replaces the server's
    status with its own INTERNAL "Internal error from Core" (no trailers): a client artefact."""
    return (
        error.code() == grpc.StatusCode.INTERNAL
        and error.details() == "Internal error from Core"
        and not error.trailing_metadata()
    )


def answer_of(error: grpc.aio.AioRpcError) -> Answer:
    out = Answer(error.code(), error.details() or "", client_race=lost_to_a_write(error))
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
    its first response (OK). A request stream sends its first body, and the rest only once the
    server answered it (fewer client write races, see `lost_to_a_write`)."""
    metadata = auth(token)
    sent = asyncio.Event()
    try:
        if method.client_streaming:
            stream = channel.stream_stream(path(method))
            answered = asyncio.Event()

            async def requests() -> AsyncIterator[bytes]:
                yield bodies[0]
                await answered.wait()
                for body in bodies[1:]:
                    yield body
                await sent.wait()  # keep the stream open until its answer (or end) is in

            live = stream(requests(), metadata=metadata, timeout=deadline_s)
            try:
                await live.read()
                answered.set()
                if len(bodies) > 1:
                    await live.read()
            finally:
                live.cancel()
        elif method.server_streaming:
            live = channel.unary_stream(path(method))(bodies[0], metadata=metadata, timeout=deadline_s)
            await first_or_end(live)
        else:
            await channel.unary_unary(path(method))(bodies[0], metadata=metadata, timeout=deadline_s)
    except grpc.aio.AioRpcError as error:
        return answer_of(error)
    finally:
        sent.set()
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


_SNAPSHOT = """
local out, cursor = {}, "0"
repeat
  local page = redis.call("SCAN", cursor, "COUNT", 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local keep = true
    for _, prefix in ipairs(ARGV) do
      if string.sub(key, 1, #prefix) == prefix then keep = false break end
    end
    if keep then
      local dumped = redis.call("DUMP", key)
      if dumped then out[#out + 1] = key; out[#out + 1] = redis.sha1hex(dumped) end
    end
  end
until cursor == "0"
return out
"""


async def snapshot(client: aioredis.Redis, skip: Sequence[str] = ()) -> dict[bytes, bytes]:
    """Every key of the Redis `client` talks to with the SHA-1 of its DUMP (a value's serialised
    form: any change of the value changes it), but keys starting with one of `skip`. One script on
    the server: one round trip and 40 bytes a key, on the caller's connection, however many keys."""
    flat = await client.eval(_SNAPSHOT, 0, *skip)
    return dict(zip(flat[::2], flat[1::2], strict=True))
