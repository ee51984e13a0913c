"""Wrapping a grpc method handler's behaviour (what the interceptors share)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import grpc

Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"  # generic only in the type stubs

_MAKERS = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


def behavior_of(handler: Handler) -> Any:
    """The function that serves the handler's calls, whichever of the four kinds it is."""
    if handler.response_streaming:
        return handler.stream_stream if handler.request_streaming else handler.unary_stream
    return handler.stream_unary if handler.request_streaming else handler.unary_unary


def rewrap(handler: Handler, behavior: Callable[..., Any]) -> Handler:
    """A handler of the same kind and codec as `handler` that serves its calls with `behavior`."""
    make = _MAKERS[(handler.request_streaming, handler.response_streaming)]
    wrapped: Handler = make(
        behavior, request_deserializer=handler.request_deserializer, response_serializer=handler.response_serializer
    )
    return wrapped
