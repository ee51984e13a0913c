"""Per-call cost of the call interceptor (gateway/interceptors.py), before/after in one run.

1. The wrapper alone: a unary SubmitAction-shaped handler that returns at once, called directly
   with and without the wrapper (binding request id and game, counting, timing).
2. Over loopback gRPC: a grpc.aio server answering SubmitAction with an empty response, with and
   without the interceptor installed; sequential calls from one client, rounds interleaved. Both
   servers also have a pass-through interceptor, as the gateway has admission control: what is
   measured is what this one adds.

Figures are this process's CPU time per call (`time.process_time`: client and server share the
process), the best of the rounds, so that other processes on a busy machine count less.

Run: .venv/bin/python bench/interceptor.py
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import grpc

from flotilla.api.game.v1 import game_service_pb2 as pb
from flotilla.gateway.interceptors import CallContext, _Method, _unary

DIRECT_N = 50_000
RPC_N = 2_000
ROUNDS = 5
METHOD = "/flotilla.api.game.v1.GameService/SubmitAction"
REQUEST = pb.SubmitActionRequest(game="games/" + "a" * 32, request_id="r" * 32, etag="1")


class _Context:
    """What the wrapper reads of a call's context: the code an abort set (none here)."""

    def code(self) -> None:
        return None


async def _answer(request: Any, context: Any) -> pb.SubmitActionResponse:
    return pb.SubmitActionResponse()


async def _direct(handler: Any) -> float:
    context = _Context()
    started = time.process_time()
    for _ in range(DIRECT_N):
        await handler(REQUEST, context)
    return (time.process_time() - started) / DIRECT_N * 1e6


class _PassThrough(grpc.aio.ServerInterceptor):
    async def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        return await continuation(details)


async def _server(intercepted: bool) -> tuple[grpc.aio.Server, int]:
    server = grpc.aio.server(interceptors=[CallContext(), _PassThrough()] if intercepted else [_PassThrough()])
    handler: grpc.RpcMethodHandler[Any, Any] = grpc.unary_unary_rpc_method_handler(
        _answer,
        request_deserializer=pb.SubmitActionRequest.FromString,
        response_serializer=pb.SubmitActionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("flotilla.api.game.v1.GameService", {"SubmitAction": handler}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    return server, port


async def _rpc(port: int) -> float:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        call = channel.unary_unary(
            METHOD,
            request_serializer=pb.SubmitActionRequest.SerializeToString,
            response_deserializer=pb.SubmitActionResponse.FromString,
        )
        for _ in range(100):
            await call(REQUEST)
        started = time.process_time()
        for _ in range(RPC_N):
            await call(REQUEST)
        return (time.process_time() - started) / RPC_N * 1e6


async def main() -> None:
    wrapped = _unary(_answer, _Method("GameService/SubmitAction"), reads=True)
    plain_us, wrapped_us = [], []
    for _ in range(ROUNDS):
        plain_us.append(await _direct(_answer))
        wrapped_us.append(await _direct(wrapped))
    p, w = min(plain_us), min(wrapped_us)
    print(f"wrapper alone: handler {p:.2f} µs, wrapped {w:.2f} µs, cost {w - p:.2f} µs per call")

    servers = [await _server(False), await _server(True)]
    without, with_ = [], []
    for _ in range(ROUNDS):
        without.append(await _rpc(servers[0][1]))
        with_.append(await _rpc(servers[1][1]))
    for server, _port in servers:
        await server.stop(0)
    a, b = min(without), min(with_)
    print(f"loopback unary call: without {a:.1f} µs, with {b:.1f} µs, cost {b - a:.1f} µs ({b / a:.3f}x)")


if __name__ == "__main__":
    asyncio.run(main())
