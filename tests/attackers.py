"""Hostile clients of one gateway, run in a process of their own (so their CPU is not the victim's).

`Running(attack)` starts a spawned process that, from one client address:

* opens `silent` `Play` calls over `connections` connections (one by default) and never sends a
  message on them;
* once told to go (`Running.go`, when the test sees the gateway hold them), sends over a second
  connection unary calls whose bearer token names a new, forged `kid` each time, at
  `forged_per_s` for `seconds`, then sets `Running.done`;

and reports how each call ended (status code, ErrorInfo reason and `limit`) and when.
Used by tests/gateway/test_hostile_admission.py.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event

import grpc
import jwt
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from flotilla.api.game.v1 import game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc

OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # grpc shares connections between channels otherwise


@dataclass(frozen=True)
class Attack:
    target: str
    silent: int = 1000
    connections: int = 1  # the silent calls' connections (round robin)
    forged_per_s: float = 1000.0
    seconds: float = 4.0
    timeout_s: float = 60.0  # every call is given up after this


@dataclass
class AttackReport:
    """Outcomes: "CODE reason limit" -> count; the silent calls' end times from their start."""

    silent: Counter[str] = field(default_factory=Counter)
    silent_ended_s: dict[str, list[float]] = field(default_factory=dict)
    forged: Counter[str] = field(default_factory=Counter)
    forged_sent: int = 0
    forged_span_s: float = 0.0  # from the first forged call sent to the last
    forged_slowest_s: float = 0.0


def outcome(error: grpc.aio.AioRpcError) -> str:
    """How a call ended: "CODE", then the ErrorInfo reason and `limit` when it has them."""
    reason, limit = "", ""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason, limit = info.reason, info.metadata.get("limit", "")
    return " ".join(filter(None, (error.code().name, reason, limit)))


def _forged_token() -> str:
    claims = {"sub": "mallory", "iss": "flotilla", "aud": "flotilla", "exp": int(time.time()) + 600}
    return jwt.encode(claims, b"x" * 32, algorithm="HS256", headers={"kid": f"forged-{uuid.uuid4().hex[:12]}"})


async def _silent(attack: Attack, report: AttackReport) -> None:
    channels = [grpc.aio.insecure_channel(attack.target, options=OWN_CONNECTION) for _ in range(attack.connections)]
    try:
        stubs = [game_service_pb2_grpc.GameServiceStub(c) for c in channels]  # type: ignore[no-untyped-call]
        start = time.monotonic()
        calls = [stubs[i % len(stubs)].Play(timeout=attack.timeout_s) for i in range(attack.silent)]  # no message, ever

        async def ended(call: grpc.aio.StreamStreamCall) -> None:  # type: ignore[type-arg]
            try:
                await call.read()
                what = "ANSWERED"
            except grpc.aio.AioRpcError as error:
                what = outcome(error)
            report.silent[what] += 1
            report.silent_ended_s.setdefault(what, []).append(time.monotonic() - start)

        await asyncio.gather(*(ended(call) for call in calls))
    finally:
        for channel in channels:
            await channel.close()


async def _forged(attack: Attack, report: AttackReport, go: Event, done: Event) -> None:
    tokens = [_forged_token() for _ in range(int(attack.forged_per_s * attack.seconds))]
    await asyncio.to_thread(go.wait, attack.timeout_s)
    request = lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2)
    async with grpc.aio.insecure_channel(attack.target, options=OWN_CONNECTION) as channel:
        lobby = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]

        async def one(token: str) -> None:
            began = time.monotonic()
            try:
                await lobby.CreateRoom(
                    request, metadata=(("authorization", f"Bearer {token}"),), timeout=attack.timeout_s
                )
                report.forged["OK"] += 1
            except grpc.aio.AioRpcError as error:
                report.forged[outcome(error)] += 1
            report.forged_slowest_s = max(report.forged_slowest_s, time.monotonic() - began)

        sent: list[asyncio.Task[None]] = []
        start = time.monotonic()
        for i, token in enumerate(tokens):  # paced: token i leaves at i / rate
            delay = start + i / attack.forged_per_s - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            sent.append(asyncio.create_task(one(token)))
        report.forged_sent, report.forged_span_s = len(sent), time.monotonic() - start
        await asyncio.gather(*sent)
    done.set()


async def _run(attack: Attack, go: Event, done: Event) -> AttackReport:
    report = AttackReport()
    await asyncio.gather(_silent(attack, report), _forged(attack, report, go, done))
    return report


def _process(attack: Attack, go: Event, done: Event, results: multiprocessing.Queue[AttackReport]) -> None:
    results.put(asyncio.run(_run(attack, go, done)))


class Running:
    """An attack under way in its own process; `report()` waits for its end."""

    def __init__(self, attack: Attack) -> None:
        context = multiprocessing.get_context("spawn")
        self.go, self.done = context.Event(), context.Event()
        self.results: multiprocessing.Queue[AttackReport] = context.Queue()
        args = (attack, self.go, self.done, self.results)
        self.process = context.Process(target=_process, args=args, daemon=True)
        self.process.start()
        self.timeout_s = attack.timeout_s + 60

    def report(self) -> AttackReport:
        try:
            found = self.results.get(timeout=self.timeout_s)
        finally:
            self.process.join(10)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(5)
        return found
