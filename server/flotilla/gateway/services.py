"""Registers servicers on a grpc.aio server from their service descriptors.

grpc's generated `add_*_to_server` decode requests with `FromString`, which raises on a body
that is not the message (or has a string that is not UTF-8) before any of our code runs, and
grpc answers UNKNOWN with the exception's text. Here every method gets a decoder that never
raises: a body it cannot decode becomes `Malformed`, which the method's handler answers with
INVALID_ARGUMENT / MALFORMED_MESSAGE. Streamed requests are checked one by one as they arrive.
A streaming method decorated with `maps_stream_errors` has its errors mapped here, in the same
generator (gateway/errors.py `unmapped_stream`): each layer is a frame per open stream.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, NoReturn

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import Message

from flotilla.app.errors import InvalidRequest, MalformedMessage
from flotilla.gateway.errors import abort, map_error, unmapped_stream
from flotilla.gateway.field_limits import checker, refusal
from flotilla.gateway.wire_limits import over_limits
from flotilla.loop_lag import name_task

Context = grpc.aio.ServicerContext[Any, Any]


class Malformed:
    """What a request body that is not the method's message decodes to, or one with a field over
    its documented maximum (gateway/field_limits.py): refused before any work."""

    __slots__ = ("message", "problem")

    def __init__(self, message: str, problem: InvalidRequest | None = None) -> None:
        self.message = message
        self.problem = problem

    def error(self) -> InvalidRequest:
        if self.problem is not None:
            return self.problem
        return MalformedMessage(
            f"the request is not a {self.message} (protobuf wire format, UTF-8 strings)", message=self.message
        )


def _decoder(method: MethodDescriptor) -> Callable[[bytes], Message | Malformed]:
    cls = message_factory.GetMessageClass(method.input_type)
    name = method.input_type.full_name
    check = checker(method.input_type)
    task_name = f"{method.containing_service.name}/{method.name}"

    def decode(data: bytes) -> Message | Malformed:
        name_task(task_name)  # a stall of the loop in this call is logged with it (flotilla/loop_lag.py)
        refused = over_limits(data, method.input_type)  # before the message is built
        if refused is not None:
            return Malformed(name, refused)
        try:
            request = cls.FromString(data)
        except Exception:  # DecodeError, bad UTF-8, nesting too deep: all of them the client's doing
            return Malformed(name)
        problem = check(request)
        if problem is not None:
            return Malformed(name, refusal(problem))
        return request

    return decode


class _Requests:
    """A request stream as a handler reads it: a malformed request ends the call with its status.

    The handler may read in its own task (the error is raised there) or in a task of its own
    (the error ends that task, and the call's task is cancelled if it is waiting on the handler,
    or answers at its next step otherwise).
    """

    def __init__(self, requests: AsyncIterator[Any], rpc: asyncio.Task[Any]) -> None:
        self.requests = requests
        self.rpc = rpc
        self.bad: InvalidRequest | None = None
        self.inside = True  # the call's task is waiting on the handler (not sending a response)
        self.cancelled = False

    async def checked(self) -> AsyncIterator[Any]:
        async for request in self.requests:
            if isinstance(request, Malformed):
                self.bad = request.error()
                if asyncio.current_task() is not self.rpc and self.inside and not self.cancelled:
                    self.cancelled = True
                    self.rpc.cancel()
                raise self.bad
            yield request

    async def refuse(self, context: Context, bad: InvalidRequest) -> NoReturn:
        if self.cancelled:
            self.rpc.uncancel()
            self.cancelled = False
        await abort(context, bad)


def _unary_unary(behaviour: Callable[[Any, Context], Awaitable[Any]]) -> Callable[[Any, Context], Awaitable[Any]]:
    async def handle(request: Any, context: Context) -> Any:
        if isinstance(request, Malformed):
            await abort(context, request.error())
        return await behaviour(request, context)

    return handle


def _unary_stream(behaviour: Callable[[Any, Context], Any]) -> Callable[[Any, Context], Any]:
    if not inspect.isasyncgenfunction(behaviour):  # a coroutine that answers with context.write
        return _unary_unary(behaviour)

    inner = unmapped_stream(behaviour)
    method = behaviour if inner is None else inner

    async def handle(request: Any, context: Context) -> AsyncIterator[Any]:
        if isinstance(request, Malformed):
            await abort(context, request.error())
        try:
            async for response in method(request, context):
                yield response
        except Exception as exc:
            if inner is None:
                raise
            await map_error(context, exc)

    return handle


def _stream_unary(behaviour: Callable[[Any, Context], Awaitable[Any]]) -> Callable[[Any, Context], Awaitable[Any]]:
    async def handle(requests: AsyncIterator[Any], context: Context) -> Any:
        rpc = asyncio.current_task()
        assert rpc is not None
        stream = _Requests(requests, rpc)
        try:
            return await behaviour(stream.checked(), context)
        except (asyncio.CancelledError, InvalidRequest):
            if stream.bad is None:
                raise
            await stream.refuse(context, stream.bad)

    return handle


def _stream_stream(behaviour: Callable[[Any, Context], Any]) -> Callable[[Any, Context], Any]:
    if not inspect.isasyncgenfunction(behaviour):  # a coroutine that answers with context.write
        return _stream_unary(behaviour)

    inner = unmapped_stream(behaviour)
    method = behaviour if inner is None else inner

    async def handle(requests: AsyncIterator[Any], context: Context) -> AsyncIterator[Any]:
        rpc = asyncio.current_task()
        assert rpc is not None
        stream = _Requests(requests, rpc)
        responses = aiter(method(stream.checked(), context))
        try:
            while stream.bad is None:
                stream.inside = True
                try:
                    response = await anext(responses)
                except StopAsyncIteration:
                    break
                except asyncio.CancelledError:
                    if stream.bad is None:
                        raise
                    break
                except Exception as exc:
                    if stream.bad is not None and isinstance(exc, InvalidRequest):
                        break
                    if inner is None:
                        raise
                    await map_error(context, exc)
                finally:
                    stream.inside = False
                yield response
            if stream.bad is not None:
                await stream.refuse(context, stream.bad)
        finally:
            close = getattr(responses, "aclose", None)
            if close is not None:
                await close()  # the handler's own cleanup runs now, not when collected

    return handle


def _encoder(serialize: Callable[[Message], bytes]) -> Callable[[Message | bytes], bytes]:
    """A method's response serializer: a message is serialized, bytes (a response the handler
    serialized itself, e.g. a stream's cached update: gateway/update_bytes.py) pass as they are."""

    def encode(response: Message | bytes) -> bytes:
        return response if type(response) is bytes else serialize(response)  # type: ignore[arg-type]

    return encode


