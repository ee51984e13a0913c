"""Load is refused cleanly, never dropped at random, and resources stay bounded.

Real processes: a fresh redis-server, one gateway subprocess, client processes opening streams.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis

from burst import Burst, Report, prepare, run_burst
from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.lobby.v1 import lobby_service_pb2, lobby_service_pb2_grpc
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2, matchmaking_service_pb2_grpc
from flotilla.redis_server import RedisServer
from flotilla.store.reach import PROBE_S
from flotilla_client import FlotillaClient, FlotillaError
from support import Stack, stack_limits, start_stack

pytestmark = [pytest.mark.redis]

OVERLOADED = "RESOURCE_EXHAUSTED ERROR_REASON_OVERLOADED"
# One watcher opens thousands of streams (over a few connections) at once here, one host makes
# hundreds of rooms: per-user opens and rooms are off; the streams quota stays on (leases and all).
BURST_LIMITS = (
    "stream_open_per_user=off",
    "streams_per_user=100000",
    "streams_per_connection=off",
    "create_room_per_user=off",
    "open_rooms_per_user=off",
)
# The bursts measure the gateway's own admission, on a 2-core machine within fixed time bounds: the
# per-open limit checks (a rate check and a stream lease, two Redis round trips per open, driven by
# tests/gateway/test_limits.py) are off there, so they test what they did before the limits existed.
LOAD_LIMITS = (*BURST_LIMITS, "stream_open_per_address=off", "streams_per_user=off", "streams_per_address=off")


@contextlib.contextmanager
def one_gateway(tmp: Path, **env: str) -> Iterator[tuple[Stack, str]]:
    """A fresh redis-server and one gateway on it (no worker: nothing here moves a game)."""
    server = RedisServer(tmp / "redis", aof=False).start()
    env.setdefault("FLOTILLA_LIMITS", stack_limits(*BURST_LIMITS))
    stack = start_stack(server.url, tmp, gateways=1, workers=0, extra_env=env)
    try:
        yield stack, server.url
    finally:
        stack.stop()
        server.stop()


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, str]]:
    with one_gateway(tmp_path_factory.mktemp("admission"), FLOTILLA_LIMITS=stack_limits(*LOAD_LIMITS)) as running:
        yield running


def assert_only_opened_or_refused(report: Report, count: int) -> None:
    refused = sum(n for what, n in report.failed.items() if what.startswith(OVERLOADED))
    assert report.unsettled == 0
    assert not report.dropped_after_open, report.dropped_after_open
    assert refused == sum(report.failed.values()), f"untyped failures: {dict(report.failed)}"
    assert report.opened + refused == count


@pytest.mark.timeout(150)
def test_a_burst_of_5000_opens_is_opened_or_refused_with_a_typed_status(gateway: tuple[Stack, str]) -> None:
    """Raw stubs, no retries: each call opens, or is refused RESOURCE_EXHAUSTED / OVERLOADED with a
    RetryInfo; never CANCELLED by grpc core, never UNAVAILABLE from an exhausted Redis pool."""
    stack, _url = gateway
    target = stack.gateways[0]
    token, names = asyncio.run(prepare(target, "WatchGame"))
    report = run_burst(Burst(target, "WatchGame", names, token, 2500), 2, lambda _opened: None)
    assert_only_opened_or_refused(report, 5000)
    assert report.opened > 0


@pytest.mark.timeout(150)
def test_the_sdk_opens_all_2000_streams_of_a_burst(gateway: tuple[Stack, str]) -> None:
    """FlotillaClient.watch retries the refusals after their RetryInfo delay, with jitter."""
    stack, _url = gateway
    target = stack.gateways[0]
    token, names = asyncio.run(prepare(target, "sdk"))
    report = run_burst(Burst(target, "sdk", names, token, 1000, settle_timeout_s=100), 2, lambda _opened: None)
    assert (report.opened, dict(report.failed), report.unsettled) == (2000, {}, 0)


def commands_during(client: redis.Redis, seconds: float) -> dict[str, int]:
    """Redis commands run during `seconds` (INFO commandstats delta; INFO itself left out)."""

    def calls() -> dict[str, int]:
        return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in client.info("commandstats").items()}

    before = calls()
    asyncio.run(asyncio.sleep(seconds))
    return {k: n - before.get(k, 0) for k, n in calls().items() if n > before.get(k, 0) and k != "info"}


# Commands that idle watchers of rooms and tickets may cause: the StreamHub's blocking reads
# (woken with CLIENT UNBLOCK) and one batched ZADD of room presences per period.
HUB_COMMANDS = {"xread", "client", "zadd"}
# What a gateway does on its own whatever its watchers: its inbox's keep-alive (keep_inbox.lua,
# once a third of FLOTILLA_INBOX_TTL), the inbox reader's XREAD (counted with the hub's), and the
# renewal of its stream leases every 30 s (TIME, then ZADD XX + PEXPIRE per user with open streams:
# app/stream_leases.py; this test's watchers belong to few users), and the signing-key cache's
# re-read every FLOTILLA_KEYS_REFRESH (60 s: one HGETALL, inside the window whenever it falls there).
UPKEEP_COMMANDS = {"evalsha", "exists", "pexpire", "xtrim", "time", "hgetall"}
# The gateway's probe of its Redis (store/reach.py): one PING a second, however many watchers.
PROBE_COMMANDS = {"ping"}


def assert_only_idle_upkeep(commands: dict[str, int], seconds: float) -> None:
    """Nothing but the hub's reads, the presence batches and the gateway's own upkeep (a few
    commands, however many watchers), and its Redis probe (a PING a second) over `seconds`."""
    assert set(commands) <= HUB_COMMANDS | UPKEEP_COMMANDS | PROBE_COMMANDS, commands
    assert all(commands[c] <= 3 for c in set(commands) & UPKEEP_COMMANDS), commands
    assert commands.get("ping", 0) <= seconds / PROBE_S + 2, commands


@pytest.mark.timeout(150)
def test_3k_room_watchers_hold_on_one_gateway_with_bounded_redis_clients_and_free_heartbeats(
    tmp_path: Path,
) -> None:
    heartbeat_s, pool = 6.0, 32
    with one_gateway(
        tmp_path,
        FLOTILLA_HEARTBEAT=str(heartbeat_s),
        FLOTILLA_REDIS_MAX_CONNECTIONS=str(pool),
        FLOTILLA_LIMITS=stack_limits(*LOAD_LIMITS),
    ) as (stack, url):
        target = stack.gateways[0]
        token, names = asyncio.run(prepare(target, "WatchRoom", rooms=300))
        client = redis.Redis.from_url(url)
        seen: dict[str, object] = {}

        def while_open(opened: int) -> None:
            seen["opened"] = opened
            seen["clients"] = int(client.info("clients")["connected_clients"])
            seen["commands"] = commands_during(client, heartbeat_s * 1.5)
            seen["seconds"] = heartbeat_s * 1.5
            seen["answers"] = asyncio.run(still_answers(target, token, names[0]))

        # 3,000 (a hundred times the pool) prove the bounds (connections, commands) here;
        # bench/admission.py measures 15,000+.
        burst = Burst(target, "WatchRoom", names, token, 1500, retry=True, in_flight=100, settle_timeout_s=110)
        report = run_burst(burst, 2, while_open)
        client.close()
        assert (seen["opened"], dict(report.failed), report.unsettled) == (3000, {}, 0)
        assert not report.dropped_after_open, report.dropped_after_open
        # The pool, the StreamHub's readers (300 rooms: one), the inbox, this test's client.
        assert isinstance(seen["clients"], int)
        assert seen["clients"] <= pool + 8
        assert report.later_messages >= 3000, "every stream got heartbeats while the commands were counted"
        assert isinstance(seen["commands"], dict)
        assert isinstance(seen["seconds"], float)
        assert_only_idle_upkeep(seen["commands"], seen["seconds"])
        assert seen["commands"].get("xread", 0) < 100, seen["commands"]
        assert seen["answers"] is True


async def still_answers(target: str, token: str, room: str) -> bool:
    """A unary call and a new WatchRoom both work on the loaded gateway."""
    async with grpc.aio.insecure_channel(target) as channel:
        auth = game_service_pb2_grpc.AuthServiceStub(channel)  # type: ignore[no-untyped-call]
        await auth.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="probe"), timeout=20)
        lobby = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
        call = lobby.WatchRoom(
            lobby_service_pb2.WatchRoomRequest(room=room), metadata=(("authorization", f"Bearer {token}"),)
        )
        first = await asyncio.wait_for(call.read(), 20)
        call.cancel()
        return bool(first.room.name == room)


@pytest.mark.timeout(60)
def test_idle_room_and_ticket_watchers_cost_no_redis_command_per_heartbeat(tmp_path: Path) -> None:
    """Seated room players, spectators and ticket holders: over 2.5 heartbeat periods, only the
    StreamHub's reads and one batched presence refresh per period reach Redis."""
    heartbeat_s = 2.0
    with one_gateway(tmp_path, FLOTILLA_HEARTBEAT=str(heartbeat_s)) as (stack, url):
        target = stack.gateways[0]
        client = redis.Redis.from_url(url)

        async def watch_and_count() -> tuple[dict[str, int], int]:
            hosts = [FlotillaClient(target) for _ in range(20)]
            async with grpc.aio.insecure_channel(target) as channel:
                lobby = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
                tickets = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)  # type: ignore[no-untyped-call]
                calls = []
                for host in hosts:
                    await host.sign_in("host")
                    auth = (("authorization", f"Bearer {host.session_token}"),)
                    made = await lobby.CreateRoom(
                        lobby_service_pb2.CreateRoomRequest(kind="counter", seat_count=2, request_id="r"), metadata=auth
                    )
                    ticket = await tickets.CreateTicket(
                        matchmaking_service_pb2.CreateTicketRequest(kind="counter", seat_counts=[2], request_id="t"),
                        metadata=auth,
                    )
                    watch_room = lobby_service_pb2.WatchRoomRequest(room=made.room.name)
                    calls += [lobby.WatchRoom(watch_room, metadata=auth) for _ in range(3)]  # the seated host, 3 times
                    watch_ticket = matchmaking_service_pb2.WatchTicketRequest(ticket=ticket.ticket.name)
                    calls.append(tickets.WatchTicket(watch_ticket, metadata=auth))
                for call in calls:  # the first message, then a heartbeat: each watch is past its start
                    await call.read()
                    await asyncio.wait_for(call.read(), heartbeat_s * 2)
                counted = await asyncio.to_thread(commands_during, client, heartbeat_s * 2.5)
                heartbeats = 0
                for call in calls:
                    for _ in range(2):
                        await asyncio.wait_for(call.read(), heartbeat_s * 2)
                        heartbeats += 1
                    call.cancel()
            for host in hosts:
                await host.close()
            return counted, heartbeats

        commands, heartbeats = asyncio.run(watch_and_count())
        client.close()
        assert heartbeats == 80 * 2
        assert_only_idle_upkeep(commands, heartbeat_s * 2.5)
        assert commands.get("zadd", 0) <= 3, "presence is refreshed in one command per period, not per watcher"


@pytest.mark.timeout(60)
def test_an_exhausted_redis_pool_gives_a_typed_unavailable(tmp_path: Path) -> None:
    """One pooled connection, held by the inbox's blocking read: calls wait 50 ms for it, then
    fail UNAVAILABLE / STORE_UNAVAILABLE; none hangs, none is UNKNOWN."""
    with one_gateway(
        tmp_path, FLOTILLA_REDIS_MAX_CONNECTIONS="1", FLOTILLA_REDIS_POOL_TIMEOUT="0.05", FLOTILLA_SECRET="s" * 32
    ) as (stack, _url):

        async def sign_in_many() -> list[BaseException | str]:
            client = FlotillaClient(stack.gateways[0], retries=0)
            try:
                return await asyncio.wait_for(
                    asyncio.gather(*(client.sign_in(f"u{i}") for i in range(30)), return_exceptions=True), 30
                )
            finally:
                await client.close()

        results = asyncio.run(sign_in_many())
        failures = [r for r in results if isinstance(r, BaseException)]
        assert failures, "the pool of one connection was never exhausted"
        for failure in failures:
            assert isinstance(failure, FlotillaError), repr(failure)
            assert (failure.code, failure.reason) == (grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_STORE_UNAVAILABLE")
