"""Property-based tests of every RPC of every service against a real gateway and worker.

Random bytes, and random well-typed but wrong messages (built from the request descriptors,
with real and junk names and tokens), must each get a typed status (never UNKNOWN/INTERNAL;
an error carries an ErrorInfo and a short echo), a refused call must change nothing in Redis,
and the gateway must go on serving. Each RPC gets its own examples from a fixed seed (the same
on every run) and a bounded count; the whole module takes about 20 s on an idle machine.
"""

from __future__ import annotations

import asyncio
import time
import uuid
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
import redis.asyncio as aioredis
from google.protobuf.descriptor import MethodDescriptor
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as game
from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla.games import REGISTRY
from flotilla.identity.keycache import KeySet
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla_client import FlotillaClient
from fuzz.proto_strategies import Pools, messages
from raw_rpc import METHODS, Answer, answer_of, auth, call, path, serving, snapshot
from support import Stack, pinned_tokens, start_stack, stored_tokens

pytestmark = [pytest.mark.redis, pytest.mark.timeout(300)]

BYTES_EXAMPLES = 8  # per RPC
MESSAGE_EXAMPLES = 16  # per RPC, but those that act on a game:
ACTING_EXAMPLES = {"SubmitAction": 40, "Play": 40, "LeaveGame": 24}
FUZZ = settings(  # each test's examples come from a fixed seed (see _seed): the same on every run
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
# Keys that change without a client's call, or as designed on a refused one:
SKIP = (
    f"{keys.PREFIX}:work:",  # work streams: entries and the workers' group state
    f"{keys.PREFIX}:inbox:",  # outcomes on their way to a gateway
    keys.TIMERS,  # the workers' wake-up index, claimed and settled on their own
    keys.WORKERS,  # the worker registry, renewed by every live worker
    keys.worker("").split("{")[0],  # a worker's liveness key: on a starved machine it lapses, then is set again
    keys.JANITOR_LEASE,  # the janitor's pass (every 60 s, in a worker) takes its lease ...
    keys.JANITOR_CURSORS,  # ... and moves its cursors, whatever a request did
    keys.ROOMS_PRESENCE,  # refreshed by live WatchRoom streams, also while one winds down
    keys.limit_bucket("", "").split("{")[0],  # rate-limit buckets: a refused call counts too; they expire
    keys.stream_leases("").split("{")[0],  # stream leases: renewed and released as streams live and end
)
REQ = b":req:"  # an action's outcome record: a rules rejection is recorded, so a resend gets it again


@dataclass
class World:
    """A fresh Redis, one gateway and one worker, and a few real games, rooms and tickets."""

    stack: Stack
    loop: asyncio.AbstractEventLoop
    redis: aioredis.Redis  # one connection for the snapshots and the timers' checks, on `loop`
    channel: grpc.aio.Channel
    tokens: list[str]
    pools: Pools
    player: FlotillaClient
    other: FlotillaClient
    games: list[str]
    valid_tokens: int  # tokens[1 : 1 + valid_tokens] are real sessions and seats

    def run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)


