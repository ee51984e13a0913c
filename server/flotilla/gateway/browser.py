"""Browsers reach the gateway: the Connect protocol (JSON or binary) and gRPC-Web, on HTTP/1.1 and
cleartext HTTP/2, at FLOTILLA_BROWSER_BIND (docs/browser-transport.md).

The protocols are connectrpc's (its ASGI application, served by hypercorn inside the gateway's
loop); what answers is this gateway's own grpc.aio server. Every endpoint forwards the call, as
protobuf bytes, over one channel to a private unix socket of that server (in a directory only
this user may enter, so it bypasses neither TLS nor mTLS for anyone else), with the browser's
`authorization` (and forwarding) headers and the bridge header naming the browser's connection
(gateway/peers.py). So the same interceptors, admission, auth, limits, servicers and error mapping
answer both transports, and a gRPC status comes back with its google.rpc.Status details, which
become the Connect error's (or the gRPC-Web trailers') details unchanged. Nothing here knows a
use case. Client-streaming `Play` is not served yet (see the doc). GETs of other paths get the web
client's files (gateway/static.py) and its /config.json (gateway/webconfig.py), so the page and its
RPCs share one origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import shutil
import socket
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import grpc
import structlog
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor import Descriptor, ServiceDescriptor
from google.protobuf.message import Message
from google.rpc import status_pb2
from hypercorn.asyncio.run import worker_serve
from hypercorn.config import Config, Sockets
from hypercorn.utils import wrap_app
from protobuf.wkt import Any as AnyDetail

from flotilla import metrics
from flotilla.app.errors import MalformedMessage
from flotilla.gateway.body_deadline import BodyDeadline
from flotilla.gateway.cors import Cors
from flotilla.gateway.errors import to_status
from flotilla.gateway.peers import BRIDGE_HEADER
from flotilla.gateway.static import Static, bundle
from flotilla.gateway.tls import CertificateFiles
from flotilla.gateway.webconfig import PATH as CONFIG_PATH
from flotilla.gateway.webconfig import PageConfig

log = structlog.get_logger("flotilla.gateway")

FORWARDED_HEADERS = ("authorization", "x-forwarded-for", "forwarded")
STATUS_DETAILS = "grpc-status-details-bin"
BACKLOG = 1024
MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # the gRPC server's own grpc.max_receive_message_length
Endpoints = Mapping[str, Any]  # path -> connectrpc endpoint
_CODE_OF = {  # gRPC status code -> Connect code (no OK: a status here is an error)
    status.value[0]: Code[status.name.replace("CANCELLED", "CANCELED")]
    for status in grpc.StatusCode
    if status is not grpc.StatusCode.OK
}


@dataclass(frozen=True, slots=True)
class Wire:
    """A message as protobuf bytes and its class: the binary codec passes it through untouched."""

    data: bytes
    cls: type[Message]


class BinaryCodec:
    """`application/proto`, `application/grpc-web+proto`: bytes in, bytes out (the gRPC server decodes)."""

    def name(self) -> str:
        return "proto"

    def encode(self, message: Wire) -> bytes:
        return message.data

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Wire:
        return Wire(bytes(data), message_class)


class JsonCodec:
    """`application/json`: the proto3 JSON mapping, converted to bytes here (unknown fields ignored,
    as the binary format ignores them); a body that is not the message is MALFORMED_MESSAGE."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Wire) -> bytes:
        return json_format.MessageToJson(message.cls.FromString(message.data), indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Wire:
        request = message_class()
        try:
            json_format.Parse(bytes(data), request, ignore_unknown_fields=True)
        except (json_format.ParseError, ValueError, RecursionError) as exc:
            name = message_class.DESCRIPTOR.full_name
            problem = MalformedMessage(f"the request is not a {name} (proto3 JSON)", message=name)
            raise connect_error(to_status(problem)) from exc
        return Wire(request.SerializeToString(), message_class)


def connect_error(status: status_pb2.Status) -> ConnectError:
    """The Connect error of a google.rpc.Status: its code, message and details (ErrorInfo, RetryInfo)."""
    details = [ErrorDetail(AnyDetail(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(_CODE_OF.get(status.code, Code.INTERNAL), status.message, details)


def _status(exc: grpc.aio.AioRpcError) -> status_pb2.Status:
    for key, value in exc.trailing_metadata() or ():
        if key == STATUS_DETAILS and isinstance(value, bytes):
            return status_pb2.Status.FromString(value)
    return status_pb2.Status(code=exc.code().value[0], message=exc.details() or "")


def protocol(content_type: str) -> tuple[str, str]:
    """(protocol, codec) of a request's content type, for flotilla_browser_calls_total."""
    kind = "grpc_web" if content_type.startswith("application/grpc-web") else "connect"
    if content_type.startswith("application/grpc") and kind == "connect":
        kind = "grpc"
    return kind, "json" if "json" in content_type else "proto"


class Forwarder:
    """Builds the endpoints: each forwards its calls to the gateway's gRPC server over `channel`."""

    def __init__(self, channel: grpc.aio.Channel, key: str) -> None:
        self.channel = channel
        self.key = key

    def metadata(self, ctx: RequestContext[Any, Any]) -> list[tuple[str, str]]:
        """The gRPC call's metadata (and the call counted by protocol, see `protocol`)."""
        headers = ctx.request_headers
        metrics.BROWSER_CALLS.labels(*protocol(headers.get("content-type", ""))).inc()
        metadata = [(name, value) for name in FORWARDED_HEADERS for value in headers.getall(name)]
        host, _, port = (ctx.client_address or "").rpartition(":")
        peer = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        metadata.append((BRIDGE_HEADER, f"{self.key} {peer}"))
        return metadata

    @staticmethod
    def timeout(ctx: RequestContext[Any, Any]) -> float | None:
        remaining = ctx.timeout_ms
        return None if remaining is None else max(remaining, 0.0) / 1000

    def unary(self, path: str, out: type[Message]) -> Callable[[Wire, RequestContext[Any, Any]], Awaitable[Wire]]:
        call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = self.channel.unary_unary(path)

        async def forward(request: Wire, ctx: RequestContext[Any, Any]) -> Wire:
            try:
                data: bytes = await call(request.data, metadata=self.metadata(ctx), timeout=self.timeout(ctx))
            except grpc.aio.AioRpcError as exc:
                raise connect_error(_status(exc)) from None
            return Wire(data, out)

        return forward

    def server_stream(
        self, path: str, out: type[Message]
    ) -> Callable[[Wire, RequestContext[Any, Any]], AsyncIterator[Wire]]:
        call: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = self.channel.unary_stream(path)

        async def forward(request: Wire, ctx: RequestContext[Any, Any]) -> AsyncIterator[Wire]:
            stream = call(request.data, metadata=self.metadata(ctx), timeout=self.timeout(ctx))
            try:
                async for data in stream:
                    yield Wire(data, out)
            except grpc.aio.AioRpcError as exc:
                raise connect_error(_status(exc)) from None
            finally:
                stream.cancel()  # the browser went away (or the stream ended): end the gRPC call too

        return forward

    def endpoints(self, services: Iterable[ServiceDescriptor]) -> Endpoints:
        """`/<service>/<method>` -> endpoint, for every unary and server-streaming method."""
        found: dict[str, Any] = {}
        for service in services:
            for method in service.methods:
                if method.client_streaming:
                    continue  # Play: half-duplex over HTTP/2 only; not served yet
                path = f"/{service.full_name}/{method.name}"
                stream = method.server_streaming
                info: MethodInfo[Any, Any] = MethodInfo(
                    name=method.name,
                    service_name=service.full_name,
                    input=_class(method.input_type),
                    output=_class(method.output_type),
                    idempotency_level=IdempotencyLevel.UNKNOWN,
                    stream_type=StreamType.SERVER_STREAM if stream else StreamType.UNARY,
                )
                out = _class(method.output_type)
                found[path] = (
                    Endpoint.server_stream(info, self.server_stream(path, out))
                    if stream
                    else Endpoint.unary(info, self.unary(path, out))
                )
        return found


def _class(descriptor: Descriptor) -> type[Message]:
    return message_factory.GetMessageClass(descriptor)


class BridgeApp(ConnectASGIApplication[Mapping[str, Any]]):
    """connectrpc's ASGI application over a ready mapping of endpoints (all services in one)."""

    def __init__(self, endpoints: Endpoints) -> None:
        super().__init__(
            service=endpoints,
            endpoints=lambda found: found,
            codecs=[BinaryCodec(), JsonCodec()],
            read_max_bytes=MAX_MESSAGE_BYTES,
        )

    @property
    def path(self) -> str:
        return "/"


@dataclass
class Browser:
    """A running browser listener: its port, and how to stop it."""

    port: int
    channel: grpc.aio.Channel
    stop_serving: asyncio.Event
    task: asyncio.Task[None]
    bridge: Bridge

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking connections, give running calls `grace` seconds, close the channel."""
        self.stop_serving.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self.task), grace)
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        await self.channel.close()
        self.bridge.remove()


@dataclass(frozen=True, slots=True)
class Bridge:
    """The gRPC server's private address for the bridge: a unix socket in a fresh 0700 directory,
    and the random key the bridge sends with each call (gateway/peers.py trusts it)."""

    directory: str
    key: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    @classmethod
    def make(cls) -> Bridge:
        return cls(tempfile.mkdtemp(prefix="flotilla-bridge-"))

    @property
    def target(self) -> str:
        return f"unix:{self.directory}/grpc.sock"

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def listen(bind: str, reuseport: bool) -> socket.socket:
    """A listening TCP socket on `bind` (`host:port`, `[v6]:port`; port 0 picks one), SO_REUSEPORT
    when the gateway's own port has it (the processes of one `flotilla gateway`); OSError when taken."""
    host, _, port = bind.rpartition(":")
    host = host.strip("[]")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, int(port)), family=family, backlog=BACKLOG, reuse_port=reuseport)


async def start_browser(
    sock: socket.socket,
    bridge: Bridge,
    services: Iterable[ServiceDescriptor],
    cors_origins: str,
    tls: CertificateFiles | None = None,
    page: PageConfig | None = None,
    body_timeout_s: float = 30.0,
) -> Browser:
    """Serve `services` to browsers on `sock`, forwarding to the gRPC server at `bridge`; over TLS (ALPN
    h2 and http/1.1) with the gateway's certificate when it has one (no client certificates:
    browsers authenticate with their session token). `page`: the web client's /config.json and CSP.
    `body_timeout_s`: each request's whole body within this (gateway/body_deadline.py)."""
    channel = grpc.aio.insecure_channel(
        bridge.target,
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )
    endpoints = Forwarder(channel, bridge.key).endpoints(services)
    page = page or PageConfig()
    files = {**bundle(), CONFIG_PATH: page.file()}
    app = BodyDeadline(
        Cors(Static(BridgeApp(endpoints), files, endpoints.keys(), page.policy()), cors_origins), body_timeout_s
    )
    config = Config()
    config.accesslog = None
    config.errorlog = None
    config.graceful_timeout = 1.0
    config.backlog = BACKLOG
    if tls is not None:
        config.certfile, config.keyfile = tls.cert_file, tls.key_file
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # accepted sockets inherit it
    sock.setblocking(False)
    stop_serving = asyncio.Event()
    task = asyncio.create_task(
        worker_serve(
            wrap_app(cast(Any, app), config.wsgi_max_body_size, "asgi"),
            config,
            sockets=Sockets(secure_sockets=[sock], insecure_sockets=[], quic_sockets=[])
            if tls is not None
            else Sockets(secure_sockets=[], insecure_sockets=[sock], quic_sockets=[]),
            shutdown_trigger=stop_serving.wait,
        )
    )
    port: int = sock.getsockname()[1]
    log.info("gateway.browser_started", port=port)
    return Browser(port, channel, stop_serving, task, bridge)
