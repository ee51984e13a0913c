"""A room watcher survives a Redis that comes back behind: it is sent the room as stored again."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.asyncio as aioredis

from flotilla.api.lobby.v1 import lobby_service_pb2 as pb
from flotilla.store import keys
from inproc import InProcess
from lobby.mm_support import Player

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


async def next_room(watch: object) -> pb.Room:
    while True:
        message = await asyncio.wait_for(watch.read(), 20)  # type: ignore[attr-defined]
        if not message.is_checkpoint:
            return message.room


async def test_a_room_watcher_is_resynced_when_redis_comes_back_behind(inproc: InProcess) -> None:
    host = await Player.signed_in(inproc.gateways[0], "room-host")
    request = pb.CreateRoomRequest(
        kind="counter", seat_count=2, visibility=pb.ROOM_VISIBILITY_PUBLIC, request_id=uuid.uuid4().hex
    )
    room = (await host.call(host.lobby, "CreateRoom", request)).room
    room_id = room.name.removeprefix("rooms/")
    watch = host.lobby.WatchRoom(pb.WatchRoomRequest(room=room.name), metadata=host.md)
    assert (await next_room(watch)).version == 1
    redis = aioredis.Redis.from_url(inproc.redis_url)
    saved = {key: await redis.dump(key) for key in (keys.room(room_id), keys.room_changes(room_id))}
    await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))
    assert (await next_room(watch)).version == 2

    # Redis comes back with the room as it was: its data goes back, every connection drops.
    for key, blob in saved.items():
        await redis.restore(key, 0, blob, replace=True)
    await redis.client_kill_filter(_type="normal", skipme=True)

    again = await next_room(watch)
    assert again.version == 1
    assert not again.seats[1].bot_policy
    await host.call(host.lobby, "AddBot", pb.AddBotRequest(room=room.name))
    after = await next_room(watch)
    assert after.version == 2
    assert after.seats[1].bot_policy == "random"
    watch.cancel()
    await redis.aclose()
    await host.close()