async def _build(
    stack: Stack, redis: aioredis.Redis
) -> tuple[grpc.aio.Channel, list[str], Pools, FlotillaClient, FlotillaClient, list[str], int]:
    target = stack.gateways[0]
    ada, bob = FlotillaClient(target), FlotillaClient(target)
    await ada.sign_in("ada")
    await bob.sign_in("bob")
    abort = game_pb2.Clock(absence_policy=game_pb2.ABSENCE_POLICY_ABORT)  # LeaveGame ends it at once
    games, seats = [], []
    for kind in ("counter", "sail_away"):
        reply = await ada.games.CreateGame(
            game.CreateGameRequest(kind=kind, seat_count=2, clock=abort, request_id=uuid.uuid4().hex),
            metadata=auth(ada.session_token),
        )
        games.append(reply.game.name)
        seats += [await ada.join(reply.game.name), await bob.join(reply.game.name)]
    seat_tokens = [seat.token for seat in seats]
    sail_seat = seats[2 + (await ada.get_game(games[1])).to_act[0]]
    counter_actions = [game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n))) for n in (1, 2, -7, 10**9)]
    lobby_stub = ada.channel.unary_unary(
        "/flotilla.api.lobby.v1.LobbyService/CreateRoom",
        request_serializer=lobby.CreateRoomRequest.SerializeToString,
        response_deserializer=lobby.CreateRoomResponse.FromString,
    )
    rooms = []
    for client, visibility in ((ada, lobby.ROOM_VISIBILITY_PUBLIC), (bob, lobby.ROOM_VISIBILITY_PRIVATE)):
        request = lobby.CreateRoomRequest(kind="counter", seat_count=2, visibility=visibility, request_id="r")
        rooms.append((await lobby_stub(request, metadata=auth(client.session_token))).room)
    ticket_stub = ada.channel.unary_unary(
        "/flotilla.api.matchmaking.v1.MatchmakingService/CreateTicket",
        request_serializer=mm.CreateTicketRequest.SerializeToString,
        response_deserializer=mm.CreateTicketResponse.FromString,
    )
    ticket = await ticket_stub(
        mm.CreateTicketRequest(kind="counter", seat_counts=[2], request_id="t"), metadata=auth(ada.session_token)
    )
    await _timers_settled(redis)
    signer = await stored_tokens(stack.redis_url)
    tokens = [
        "",
        ada.session_token,
        bob.session_token,
        *seat_tokens,
        "garbage",
        ada.session_token[:-4] + "AAAA",  # a forged signature
        signer._sign({"typ": "session", "name": "u"}, 60),  # well signed, malformed payload
        signer._sign({"typ": "seat", "sub": "u", "name": "n", "game": games[0].removeprefix("games/"), "seat": 7}, 60),
        pinned_tokens(KeySet({"k": b"k" * 32}, "k")).session("u", "n"),  # another key
        signer._sign({"typ": "session", "sub": "u", "name": "n"}, -60),  # expired
    ]
    pools = Pools(
        {
            "game": [*games, "games/" + uuid.uuid4().hex],
            "room": [r.name for r in rooms] + ["rooms/" + uuid.uuid4().hex],
            "ticket": [ticket.ticket.name],
            "user": [ada.user, bob.user, "users/" + uuid.uuid4().hex],
            "party": [bob.user, ada.user],
            "kind": [*REGISTRY, "chess"],
            "join_code": [rooms[1].join_code],
            "page_token": ["0", "1", "50", "99999999999999999"],
            "etag": ["1", "2", '"1"'],
            "request_id": ["r", "t", "clock:1:0", uuid.uuid4().hex],
            "display_name": ["Ada", " Zoë "],
            "policy": ["random"],
            "key": ["moves", "mode", "max_rounds", "variant"],
            "value": ["2", "10", "true", "contract_coop"],
        },
        {"action": [*counter_actions, *(await ada.view(games[1], sail_seat)).prompt.legal_actions, game_pb2.Action()]},
    )
    return grpc.aio.insecure_channel(target), tokens, pools, ada, bob, games, 2 + len(seat_tokens)


async def _timers_settled(client: aioredis.Redis, timeout_s: float = 10) -> None:
    """Wait until the workers have no game's clock left to look at (none of these games has a
    time limit, so a settled timer is removed)."""
    deadline = time.monotonic() + timeout_s
    while await client.zcard(keys.TIMERS):
        assert time.monotonic() < deadline, "the workers never settled the games' timers"
        await asyncio.sleep(0.02)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    server = RedisServer(tmp_path_factory.mktemp("fuzz-redis"), aof=False).start()
    stack = start_stack(server.url, tmp_path_factory.mktemp("fuzz"), gateways=1, workers=1)
    loop = asyncio.new_event_loop()
    redis = aioredis.Redis.from_url(server.url)
    try:
        built = World(stack, loop, redis, *loop.run_until_complete(_build(stack, redis)))
        yield built
        for closing in (built.channel, built.player, built.other):
            loop.run_until_complete(closing.close())
        loop.run_until_complete(redis.aclose())
        loop.run_until_complete(_cancel_the_rest())
    finally:
        loop.close()
        stack.stop()
        server.stop()


async def _cancel_the_rest() -> None:
    """Cancel and await what grpc left running on the loop (closed streams' request feeders)."""
    rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


def changed(before: dict[bytes, bytes], after: dict[bytes, bytes]) -> list[bytes]:
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k) and REQ not in k)


async def _one(world: World, method: MethodDescriptor, bodies: list[bytes], token: str) -> Answer:
    before = await snapshot(world.redis, SKIP)
    if method.name == "Play":
        answer = await _play(world.channel, bodies, token)
    else:
        answer = await call(world.channel, method, bodies, token, deadline_s=15)
    assume(not answer.client_race)
    answer.check_typed()
    if answer.code != grpc.StatusCode.OK:
        assert changed(before, await snapshot(world.redis, SKIP)) == [], answer
    else:  # what an accepted call set going (a game's clocks starting) is done before the next one
        await _timers_settled(world.redis)
    return answer


