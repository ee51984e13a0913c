"""Hostile clients cannot take a gateway from the others (issue 23: points 1, 2, and 8's stream cap).

Real processes at the production limits (`FLOTILLA_LIMITS` empty, every admission setting at its
default): a fresh redis-server and one gateway listening on `[::]`, so that 127.0.0.1 and ::1 are
two client addresses without any forwarding header. The attacker runs in a process of its own
(tests/attackers.py) from 127.0.0.1; the victim calls from ::1 in this process.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Iterator
from multiprocessing.synchronize import Event

import grpc
import pytest
import redis.asyncio as aioredis

from attackers import OWN_CONNECTION, Attack, Running, outcome
from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc
from flotilla.redis_server import RedisServer, free_port
from flotilla.store import keys
from flotilla_client.errors import retry_after
from support import Stack, scrape, start_stack, until, wait_for_gateway

pytestmark = [pytest.mark.redis, pytest.mark.timeout(150)]

PER_CONNECTION = "RESOURCE_EXHAUSTED ERROR_REASON_OVERLOADED starting_calls_per_connection"
PER_ADDRESS = "RESOURCE_EXHAUSTED ERROR_REASON_OVERLOADED starting_calls_per_address"
IDLE_CLOSED = "INVALID_ARGUMENT ERROR_REASON_INVALID_REQUEST"
# The gateway-wide answer to CPU exhaustion (every caller refused while grpc core's queue waits too
# long, with RetryInfo): on a loaded machine the flood can reach it; a client retries after the delay.
QUEUE_WAIT = "RESOURCE_EXHAUSTED ERROR_REASON_OVERLOADED queue_wait"
FORGED = "UNAUTHENTICATED ERROR_REASON_UNAUTHENTICATED"
QUOTA_STREAMS_PER_ADDRESS = "RESOURCE_EXHAUSTED ERROR_REASON_QUOTA_EXCEEDED streams_per_address"
STREAM_OPEN_TIMEOUT_S = 5.0  # the default of FLOTILLA_STREAM_OPEN_TIMEOUT_MS
STARTING_PER_CONNECTION = 100  # the default of FLOTILLA_MAX_STARTING_PER_CONNECTION
STARTING_PER_ADDRESS = 250  # the default of FLOTILLA_MAX_STARTING_PER_ADDRESS
# Forged-kid calls a second. The finding's rate is 1,000/s; this machine (2 shared cores) runs
# out of CPU near it under others' load, and the gateway then refuses every caller for its queue
# wait (the designed answer to overload, with RetryInfo). A third of it proves the same bound: at
# any rate over 100/s the old code held a place per forged call for the paced reload's second.
FORGED_PER_S = 300


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, int, str]]:
    """(the stack, the gateway's port, the Redis URL): one gateway on [::] at the default limits."""
    tmp = tmp_path_factory.mktemp("hostile")
    server = RedisServer(tmp / "redis", aof=False).start()
    stack = start_stack(server.url, tmp, gateways=0, workers=0, extra_env={"FLOTILLA_LIMITS": ""}, metrics=True)
    try:
        port = free_port()
        stack.gateway_procs.append(stack.start_gateway(f"[::]:{port}"))
        stack.gateways.append(f"127.0.0.1:{port}")
        wait_for_gateway(f"127.0.0.1:{port}")
        wait_for_gateway(f"[::1]:{port}")
        yield stack, port, server.url
    finally:
        stack.stop()
        server.stop()


def gateway_metric(stack: Stack, name: str) -> float:
    port = next(port for process, port in stack.metrics if process == "gateway")
    return sum(value for key, value in scrape(port).items() if key.startswith(name + "{"))


class Guest:
    """A signed-in guest on its own connection, with a game of its own."""

    def __init__(self, target: str) -> None:
        self.channel = grpc.aio.insecure_channel(target, options=OWN_CONNECTION)
        self.games = game_service_pb2_grpc.GameServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.lobby = lobby_service_pb2_grpc.LobbyServiceStub(self.channel)  # type: ignore[no-untyped-call]
        self.auth: tuple[tuple[str, str], ...] = ()
        self.game = ""

    async def start(self) -> Guest:
        stub = game_service_pb2_grpc.AuthServiceStub(self.channel)  # type: ignore[no-untyped-call]
        reply = await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="guest"), timeout=20)
        self.auth = (("authorization", f"Bearer {reply.session_token}"),)
        made = await self.games.CreateGame(
            game_service_pb2.CreateGameRequest(kind="counter", seat_count=2), metadata=self.auth, timeout=20
        )
        self.game = made.game.name
        return self

    async def calls_until(self, done: Event) -> list[tuple[bool, float]]:
        """ListRooms and GetGame, one after the other, until `done.is_set()`: (succeeded, seconds).

        Like the SDK, a call refused for the gateway's queue wait (CPU exhaustion, every caller
        alike) is retried after its RetryInfo delay, within 10 s; any other refusal fails it."""
        results: list[tuple[bool, float]] = []
        while not done.is_set() or len(results) < 20:
            began = time.perf_counter()
            ok = False
            while time.perf_counter() - began < 10:
                try:
                    if len(results) % 2:
                        await self.games.GetGame(game_service_pb2.GetGameRequest(game=self.game), timeout=10)
                    else:
                        await self.lobby.ListRooms(lobby_service_pb2.ListRoomsRequest(), metadata=self.auth, timeout=10)
                    ok = True
                    break
                except grpc.aio.AioRpcError as error:
                    if outcome(error) != QUEUE_WAIT:
                        break
                    await asyncio.sleep(retry_after(error) or 0.5)  # the server's RetryInfo delay
            results.append((ok, time.perf_counter() - began))
        return results


