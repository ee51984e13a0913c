"""LobbyService: authenticate, convert, delegate to `lobby.rooms`; no room logic here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import grpc
import structlog

from flotilla.api.lobby.v1 import lobby_service_pb2 as pb
from flotilla.api.lobby.v1 import lobby_service_pb2_grpc as pb_grpc
from flotilla.app import inputs, listing
from flotilla.app.errors import GuestsDisabled, InvalidRequest
from flotilla.app.games import check_request_id
from flotilla.gateway.auth import Principal, Tokens, session_of
from flotilla.gateway.errors import maps_errors, maps_stream_errors
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.render import clock_from_pb, clock_pb
from flotilla.gateway.user_kinds import user_kind
from flotilla.lobby import room_access, room_options
from flotilla.lobby.room_document import (
    CLOSED,
    OPEN,
    STARTED,
    STARTING,
    Room,
    RoomFilter,
    room_clock,
    room_id_of,
    seat_of,
)
from flotilla.lobby.rooms import RATED_ROOM_NO_GUESTS, Rooms
from flotilla.records import RoomRow

log = structlog.get_logger("flotilla.gateway")

Context = grpc.aio.ServicerContext[Any, Any]
STATES = {
    OPEN: pb.ROOM_STATE_OPEN,
    STARTING: pb.ROOM_STATE_STARTING,
    STARTED: pb.ROOM_STATE_STARTED,
    CLOSED: pb.ROOM_STATE_CLOSED,
}


async def principal(tokens: Tokens, context: Context) -> Principal:
    return await session_of(tokens, context)


def render_room(version: int, room: Room, viewer: str) -> pb.Room:
    seated = seat_of(room, viewer) is not None
    out = pb.Room(
        name=f"rooms/{room['id']}",
        display_name=room.get("display_name", ""),
        kind=room["kind"],
        seat_count=room["seat_count"],
        options=room_options.shown(room["kind"], room["seat_count"], room["options"]),
        visibility=pb.ROOM_VISIBILITY_PUBLIC if room["public"] else pb.ROOM_VISIBILITY_PRIVATE,
        join_code=room["code"] if seated else "",
        host=f"users/{room['host']}",
        state=STATES[room["status"]],
        game=f"games/{room['game']}" if room["game"] else "",
        version=version,
        open_seats=sum(1 for s in room["seats"] if s is None),
        start_error=room.get("start_error", ""),
        rated=bool(room.get("rated")),
    )
    out.create_time.FromMilliseconds(room["created_ms"])
    if (clock := room_clock(room)) is not None:
        out.clock.CopyFrom(clock_pb(clock))
    for i, seat in enumerate(room["seats"]):
        if seat is None:
            out.seats.append(pb.RoomSeat(seat=i))
        else:
            out.seats.append(
                pb.RoomSeat(
                    seat=i,
                    taken=True,
                    user=f"users/{seat['user']}",
                    display_name=seat["name"],
                    ready=seat["ready"],
                    bot_policy=seat["bot"],
                    bot_difficulty=seat.get("difficulty"),
                    user_kind=user_kind(seat["user"], seat.get("kind")),
                )
            )
    return out


class LobbyServicer(pb_grpc.LobbyServiceServicer):
    """The lobby API of one gateway process."""

    def __init__(self, rooms: Rooms, tokens: Tokens, limits: CallLimits) -> None:
        self.rooms = rooms
        self.tokens = tokens
        self.limits = limits

    async def _seat_token(self, room: Room, who: Principal) -> str:
        return await room_access.seat_token(self.rooms, self.tokens, room, who)

    async def _admitted(self, context: Context, who: Principal, name: str, code: str) -> RoomRow:
        address = partial(self.limits.address, context)
        return await room_access.admitted(self.rooms, self.limits.limiter, who, name, code, address)

    @maps_errors
    async def CreateRoom(self, request: pb.CreateRoomRequest, context: Context) -> pb.CreateRoomResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("create_room", context, who.user)
        if request.rated and who.is_guest:
            raise GuestsDisabled(RATED_ROOM_NO_GUESTS)
        version, room = await self.rooms.create(
            who.user,
            who.name,
            request.kind,
            request.seat_count,
            inputs.options(request.options),
            public=request.visibility != pb.ROOM_VISIBILITY_PRIVATE,
            request_id=check_request_id(request.request_id),
            hold=partial(self.limits.limiter.hold, "rooms", who.user, still_open=self.rooms.still_open),
            display_name=inputs.display_name(request.display_name) if request.display_name else "",
            clock=clock_from_pb(request.clock) if request.HasField("clock") else None,
            rated=request.rated,
            user_kind=who.kind,
        )
        log.info("room.created", room=room["id"], kind=room["kind"], seats=room["seat_count"])
        return pb.CreateRoomResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def ListRooms(self, request: pb.ListRoomsRequest, context: Context) -> pb.ListRoomsResponse:
        who = await principal(self.tokens, context)
        size = listing.page_size(request.page_size)
        if request.min_open_seats < 0:
            raise InvalidRequest("min_open_seats must be >= 0", field="min_open_seats")
        after = listing.score_after(request.page_token)
        where = RoomFilter(inputs.kind_filter(request.kind), request.min_open_seats, inputs.options(request.options))
        rows, cursor = await self.rooms.list(where, after, size)
        return pb.ListRoomsResponse(
            rooms=[render_room(v, r, who.user) for v, r in rows],
            next_page_token="" if cursor is None else repr(cursor),
        )

    @maps_errors
    async def GetRoom(self, request: pb.GetRoomRequest, context: Context) -> pb.GetRoomResponse:
        who = await principal(self.tokens, context)
        version, room = await self._admitted(context, who, request.room, request.join_code)
        return pb.GetRoomResponse(
            room=render_room(version, room, who.user), seat_token=await self._seat_token(room, who)
        )

    @maps_errors
    async def JoinRoom(self, request: pb.JoinRoomRequest, context: Context) -> pb.JoinRoomResponse:
        who = await principal(self.tokens, context)
        if request.room:
            room_id_of(request.room)  # a malformed name is refused before any limit is taken
        await self.limits.check("join", context, who.user, bot=who.is_bot_account)
        seat = request.seat if request.HasField("seat") else None
        _, found = await self._admitted(context, who, request.room, request.join_code)
        version, room = await self.rooms.join(
            found["id"], who.user, who.name, request.join_code, seat, user_kind=who.kind
        )
        return pb.JoinRoomResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def LeaveRoom(self, request: pb.LeaveRoomRequest, context: Context) -> pb.LeaveRoomResponse:
        who = await principal(self.tokens, context)
        version, room = await self.rooms.leave(room_id_of(request.room), who.user)
        return pb.LeaveRoomResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def SetReady(self, request: pb.SetReadyRequest, context: Context) -> pb.SetReadyResponse:
        who = await principal(self.tokens, context)
        version, room = await self.rooms.ready(room_id_of(request.room), who.user, request.ready)
        return pb.SetReadyResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def KickSeat(self, request: pb.KickSeatRequest, context: Context) -> pb.KickSeatResponse:
        who = await principal(self.tokens, context)
        version, room = await self.rooms.kick(room_id_of(request.room), who.user, request.seat)
        return pb.KickSeatResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def TransferHost(self, request: pb.TransferHostRequest, context: Context) -> pb.TransferHostResponse:
        who = await principal(self.tokens, context)
        if not request.user.startswith("users/"):
            raise InvalidRequest("user must look like users/<id>", field="user")
        version, room = await self.rooms.hand_over(
            room_id_of(request.room), who.user, request.user.removeprefix("users/")
        )
        return pb.TransferHostResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def AddBot(self, request: pb.AddBotRequest, context: Context) -> pb.AddBotResponse:
        who = await principal(self.tokens, context)
        seat = request.seat if request.HasField("seat") else None
        difficulty = request.difficulty if request.HasField("difficulty") else None
        room_id = room_id_of(request.room)
        budget = partial(self.limits.limiter.bot_budget, who.user, room_id, spent=self.rooms.bot_costs)
        version, room = await self.rooms.add_bot(room_id, who.user, seat, request.policy, difficulty, budget=budget)
        return pb.AddBotResponse(room=render_room(version, room, who.user))

    @maps_errors
    async def StartRoom(self, request: pb.StartRoomRequest, context: Context) -> pb.StartRoomResponse:
        who = await principal(self.tokens, context)
        version, room = await self.rooms.start(room_id_of(request.room), who.user)
        log.info("room.started", room=room["id"], game=room["game"])
        return pb.StartRoomResponse(
            room=render_room(version, room, who.user), seat_token=await self._seat_token(room, who)
        )

    @maps_stream_errors
    async def WatchRoom(self, request: pb.WatchRoomRequest, context: Context) -> AsyncIterator[pb.WatchRoomResponse]:
        who = await principal(self.tokens, context)
        room_id = room_id_of(request.room)
        async with self.limits.stream(context, who.user, bot=who.is_bot_account):
            if request.join_code:  # checked once here, where a wrong code counts (the watch checks it again)
                await self._admitted(context, who, request.room, request.join_code)
            async for change in self.rooms.watch(room_id, request.after_version, who.user, join_code=request.join_code):
                if change is None:
                    yield pb.WatchRoomResponse(is_checkpoint=True)
                    continue
                version, room = change
                yield pb.WatchRoomResponse(
                    room=render_room(version, room, who.user), seat_token=await self._seat_token(room, who)
                )
