"""Dead links are noticed in bounded time (issue 24), at the default settings, on loopback links a
test can cut (`chaos.links.Link`: a proxy that stops forwarding both ways without closing).

* A gateway cut from Redis (its connections hang) sends no checkpoint once Redis stopped
  answering (`store.reach.FRESH_S`), ends every watch stream UNAVAILABLE / STORE_UNAVAILABLE
  within FLOTILLA_STORE_LOST_S (10 s), and an SDK client watching there resumes on the other
  gateway exactly once, gapless and with no event twice. Its room and ticket watches (WatchRoom,
  WatchTicket) follow the same rule: no heartbeat once Redis stopped answering, the end within
  FLOTILLA_STORE_LOST_S.
* A client whose link to its gateway is black-holed notices through HTTP/2 keepalive (the SDK's
  10 s + 5 s) and resumes on the other gateway, gapless.
* The gateway's ping floor (5 s) sends away a client that pings every second (GOAWAY).

Stack: one Redis, one worker, gateway A (reaching Redis through a cuttable link) and gateway B.
Scenarios that wait out the same bound run at once, each on games and users of its own: the game
and the lobby streams under one cut of A's link to Redis, the moving and the idle client under
their keepalive (the module waited ~50 s one after the other, ~30 s so).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest

from chaos.links import Link
from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.api.lobby.v1.lobby_service_pb2_grpc import LobbyServiceStub
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla.api.matchmaking.v1.matchmaking_service_pb2_grpc import MatchmakingServiceStub
from flotilla.gateway.server import MIN_CLIENT_PING_MS
from flotilla.redis_server import RedisServer, free_port
from flotilla.store.reach import FRESH_S, STORE_LOST_S
from flotilla_client import FlotillaClient, FlotillaError
from flotilla_client.tls import KEEPALIVE_TIME_MS, KEEPALIVE_TIMEOUT_MS
from forkserver import spawn
from support import FLOTILLA, Stack, assert_gapless, start_stack, until, wait_for_gateway

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))
SLACK_S = 5.0  # a loaded machine's delays on top of a designed bound
KEEPALIVE_S = (KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS) / 1000


@dataclass
class Rig:
    stack: Stack
    redis_link: Link  # gateway A's way to Redis
    a: str  # gateway A's address
    b: str


@pytest.fixture(scope="module")
def rig(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    log_dir = tmp_path_factory.mktemp("dead-links")
    stack = start_stack(redis_server.url, log_dir, gateways=1, workers=1)  # gateway B, straight to Redis
    redis_link = Link(redis_server.port)
    try:
        a = f"127.0.0.1:{free_port()}"
        linked = redis_server.url.replace(f":{redis_server.port}/", f":{redis_link.port}/")
        env = dict(stack.env, FLOTILLA_BIND=a, REDIS_URL=linked)
        stack.gateway_procs.append(spawn([*FLOTILLA, "gateway"], env, log_dir / "gateway-a.log"))
        wait_for_gateway(a)
        yield Rig(stack, redis_link, a, stack.gateways[0])
    finally:
        redis_link.heal()
        stack.stop()
        redis_link.close()


@dataclass
class Game:
    name: str
    moving: asyncio.Event  # cleared: the seats stop moving
    stopped: asyncio.Event = field(default_factory=asyncio.Event)  # set while they do
    last: int = 0  # the event id of the last move confirmed


@contextlib.asynccontextmanager
async def moving_game(target: str) -> AsyncIterator[Game]:
    """A counter game on `target` whose seats move in turn every ~0.2 s while the block runs
    (and its `moving` is set)."""
    clients = [FlotillaClient(target), FlotillaClient(target)]
    for n, client in enumerate(clients):
        await client.sign_in(f"mover-{n}")
    game = (await clients[0].create_game("counter", 2, {"moves": "5000"})).name
    seats = [await client.join(game) for client in clients]
    state = Game(game, asyncio.Event())
    state.moving.set()

    async def move() -> None:
        while True:
            if not state.moving.is_set():
                state.stopped.set()
                await state.moving.wait()
                state.stopped.clear()
            for client, seat in zip(clients, seats, strict=True):
                view = await client.view(game, seat)
                if view.prompt.legal_actions:
                    with contextlib.suppress(FlotillaError):  # the other seat's move came first
                        state.last = (await client.submit(game, seat, ADD, etag=view.prompt.etag)).through_event_id
            await asyncio.sleep(0.2)

    mover = asyncio.create_task(move())
    try:
        yield state
    finally:
        mover.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await mover
        for client in clients:
            await client.close()


@dataclass
class Sdk:
    """An SDK watcher over two targets: the ids it got (a full view as a negative id)."""

    client: FlotillaClient
    ids: list[int] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def watch(self, game: str) -> None:
        async for update in self.client.watch(game):
            if update.HasField("view"):
                self.ids.append(-update.view.through_event_id)
            self.ids.extend(event.event_id for event in update.events)

    def last(self) -> int:
        return abs(self.ids[-1]) if self.ids else 0

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.client.close()


async def sdk_watcher(game: str, *targets: str) -> Sdk:
    client = FlotillaClient(*targets)
    await client.sign_in("watcher")
    sdk = Sdk(client)
    sdk.task = asyncio.create_task(sdk.watch(game))
    await until(lambda: asyncio.sleep(0, len(sdk.ids) > 3), 30, "the SDK watcher's first events")
    return sdk


@dataclass
class Raw:
    """A watch stream on one gateway, not resumed: when each message came, and how it ended."""

    got: list[tuple[float, Any]] = field(default_factory=list)
    ended: tuple[float, grpc.StatusCode, str] | None = None

    def assert_ended_by_the_cut(self, cut: float) -> None:
        """Ended UNAVAILABLE / STORE_UNAVAILABLE within FLOTILLA_STORE_LOST_S of `cut`."""
        assert self.ended is not None
        ended, code, reason = self.ended
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "ERROR_REASON_STORE_UNAVAILABLE")
        assert ended - cut <= STORE_LOST_S + SLACK_S, f"ended {ended - cut:.1f} s after the cut"


async def raw_stream(call: AsyncIterable[Any], raw: Raw) -> None:
    try:
        async for update in call:
            raw.got.append((time.monotonic(), update))
    except grpc.aio.AioRpcError as error:
        raw.ended = (time.monotonic(), error.code(), FlotillaError.from_rpc(error).reason)


async def raw_watch(client: FlotillaClient, game: str, raw: Raw) -> None:
    await raw_stream(
        client.games.WatchGame(g.WatchGameRequest(game=game), metadata=client._auth(client.session_token)), raw
    )


def checkpoints_after(raw: Raw, moment: float) -> list[int]:
    """The versions named by checkpoints (no view, no events) received after `moment`."""
    return [u.through_event_id for t, u in raw.got if t > moment and not u.HasField("view") and not u.events]


class SharedCut:
    """Gateway A's link to Redis, cut once for `parties` scenarios running at once: cut when every
    one of them is ready (its streams flowing), healed when every one is done checking the cut."""

    def __init__(self, link: Link, parties: int) -> None:
        self.link = link
        self._ready = asyncio.Barrier(parties)
        self._done = asyncio.Barrier(parties)
        self._cut = asyncio.Event()
        self.at = 0.0

    async def cut(self) -> float:
        """Wait for the other scenarios, then the cut; when it came (monotonic seconds)."""
        await self._ready.wait()
        if not self._cut.is_set():
            self.link.cut()
            self.at = time.monotonic()
            self._cut.set()
        return self.at

    async def heal(self) -> None:
        """Wait for the other scenarios, then heal (a failed scenario's test heals in its `finally`)."""
        await self._done.wait()
        self.link.heal()


async def test_a_gateway_cut_from_redis_ends_its_streams_and_its_watchers_resume_elsewhere_once(rig: Rig) -> None:
    """Game streams (WatchGame) and the lobby's (WatchRoom, WatchTicket) on gateway A, under one cut
    of its link to Redis: the two scenarios are independent (other games, other users) and each
    runs as it would alone, so they share the cut's 10-15 s instead of waiting for one each."""
    cut = SharedCut(rig.redis_link, 2)
    try:
        async with asyncio.TaskGroup() as scenarios:
            scenarios.create_task(game_streams_under_a_cut(rig, cut))
            scenarios.create_task(lobby_watches_under_a_cut(rig, cut))
    finally:
        rig.redis_link.heal()


async def game_streams_under_a_cut(rig: Rig, shared: SharedCut) -> None:
    """No checkpoint once Redis stopped answering, every watch on A ended UNAVAILABLE within
    FLOTILLA_STORE_LOST_S, the SDK watcher resumed on B once and gapless; A serves after the heal."""
    async with moving_game(rig.b) as moving:
        game = moving.name
        spectator = FlotillaClient(rig.a)
        await spectator.sign_in("spectator")
        raws = [Raw() for _ in range(3)]
        streams = [asyncio.create_task(raw_watch(spectator, game, raw)) for raw in raws]
        sdk = await sdk_watcher(game, rig.a, rig.b)
        try:
            await until(lambda: asyncio.sleep(0, all(len(r.got) > 3 for r in raws)), 30, "events on gateway A")
            cut = await shared.cut()
            await until(lambda: asyncio.sleep(0, all(r.ended for r in raws)), STORE_LOST_S + 20, "streams ended")
            for raw in raws:
                raw.assert_ended_by_the_cut(cut)
                assert checkpoints_after(raw, cut + FRESH_S + 2.0) == [], "a checkpoint while Redis was cut"
            await until(lambda: asyncio.sleep(0, sdk.client.target == rig.b), 10, "the SDK on gateway B")
            at_cut = sdk.last()
            await until(lambda: asyncio.sleep(0, sdk.last() > at_cut + 3), 30, "events on gateway B")
            assert len(sdk.client._retired) == 1, "resumed on the other gateway exactly once"
            await shared.heal()
        finally:
            for task in streams:
                task.cancel()
            await sdk.stop()
        final = sdk.last()
        assert_gapless(sdk.ids, final)  # each event once, in order, through the failover
        healed = Raw()  # gateway A serves again once Redis answers
        watching = asyncio.create_task(raw_watch(spectator, game, healed))
        await until(lambda: asyncio.sleep(0, bool(healed.got)), 30, "a watch on gateway A after the heal")
        watching.cancel()
        await spectator.close()


async def lobby_watches_under_a_cut(rig: Rig, shared: SharedCut) -> None:
    """WatchRoom and WatchTicket (the lobby's StreamHub) send heartbeats only while Redis answers
    the gateway's probe, and end UNAVAILABLE / STORE_UNAVAILABLE within FLOTILLA_STORE_LOST_S; an
    SDK watching the room reopens its watch on the other gateway, once."""
    client = FlotillaClient(rig.a)
    await client.sign_in("lobby-watcher")
    room = await client.create_room("counter", 2)
    ticket = await client.create_ticket("counter", [2], {"moves": "3"})
    auth = client._auth(client.session_token)

    def watches() -> list[AsyncIterable[Any]]:
        rooms, tickets = LobbyServiceStub(client.channel), MatchmakingServiceStub(client.channel)  # type: ignore[no-untyped-call]
        return [
            rooms.WatchRoom(lb.WatchRoomRequest(room=room.name), metadata=auth),
            tickets.WatchTicket(mm.WatchTicketRequest(ticket=ticket.name), metadata=auth),
        ]

    sdk = FlotillaClient(rig.a, rig.b)
    await sdk.sign_in("lobby-sdk")
    seen: list[str] = []  # the target of each update the SDK's room watch delivered

    async def sdk_watch() -> None:
        async for _ in sdk.watch_room(room.name):
            seen.append(sdk.target)

    raws = [Raw(), Raw()]
    streams = [asyncio.create_task(raw_stream(call, raw)) for call, raw in zip(watches(), raws, strict=True)]
    streams.append(asyncio.create_task(sdk_watch()))
    try:
        beating = lambda: all(any(u.is_checkpoint for _, u in r.got) for r in raws) and rig.a in seen  # noqa: E731
        await until(lambda: asyncio.sleep(0, beating()), 30, "heartbeats of the watches on gateway A")
        cut = await shared.cut()
        await until(lambda: asyncio.sleep(0, all(r.ended for r in raws)), STORE_LOST_S + 20, "watches ended")
        for raw in raws:
            raw.assert_ended_by_the_cut(cut)
            late = [t - cut for t, u in raw.got if t > cut + FRESH_S + 2.0 and u.is_checkpoint]
            assert late == [], "a heartbeat while Redis was cut"
        await until(lambda: asyncio.sleep(0, rig.b in seen), 30, "the SDK's room watch on gateway B")
        assert len(sdk._retired) == 1, "reopened on the other gateway exactly once"
        await shared.heal()
    finally:
        for task in streams:
            task.cancel()
        await sdk.close()
    healed = [Raw(), Raw()]  # gateway A serves both again once Redis answers
    streams = [asyncio.create_task(raw_stream(call, raw)) for call, raw in zip(watches(), healed, strict=True)]
    try:
        await until(lambda: asyncio.sleep(0, all(r.got for r in healed)), 30, "the watches on gateway A after the heal")
    finally:
        for task in streams:
            task.cancel()
        await client.cancel_ticket(ticket.name)
        await client.close()


async def test_a_client_cut_from_its_gateway_notices_by_keepalive_and_resumes_on_the_other(rig: Rig) -> None:
    """Two clients at once, each with its own cuttable link to gateway A and its own game on B (so
    they share the keepalive's 15 s instead of waiting for one each). Moving: events flow when the
    link dies (grpc's flow-control ping goes unanswered). Idle: only the gateway's checkpoints do,
    and a keepalive ping finds the link dead."""
    async with asyncio.TaskGroup() as scenarios:
        scenarios.create_task(keepalive_failover(rig, moving=True))
        scenarios.create_task(keepalive_failover(rig, moving=False))


async def keepalive_failover(rig: Rig, *, moving: bool) -> None:
    client_link = Link(int(rig.a.rsplit(":", 1)[1]))
    try:
        async with moving_game(rig.b) as game:
            sdk = await sdk_watcher(game.name, f"127.0.0.1:{client_link.port}", rig.b)
            try:
                if not moving:
                    game.moving.clear()
                    await asyncio.wait_for(game.stopped.wait(), 30)
                    await until(lambda: asyncio.sleep(0, sdk.last() >= game.last), 30, "the last move watched")
                client_link.cut()
                cut, at_cut = time.monotonic(), sdk.last()
                await until(lambda: asyncio.sleep(0, sdk.client.target == rig.b), KEEPALIVE_S + 30, "a failover")
                noticed = time.monotonic() - cut
                # keepalive's bound: a ping after 10 s without data, 5 s for its answer
                assert noticed <= KEEPALIVE_S + SLACK_S, f"noticed {noticed:.1f} s after the cut ({moving=})"
                print(f"a black-holed gateway connection ({moving=}) was noticed {noticed:.1f} s after the cut")
                game.moving.set()
                await until(lambda: asyncio.sleep(0, sdk.last() > at_cut + 3), 30, "events on gateway B")
                assert len(sdk.client._retired) == 1, "resumed on the other gateway exactly once"
            finally:
                await sdk.stop()
            assert_gapless(sdk.ids, sdk.last())
    finally:
        client_link.cut()
        client_link.close()


async def test_a_client_pinging_faster_than_the_gateway_allows_is_sent_away(rig: Rig) -> None:
    """The gateway's ping floor (5 s, half the SDKs' interval) holds against a client pinging every
    second: after grpc's strikes its connection gets GOAWAY, and the gateway serves others on."""
    assert KEEPALIVE_TIME_MS >= 2 * MIN_CLIENT_PING_MS, "the SDKs ping at half the gateway's pace at most"
    flooding = [("grpc.keepalive_time_ms", 1000), ("grpc.keepalive_permit_without_calls", 1)]
    flooding.append(("grpc.http2.max_pings_without_data", 0))
    async with grpc.aio.insecure_channel(rig.b, options=flooding) as channel:
        await asyncio.wait_for(channel.channel_ready(), 30)
        ready = time.monotonic()
        await until(lambda: asyncio.sleep(0, channel.get_state() != grpc.ChannelConnectivity.READY), 30, "a GOAWAY")
        print(f"a client pinging every second was sent away after {time.monotonic() - ready:.1f} s")
    others = FlotillaClient(rig.b)
    try:
        assert await others.sign_in("after-the-flood")
    finally:
        await others.close()