async def starting_places_until(stack: Stack, done: Event) -> list[float]:
    """The gateway's starting places held, sampled about five times a second until `done.is_set()`."""
    samples: list[float] = []
    while not done.is_set():
        samples.append(await asyncio.to_thread(gateway_metric, stack, "flotilla_gateway_calls_starting"))
        await asyncio.sleep(0.2)  # a sampling interval, not a wait for anything
    return samples


def p99(seconds: list[float]) -> float:
    return statistics.quantiles(seconds, n=100, method="inclusive")[98]


async def test_silent_streams_and_forged_kids_from_one_client_leave_the_gateway_to_the_others(
    gateway: tuple[Stack, int, str],
) -> None:
    """1,000 silent Play calls over one connection plus forged-kid calls (each a new kid) from
    127.0.0.1: the connection gets its share of starting places (100), the rest are refused at
    once; forged kids are refused without holding places; the victim's calls from ::1 succeed
    meanwhile; the silent streams are closed after the open timeout and their places are free."""
    stack, port, redis_url = gateway
    victim = await Guest(f"[::1]:{port}").start()
    play = victim.games.Play()  # an honest Play, opened at once: never closed for idling
    await play.write(game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=victim.game)))
    await asyncio.wait_for(play.read(), 20)
    loads_before = gateway_metric(stack, "flotilla_key_loads_total")
    attack = Attack(f"127.0.0.1:{port}", silent=1000, forged_per_s=FORGED_PER_S, seconds=3.0)
    running = Running(attack)
    try:

        async def silent_streams_held() -> bool:
            return gateway_metric(stack, "flotilla_gateway_calls_starting") >= STARTING_PER_CONNECTION

        await until(silent_streams_held, 60, "the gateway to hold the silent streams", every_s=0.05)
        running.go.set()
        sampled = asyncio.create_task(starting_places_until(stack, running.done))
        measured = await victim.calls_until(running.done)
        held = await sampled
        report = await asyncio.to_thread(running.report)
    finally:
        running.go.set()
    latencies = sorted(seconds for _, seconds in measured)
    succeeded = sum(ok for ok, _ in measured)
    print(  # the figures for the report; the assertions below are generous bounds for a loaded machine
        f"victim: {succeeded}/{len(measured)} ok, p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {p99(latencies) * 1000:.1f} ms; forged {report.forged_sent} sent in {report.forged_span_s:.1f} s, "
        f"slowest {report.forged_slowest_s * 1000:.0f} ms, {dict(report.forged)}; silent {dict(report.silent)}; "
        f"starting places held during the flood {held}"
    )
    # The victim was served all along.
    assert succeeded >= 0.99 * len(measured), measured
    assert p99(latencies) < 3.0  # a retry after a queue-wait refusal included (0.5-5 s RetryInfo)
    # One connection held its share of places, no more; the rest were refused at once, typed (by
    # its share, or on a loaded machine by the gateway's queue wait, which refuses everyone alike).
    assert report.silent[IDLE_CLOSED] == STARTING_PER_CONNECTION, report.silent
    assert set(report.silent) <= {PER_CONNECTION, QUEUE_WAIT, IDLE_CLOSED}, report.silent
    assert sum(report.silent.values()) == 1000
    refused_at_once = [t for what in (PER_CONNECTION, QUEUE_WAIT) for t in report.silent_ended_s.get(what, [])]
    assert max(refused_at_once) < STREAM_OPEN_TIMEOUT_S
    assert min(report.silent_ended_s[IDLE_CLOSED]) >= STREAM_OPEN_TIMEOUT_S - 0.5  # held until the timeout
    # Forged kids: refused, none waiting long, the keys reloaded at most once a second. (The callers
    # that waited for a reload take their places back together when it ends: the attacker's own
    # connection may then be at its share for a moment, and a forged call refused for that.)
    assert set(report.forged) <= {FORGED, PER_CONNECTION, QUEUE_WAIT}
    assert sum(report.forged.values()) == report.forged_sent
    assert report.forged[FORGED] >= 0.5 * report.forged_sent
    # No place held while waiting: the flood adds next to nothing to the silent streams' 100 (the
    # old code held one per forged call for up to a second: about FORGED_PER_S more).
    assert statistics.median(held) <= STARTING_PER_CONNECTION + 30, held
    assert report.forged_slowest_s < 3.0
    assert gateway_metric(stack, "flotilla_key_loads_total") - loads_before <= attack.seconds + 3

    # The places are free again, and the attacker's address may play like anyone else.
    async def no_call_starting() -> bool:
        return gateway_metric(stack, "flotilla_gateway_calls_starting") == 0

    await until(no_call_starting, 20, "every starting place to be free")
    # Nothing the refused calls asked for exists: no room, no stream lease of the attacker's address.
    client = aioredis.Redis.from_url(redis_url)
    try:
        assert await client.zcard(keys.rooms_listed("counter")) == 0
        assert not await client.exists(keys.stream_leases("address:127.0.0.1"))
    finally:
        await client.aclose()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=OWN_CONNECTION) as channel:
        again = game_service_pb2_grpc.GameServiceStub(channel).Play()  # type: ignore[no-untyped-call]
        await again.write(game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=victim.game)))
        assert (await asyncio.wait_for(again.read(), 20)).HasField("update")
        again.cancel()
    # The honest Play, idle all along after its open, was never closed.
    assert (await asyncio.wait_for(play.read(), 20)).HasField("update")
    play.cancel()
    await victim.channel.close()


