"""A matchmaker playing a room's bot is killed mid-game: another one takes the seat over and the game finishes.

A counter game of 200 moves (it was 400): the runner is killed after the bot's first few moves and
its successor claims the seat 2 s later (FLOTILLA_MM_CLAIM_IDLE), so the game is mid-way either
way; the other 200 moves only took longer to play out."""

from __future__ import annotations

import asyncio
import random
import signal
import uuid
from pathlib import Path

import pytest

from flotilla.api.lobby.v1 import lobby_service_pb2 as pb
from flotilla_client import Seat, play_random
from lobby.mm_support import Player, start_matchmaker, stop
from support import Stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

MOVES = 200


async def test_a_bot_seat_survives_the_death_of_its_runner(stack: Stack, tmp_path: Path) -> None:
    fast = {"FLOTILLA_MM_ROLES": "bots", "FLOTILLA_MM_CLAIM_IDLE": "2"}
    first = start_matchmaker(stack, tmp_path, "first", **fast)
    second = None
    host = await Player.signed_in(stack.gateways[0], "host")
    try:
        request = pb.CreateRoomRequest(
            kind="counter", seat_count=2, options={"moves": str(MOVES)}, request_id=uuid.uuid4().hex
        )
        room = (await host.call(host.lobby, "CreateRoom", request)).room
        await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))
        started = await host.call(host.lobby, "StartRoom", pb.StartRoomRequest(room=room.name))
        game = started.room.game
        playing = asyncio.create_task(play_random(host.client, Seat(game, 0, started.seat_token), random.Random(5)))
        for _ in range(300):  # until the first runner's bot has played a few moves
            if (await host.client.get_game(game)).last_event_id >= 10:
                break
            await asyncio.sleep(0.05)
        second = start_matchmaker(stack, tmp_path, "second", **fast)
        first.send_signal(signal.SIGKILL)
        at_kill = (await host.client.get_game(game)).last_event_id
        assert 10 <= at_kill < MOVES + 2, "the bot should be mid-game when its runner dies"
        await asyncio.wait_for(playing, 90)
        assert (await host.client.get_game(game)).last_event_id == MOVES + 2  # started + the moves + finished
    finally:
        stop(first)
        if second is not None:
            stop(second)
        await host.close()