async def _play(channel: grpc.aio.Channel, bodies: list[bytes], token: str) -> Answer:
    """A Play stream: read until every submission sent after `open` is answered (or the stream ends),
    so nothing it queued is still on its way when the next example starts."""
    stream = channel.stream_stream(
        "/flotilla.api.game.v1.GameService/Play", response_deserializer=game.PlayResponse.FromString
    )

    done, opened = asyncio.Event(), asyncio.Event()

    async def requests():  # type: ignore[no-untyped-def]
        yield bodies[0]
        await opened.wait()  # submissions once the stream is open (as a client does)
        for body in bodies[1:]:
            yield body
        await done.wait()

    live = stream(requests(), metadata=auth(token), timeout=15)
    answered = 0
    try:
        while answered < len(bodies) - 1:
            response = await live.read()
            if response == grpc.aio.EOF:
                break
            opened.set()
            answered += response.WhichOneof("kind") == "outcome" or len(response.update.answered_request_ids)
            if response.WhichOneof("kind") == "outcome" and response.outcome.status.code:
                typed_status(response.outcome.status)
    except grpc.aio.AioRpcError as error:
        return answer_of(error)
    finally:
        done.set()
        live.cancel()
    return Answer(grpc.StatusCode.OK, "")


def typed_status(status: status_pb2.Status) -> None:
    """A Play outcome's error is typed like a call's: no UNKNOWN/INTERNAL, an ErrorInfo, short."""
    answer = Answer(_CODES[status.code], status.message, trailer_bytes=status.ByteSize())
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            answer.reason, answer.metadata = info.reason, dict(info.metadata)
    answer.check_typed()


_CODES = {code.value[0]: code for code in grpc.StatusCode}


def _still_serving(world: World) -> None:
    """The processes live, the health check says SERVING, and a normal call answers."""
    assert world.stack.gateway_procs[0].poll() is None, "the gateway died"
    assert world.stack.worker_procs[0].poll() is None, "the worker died"
    assert world.run(serving(world.channel))
    assert world.run(world.player.get_game(world.games[0])).name == world.games[0]


async def _normal_move(world: World) -> None:
    created = await world.player.create_game("counter", 2)
    seat = await world.player.join(created.name)
    await world.other.join(created.name)
    add = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))
    assert (await world.player.submit(created.name, seat, add)).through_event_id == 2
    await _timers_settled(world.redis)


def _seed(method: MethodDescriptor, test: str) -> int:
    return zlib.crc32(f"{test}:{path(method)}".encode())


@pytest.mark.parametrize("method", METHODS, ids=path)
def test_random_bytes_get_a_typed_status_and_change_nothing(world: World, method: MethodDescriptor) -> None:
    @settings(FUZZ, max_examples=BYTES_EXAMPLES)
    @seed(_seed(method, "bytes"))
    @given(
        bodies=st.lists(st.binary(max_size=64), min_size=1, max_size=3 if method.client_streaming else 1),
        token=st.sampled_from(world.tokens),
    )
    def examples(bodies: list[bytes], token: str) -> None:
        world.run(_one(world, method, bodies, token))

    examples()
    _still_serving(world)


@pytest.mark.parametrize("method", METHODS, ids=path)
def test_well_typed_wrong_messages_get_a_typed_status_and_change_nothing(
    world: World, method: MethodDescriptor
) -> None:
    @settings(FUZZ, max_examples=ACTING_EXAMPLES.get(method.name, MESSAGE_EXAMPLES))
    @seed(_seed(method, "messages"))
    @given(data=st.data())
    def examples(data: st.DataObject) -> None:
        plausible = data.draw(st.booleans(), label="plausible")  # real names and tokens only
        pools = world.pools.only_plausible() if plausible else world.pools
        tokens = world.tokens[1 : 1 + world.valid_tokens] if plausible else world.tokens
        token = data.draw(st.sampled_from(tokens), label="token")
        strategy = messages(method.input_type, pools)
        requests: list[Message] = [data.draw(strategy, label="request")]
        if method.client_streaming:  # Play: mostly an `open` first, then submissions
            if data.draw(st.integers(0, 3), label="open first") > 0:
                opened = data.draw(messages(game.WatchGameRequest.DESCRIPTOR, pools), label="open")
                requests[0] = game.PlayRequest(open=opened)  # type: ignore[arg-type]
            requests += data.draw(st.lists(strategy, max_size=2), label="then")
        world.run(_one(world, method, [r.SerializeToString() for r in requests], token))

    examples()
    _still_serving(world)


def test_after_all_that_a_normal_game_is_played(world: World) -> None:
    """Last of this module's tests (one xdist group, in file order): the gateway and worker still
    apply a move of a new game."""
    _still_serving(world)
    world.run(_normal_move(world))
