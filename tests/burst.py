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
import uuid
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
from flotilla_client.client import retry_after, retry_pause_s


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
    retry: bool = False  # raw stubs: retry OVERLOADED refusals as the SDK does
    in_flight: int = 0  # raw stubs: at most this many opens under way at once per process (0: all at once)


@dataclass
class Report:
    """What happened to the streams of a burst (summed over processes)."""

    opened: int = 0
    failed: Counter[str] = field(default_factory=Counter)  # "CODE reason: details" -> streams
    dropped_after_open: Counter[str] = field(default_factory=Counter)
    unsettled: int = 0
    retries: int = 0
    later_messages: int = 0  # messages after the first (heartbeats of idle streams)
    open_s: list[float] = field(default_factory=list)  # from the burst's start to each stream's first message

    def add(self, other: Report) -> None:
        self.opened += other.opened
        self.failed.update(other.failed)
        self.dropped_after_open.update(other.dropped_after_open)
        self.unsettled += other.unsettled
        self.retries += other.retries
        self.later_messages += other.later_messages
        self.open_s.extend(other.open_s)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.open_s)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def prepare(target: str, method: str, rooms: int = 1) -> tuple[str, list[str]]:
    """A watcher's session token and what to watch: one new game (WatchGame, sdk) or `rooms`
    new public rooms (WatchRoom), made by another user."""
    async with grpc.aio.insecure_channel(target) as channel:
        host, watcher = FlotillaClient(target), FlotillaClient(target)
        await host.sign_in("host")
        await watcher.sign_in("watcher")
        await watcher.close()
        if method != "WatchRoom":
            game = await host.create_game("counter", 2)
            await host.close()
            return watcher.session_token, [game.name]
        await host.close()
        lobby: Any = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
        metadata = (("authorization", f"Bearer {host.session_token}"),)
        names: list[str] = []
        while len(names) < rooms:
            made = await asyncio.gather(
                *(
                    lobby.CreateRoom(
                        lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id=uuid.uuid4().hex),
                        metadata=metadata,
                    )
                    for _ in range(min(50, rooms - len(names)))
                )
            )
            names += [m.room.name for m in made]
        return watcher.session_token, names


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
        self.slots = asyncio.Semaphore(burst.in_flight or burst.count)

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
        attempt = 0
        while True:
            call: Any
            await self.slots.acquire()  # before the call: grpc starts it as soon as it is made
            if self.burst.method == "WatchRoom":
                stub: Any = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
                call = stub.WatchRoom(lobby_service_pb2.WatchRoomRequest(room=name), metadata=metadata)
            else:
                stub = game_service_pb2_grpc.GameServiceStub(channel)  # type: ignore[no-untyped-call]
                call = stub.WatchGame(game_service_pb2.WatchGameRequest(game=name), metadata=metadata)
            is_open = False
            try:
                async for _message in call:
                    if is_open:
                        self.report.later_messages += 1
                    else:
                        is_open = True
                        self.slots.release()
                        self._opened()
                raise AssertionError("the stream ended")
            except grpc.aio.AioRpcError as error:
                if not is_open:
                    self.slots.release()
                if is_open:
                    self.report.dropped_after_open[describe(error)] += 1
                    return
                delay = retry_after(error) if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED else None
                if not self.burst.retry or delay is None:
                    self.report.failed[describe(error)] += 1
                    self._settle()
                    return
                self.report.retries += 1
                attempt += 1
                await asyncio.sleep(retry_pause_s(attempt, delay))

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