async def test_guests_of_one_address_share_its_stream_quota(gateway: tuple[Stack, int, str]) -> None:
    """The finding: three guests from one address held 180 streams (each guest its own
    `streams_per_user`). Five guests from 127.0.0.1, each on its own connection, open WatchGame
    streams in turn (waiting out the stream-open rate limits' RetryInfo, as the SDK does): 128 open
    in all (`streams_per_address`), the next is refused QUOTA_EXCEEDED and holds no lease; a guest
    from another address is not affected; once a stream ends, another may open."""
    _stack, port, redis_url = gateway
    guests = [await Guest(f"127.0.0.1:{port}").start() for _ in range(5)]
    watch = game_service_pb2.WatchGameRequest(game=guests[0].game)
    opened: list[grpc.aio.UnaryStreamCall] = []  # type: ignore[type-arg]

    async def open_one(guest: Guest) -> str:
        """ "OPEN", or the refusal's "CODE reason limit" (rate limits waited out)."""
        while True:
            call = guest.games.WatchGame(watch, metadata=guest.auth, timeout=60)
            try:
                await asyncio.wait_for(call.read(), 20)
            except grpc.aio.AioRpcError as error:
                delay = retry_after(error)
                if outcome(error).split()[1:2] == ["ERROR_REASON_RATE_LIMITED"] and delay is not None:
                    await asyncio.sleep(delay)  # what the RetryInfo asks (the SDK does the same)
                    continue
                return outcome(error)
            opened.append(call)
            return "OPEN"

    client = aioredis.Redis.from_url(redis_url)
    try:
        refused = ""
        for i in range(180):
            refused = await open_one(guests[i % len(guests)])
            if refused != "OPEN":
                break
        assert (len(opened), refused) == (128, QUOTA_STREAMS_PER_ADDRESS)
        assert await client.zcard(keys.stream_leases("signed-in:127.0.0.1")) == 128  # the refused one: none
        elsewhere = await Guest(f"[::1]:{port}").start()
        assert await open_one(elsewhere) == "OPEN"
        opened.pop().cancel()
        opened.pop().cancel()  # ::1's own stream, and one of 127.0.0.1's

        async def one_freed() -> bool:
            return bool(await client.zcard(keys.stream_leases("signed-in:127.0.0.1")) == 127)

        await until(one_freed, 20, "the ended stream's lease to be released")
        assert await open_one(guests[1]) == "OPEN"
    finally:
        for call in opened:
            call.cancel()
        await client.aclose()
        for guest in guests:
            await guest.channel.close()


async def test_one_address_holds_its_share_of_places_however_many_connections(
    gateway: tuple[Stack, int, str],
) -> None:
    """300 silent Play calls from 127.0.0.1 over four connections (75 each: under the connection
    share): the address holds 250 places (`FLOTILLA_MAX_STARTING_PER_ADDRESS`), 50 are refused at
    once; a client of another address opens its Play meanwhile; all are free after the timeout."""
    stack, port, _redis_url = gateway
    other = await Guest(f"[::1]:{port}").start()
    running = Running(Attack(f"127.0.0.1:{port}", silent=300, connections=4, forged_per_s=0))
    try:

        async def address_at_its_share() -> bool:
            return gateway_metric(stack, "flotilla_gateway_calls_starting") >= STARTING_PER_ADDRESS

        await until(address_at_its_share, 60, "the gateway to hold the address's silent streams", every_s=0.05)
        play = other.games.Play()
        await play.write(game_service_pb2.PlayRequest(open=game_service_pb2.WatchGameRequest(game=other.game)))
        assert (await asyncio.wait_for(play.read(), 20)).HasField("update")
        play.cancel()
    finally:
        running.go.set()
    report = await asyncio.to_thread(running.report)
    assert report.silent == {PER_ADDRESS: 300 - STARTING_PER_ADDRESS, IDLE_CLOSED: STARTING_PER_ADDRESS}
    assert max(report.silent_ended_s[PER_ADDRESS]) < STREAM_OPEN_TIMEOUT_S

    async def no_call_starting() -> bool:
        return gateway_metric(stack, "flotilla_gateway_calls_starting") == 0

    await until(no_call_starting, 20, "every starting place to be free")
    await other.channel.close()
