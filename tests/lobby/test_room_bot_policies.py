"""Room bot seats with a policy and a difficulty: AddBot validates both against flotilla.bots, the
room shows them, the start queues them with the bot seat, and the bot runner plays each seat's
policy (an unknown one: random) until the game ends."""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import grpc
import pytest

from flotilla.api.lobby.v1 import lobby_service_pb2 as pb
from flotilla.bots import Decision, register
from flotilla.bots.remote import PolicyBot
from flotilla.matchmaker.workers import BotRunner
from flotilla.records import BotSeat
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla_client import RandomBot, Seat, play_random
from inproc import InProcess
from lobby.mm_support import Player, reason_of
from support import stored_tokens

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


@register("test-first")
class FirstPolicy:
    """The first legal action."""

    name = "test-first"

    def __init__(self, rules: Any, difficulty: int = 0) -> None:
        self.difficulty = difficulty

    def choose(self, decision: Decision, rng: random.Random) -> Any:
        return decision.legal[0]


async def test_a_room_bot_seat_plays_its_policy_at_its_difficulty(inproc: InProcess) -> None:
    host = await Player.signed_in(inproc.gateways[0], "host")
    request = pb.CreateRoomRequest(kind="counter", seat_count=2, options={"moves": "8"}, request_id=uuid.uuid4().hex)
    room = (await host.call(host.lobby, "CreateRoom", request)).room
    for bad, field in (
        (pb.AddBotRequest(room=room.name, policy="nope"), "policy"),
        (pb.AddBotRequest(room=room.name, difficulty=10), "difficulty"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await host.call(host.lobby, "AddBot", bad)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert reason_of(refused.value) == "ERROR_REASON_INVALID_REQUEST", field
        assert field in (refused.value.details() or "")
    added = (
        await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name, policy="random", difficulty=3))
    ).room
    assert (added.seats[1].bot_policy, added.seats[1].bot_difficulty) == ("random", 3)
    started = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
    game = started.room.game
    store = RedisStore.from_url(inproc.redis_url)
    tokens = await stored_tokens(inproc.redis_url)
    stop = asyncio.Event()
    runner = BotRunner(LobbyStore(store.redis), tokens, inproc.gateways, block_ms=100, policy="test-first")
    running = asyncio.create_task(runner.run(stop))
    try:
        queued = [BotSeat.decode(f) for _, f in await store.redis.xrevrange(keys.BOTS, count=50)]
        mine = [b for b in queued if f"games/{b.game_id}" == game]
        assert [(b.seat, b.policy, b.difficulty) for b in mine] == [(1, "random", 3)]
        # What the runner plays for a seat: its own policy, the runner's where it names none.
        seat = Seat(game, 1, tokens.seat(mine[0].game_id, 1, mine[0].user, mine[0].name))
        assert isinstance(await runner._bot(host.client, seat, mine[0]), RandomBot)
        named = await runner._bot(host.client, seat, BotSeat(mine[0].game_id, 1, "u", "n", "", 2))
        assert isinstance(named, PolicyBot)
        assert isinstance(named.policy, FirstPolicy)
        assert named.policy.difficulty == 2
        assert isinstance(await runner._bot(host.client, seat, BotSeat("g", 1, "u", "n", "gone")), RandomBot)
        await asyncio.wait_for(play_random(host.client, Seat(game, 0, started.seat_token), random.Random(1)), 60)
        final = await host.client.get_game(game)
        assert final.HasField("result")
        assert not final.seats[1].absent, "the bot runner did not play the bot seat"
    finally:
        stop.set()
        await asyncio.wait_for(running, 30)
        await store.close()
        await host.close()
