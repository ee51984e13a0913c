"""The browser listener's cost per call, against direct gRPC, in one run.

Usage: python bench/browser_hop.py [--calls N] [--rounds R]. Starts a redis-server and one
in-process gateway with FLOTILLA_BROWSER_BIND on 127.0.0.1, then times N sequential calls of
CatalogService.ListGameKinds (small) and GetCatalog(port_royal) (the largest response) over:
gRPC (grpc.aio), Connect binary, Connect JSON and gRPC-Web (httpx, HTTP/1.1 keep-alive). The
transports take turns, R rounds; the median round is reported. The httpx client's own cost is in
the browser figures (a browser's fetch costs the server nothing of it), so they are an upper bound
on the hop's cost.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import struct
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import httpx

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.api.catalog.v1 import catalog_service_pb2_grpc as pb_grpc
from flotilla.gateway.server import start_gateway
from flotilla.redis_server import RedisServer
from flotilla.settings import Settings

SERVICE = "/flotilla.api.catalog.v1.CatalogService"


def envelope(data: bytes) -> bytes:
    return struct.pack(">BI", 0, len(data)) + data


async def run(calls: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp), aof=False).start()
        settings = Settings(
            redis_url=redis.url, secret="bench-browser-" + "b" * 32, bind="127.0.0.1:0", browser_bind="127.0.0.1:0"
        )
        gateway = await start_gateway(settings)
        assert gateway.browser is not None
        url = f"http://127.0.0.1:{gateway.browser.port}"
        try:
            async with (
                grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel,
                httpx.AsyncClient(base_url=url) as http,
            ):
                stub = pb_grpc.CatalogServiceStub(channel)
                for method, request in (
                    ("ListGameKinds", pb.ListGameKindsRequest()),
                    ("GetCatalog", pb.GetCatalogRequest(kind="port_royal")),
                ):
                    body = request.SerializeToString()
                    json_body = b'{"kind": "port_royal"}' if method == "GetCatalog" else b"{}"
                    path = f"{SERVICE}/{method}"

                    async def grpc_call(method: str = method, request: object = request) -> None:
                        await getattr(stub, method)(request)

                    async def connect_proto(path: str = path, body: bytes = body) -> None:
                        reply = await http.post(path, content=body, headers={"content-type": "application/proto"})
                        assert reply.status_code == 200

                    async def connect_json(path: str = path, body: bytes = json_body) -> None:
                        reply = await http.post(path, content=body, headers={"content-type": "application/json"})
                        assert reply.status_code == 200

                    async def grpc_web(path: str = path, body: bytes = body) -> None:
                        reply = await http.post(
                            path, content=envelope(body), headers={"content-type": "application/grpc-web+proto"}
                        )
                        assert reply.status_code == 200

                    transports: dict[str, Callable[[], Awaitable[None]]] = {
                        "gRPC": grpc_call,
                        "Connect binary": connect_proto,
                        "Connect JSON": connect_json,
                        "gRPC-Web": grpc_web,
                    }
                    times: dict[str, list[float]] = {name: [] for name in transports}
                    for call in transports.values():
                        await call()  # warm
                    for _ in range(rounds):
                        for name, call in transports.items():
                            start = time.perf_counter()
                            for _ in range(calls):
                                await call()
                            times[name].append((time.perf_counter() - start) / calls * 1e6)
                    base = statistics.median(times["gRPC"])
                    for name, taken in times.items():
                        per_call = statistics.median(taken)
                        print(f"| {method} | {name} | {per_call:.0f} | {per_call / base:.2f} |")
        finally:
            await gateway.stop(0)
            redis.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print("| call | transport | µs per call | × gRPC |")
    print("| --- | --- | ---: | ---: |")
    asyncio.run(run(args.calls, args.rounds))


if __name__ == "__main__":
    main()
