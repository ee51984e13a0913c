"""The server streams both clients resume (the Play stream's state is in `flotilla_client.play`).

A `Resume` knows the request that reopens its stream where the last update left it: WatchGame by
etag (so the server can tell when the game's history changed under it), WatchRoom by version,
WatchTicket as it is (its first message is the ticket's state).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic

from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla_client.rpcs import WATCH_GAME, WATCH_ROOM, WATCH_TICKET, Req, Resp, ServerStream


@dataclass(slots=True)
class Resume(Generic[Req, Resp]):
    """A server stream to (re)open with `request()`; `seen` moves its cursor past each update."""

    rpc: ServerStream[Req, Resp]
    token: str
    request: Callable[[], Req]
    seen: Callable[[Resp], None]


def _copy(message: Req) -> Req:
    copy = type(message)()
    copy.CopyFrom(message)
    return copy


def watch_game(
    game: str, token: str, after_event_id: int = 0, after_etag: str = "", join_code: str = ""
) -> Resume[g.WatchGameRequest, g.WatchGameResponse]:
    """WatchGame from `after_etag` (or `after_event_id`), resumed by the last update's etag."""
    opening = g.WatchGameRequest(game=game, after_event_id=after_event_id, after_etag=after_etag, join_code=join_code)

    def seen(update: g.WatchGameResponse) -> None:
        opening.after_event_id, opening.after_etag = update.through_event_id, update.etag

    return Resume(WATCH_GAME, token, lambda: _copy(opening), seen)


def watch_room(
    room: str, token: str, after_version: int = 0, join_code: str = ""
) -> Resume[lb.WatchRoomRequest, lb.WatchRoomResponse]:
    """WatchRoom from `after_version`, resumed after the last version seen."""
    opening = lb.WatchRoomRequest(room=room, after_version=after_version, join_code=join_code)

    def seen(update: lb.WatchRoomResponse) -> None:
        opening.after_version = update.room.version

    return Resume(WATCH_ROOM, token, lambda: _copy(opening), seen)


def watch_ticket(ticket: str, token: str) -> Resume[mm.WatchTicketRequest, mm.WatchTicketResponse]:
    """WatchTicket; reopened as it is (every stream starts with the ticket's state)."""
    return Resume(WATCH_TICKET, token, lambda: mm.WatchTicketRequest(ticket=ticket), lambda update: None)
