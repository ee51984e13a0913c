"""CatalogService cost per call over loopback, against the cost of encoding its response.

Usage: python bench/catalog.py [--calls N]. Starts a redis-server and one in-process gateway on
127.0.0.1, then times N sequential GetCatalog calls per kind and N ListGameKinds calls, and N
serialisations of each cached response in the same process: how much a bytes cache would save.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import grpc

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.api.catalog.v1 import catalog_service_pb2_grpc as pb_grpc
from flotilla.gateway import catalog_servicer
from flotilla.gateway.server import start_gateway
from flotilla.redis_server import RedisServer
from flotilla.settings import Settings

KINDS = ("port_royal", "sail_away", "pirates_of_nassau", "navegador")


async def run(calls: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        redis = RedisServer(Path(tmp), aof=False).start()
        try:
            settings = Settings(redis_url=redis.url, secret="bench-catalog-" + "b" * 32, bind="127.0.0.1:0")
            gateway = await start_gateway(settings)
            try:
                async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
                    stub = pb_grpc.CatalogServiceStub(channel)
                    print("| call | bytes | µs per call | µs to serialise | share |")
                    print("| --- | ---: | ---: | ---: | ---: |")
                    for kind in KINDS:
                        request = pb.GetCatalogRequest(kind=kind)
                        await stub.GetCatalog(request)  # warm: built and cached
                        start = time.perf_counter()
                        for _ in range(calls):
                            await stub.GetCatalog(request)
                        per_call = (time.perf_counter() - start) / calls * 1e6
                        response = catalog_servicer._catalog_response(kind)
                        start = time.perf_counter()
                        for _ in range(calls):
                            size = len(response.SerializeToString())
                        per_encode = (time.perf_counter() - start) / calls * 1e6
                        share = per_encode / per_call
                        print(f"| GetCatalog {kind} | {size} | {per_call:.0f} | {per_encode:.1f} | {share:.1%} |")
                    start = time.perf_counter()
                    for _ in range(calls):
                        await stub.ListGameKinds(pb.ListGameKindsRequest())
                    print(f"| ListGameKinds | | {(time.perf_counter() - start) / calls * 1e6:.0f} | | |")
            finally:
                await gateway.stop(0)
        finally:
            redis.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    asyncio.run(run(parser.parse_args().calls))


if __name__ == "__main__":
    main()