def handlers(service: ServiceDescriptor, servicer: object) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
    """The method handlers of `service`, implemented by `servicer`'s methods of the same names."""
    out: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for method in service.methods:
        behaviour = getattr(servicer, method.name)
        decode = _decoder(method)
        encode = _encoder(message_factory.GetMessageClass(method.output_type).SerializeToString)
        if method.client_streaming and method.server_streaming:
            out[method.name] = grpc.stream_stream_rpc_method_handler(
                _stream_stream(behaviour), request_deserializer=decode, response_serializer=encode
            )
        elif method.client_streaming:
            out[method.name] = grpc.stream_unary_rpc_method_handler(
                _stream_unary(behaviour), request_deserializer=decode, response_serializer=encode
            )
        elif method.server_streaming:
            out[method.name] = grpc.unary_stream_rpc_method_handler(
                _unary_stream(behaviour), request_deserializer=decode, response_serializer=encode
            )
        else:
            out[method.name] = grpc.unary_unary_rpc_method_handler(
                _unary_unary(behaviour), request_deserializer=decode, response_serializer=encode
            )
    return out


def add_services(server: grpc.aio.Server, services: Iterable[tuple[ServiceDescriptor, object]]) -> None:
    """Register each (service descriptor, servicer) on `server` (what generated `add_*_to_server` do)."""
    for service, servicer in services:
        methods = handlers(service, servicer)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, methods),))
        server.add_registered_method_handlers(service.full_name, methods)
