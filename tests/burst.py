"""Bursts of stream opens against one gateway from several client processes.

Used by tests/gateway/test_admission.py and bench/admission.py. Each client process opens its
share of the streams at once over a few channels and records, per stream, whether it opened
(its first message arrived) or how it failed. Once every stream has settled it tells the
parent, keeps the open streams running (counting any that fail later) until the parent
releases it, then reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc
from flotilla_client import FlotillaClient, FlotillaError


@dataclass(frozen=True)
class Burst:
    """What each client process opens: `count` streams of `method` on `names` (round robin)."""

    target: str
    method: str  # "WatchGame", "WatchRoom", or "sdk" (FlotillaClient.watch on games)
    names: list[str]
    token: str
    count: int
    channels: int = 4
    settle_timeout_s: float = 60.0


@dataclass
class Report:
    """What happened to the streams of a burst (summed over processes)."""

    opened: int = 0
    failed: Counter[str] = field(default_factory=Counter)  # "CODE reason: details" -> streams
    dropped_after_open: Counter[str] = field(default_factory=Counter)
    unsettled: int = 0
    open_s: list[float] = field(default_factory=list)  # from the burst's start to each stream's first message

    def add(self, other: Report) -> None:
        self.opened += other.opened
        self.failed.update(other.failed)
        self.dropped_after_open.update(other.dropped_after_open)
        self.unsettled += other.unsettled
        self.open_s.extend(other.open_s)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.open_s)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def describe(error: grpc.aio.AioRpcError) -> str:
    """`CODE REASON: details` of a failed call (the ErrorInfo reason when there is one)."""
    reason = ""
    status = rpc_status.from_call(error)
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason = info.reason
    return f"{error.code().name} {reason}: {(error.details() or '')[:80]}"


class _Streams:
    def __init__(self, burst: Burst) -> None:
        self.burst = burst
        self.report = Report()
        self.settled = 0
        self.all_settled = asyncio.Event()
        self.t0 = 0.0

    def _settle(self) -> None:
        self.settled += 1
        if self.settled == self.burst.count:
            self.all_settled.set()

    def _opened(self) -> None:
        self.report.opened += 1
        self.report.open_s.append(time.perf_counter() - self.t0)
        self._settle()

    async def raw(self, channel: grpc.aio.Channel, i: int) -> None:
        name = self.burst.names[i % len(self.burst.names)]
        metadata = (("authorization", f"Bearer {self.burst.token}"),)
        call: Any
        if self.burst.method == "WatchRoom":
            stub: Any = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
            call = stub.WatchRoom(lobby_service_pb2.WatchRoomRequest(room=name), metadata=metadata)
        else:
            stub = game_service_pb2_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]
            call = stub.WatchGame(game_service_pb2.WatchGameRequest(game=name), metadata=metadata)
        is_open = False
        try:
            async for _message in call:
                if not is_open:
                    is_open = True
                    self._opened()
            raise AssertionError("the stream ended")
        except grpc.aio.AioRpcError as error:
            if is_open:
                self.report.dropped_after_open[describe(error)] += 1
            else:
                self.report.failed[describe(error)] += 1
                self._settle()

    async def sdk(self, client: Any, i: int) -> None:
        is_open = False
        try:
            async for _update in client.watch(self.burst.names[i % len(self.burst.names)]):
                if not is_open:
                    is_open = True
                    self._opened()
        except FlotillaError as error:
            key = f"{error.code.name} {error.reason}: {error.message[:80]}"
            if is_open:
                self.report.dropped_after_open[key] += 1
            else:
                self.report.failed[key] += 1
                self._settle()


async def _client(burst: Burst, settled: Any, release: Any) -> Report:
    streams = _Streams(burst)
    closers: list[Callable[[], Any]] = []
    tasks: list[asyncio.Task[None]] = []
    streams.t0 = time.perf_counter()
    if burst.method == "sdk":
        clients = [FlotillaClient(burst.target) for _ in range(burst.channels)]
        for client in clients:
            client.session_token = burst.token
            closers.append(client.close)
        tasks = [asyncio.create_task(streams.sdk(clients[i % len(clients)], i)) for i in range(burst.count)]
    else:
        channels = [
            grpc.aio.insecure_channel(burst.target, options=[("grpc.use_local_subchannel_pool", 1)])
            for _ in range(burst.channels)
        ]
        closers = [c.close for c in channels]
        tasks = [asyncio.create_task(streams.raw(channels[i % len(channels)], i)) for i in range(burst.count)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(streams.all_settled.wait(), burst.settle_timeout_s)
    streams.report.unsettled = burst.count - streams.settled
    settled.put(streams.report.opened)
    await asyncio.get_running_loop().run_in_executor(None, release.wait)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for close in closers:
        await close()
    return streams.report


def _process(burst: Burst, settled: Any, release: Any, results: Any) -> None:
    results.put(asyncio.run(_client(burst, settled, release)))


def run_burst(burst: Burst, processes: int, while_open: Callable[[int], None], timeout_s: float = 120.0) -> Report:
    """Open `burst.count` streams in each of `processes` client processes; once every stream has
    settled, call `while_open(streams opened)` with them still open; then close them all."""
    context = multiprocessing.get_context("spawn")
    settled, results, release = context.Queue(), context.Queue(), context.Event()
    procs = [context.Process(target=_process, args=(burst, settled, release, results)) for _ in range(processes)]
    for proc in procs:
        proc.start()
    report = Report()
    try:
        opened = sum(settled.get(timeout=timeout_s) for _ in procs)
        while_open(opened)
    finally:
        release.set()
        for _ in procs:
            report.add(results.get(timeout=timeout_s))
        for proc in procs:
            proc.join(timeout_s)
    return report
