"""A room as stored: one JSON document (`Room`), its statuses and the pure reads and checks on it
(seats, join codes, the listing score, ListRooms' filter). No I/O here: lobby/rooms.py changes rooms."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flotilla.app import join_codes
from flotilla.app.clocks import ClockConfig
from flotilla.app.errors import InvalidRequest, NotRoomHost, RoomNotOpen, WrongJoinCode
from flotilla.app.inputs import echo
from flotilla.lobby import room_options
from flotilla.store.lobby_store import LISTING_STEP

OPEN, STARTING, STARTED, CLOSED = "open", "starting", "started", "closed"
_ROOM_NAME = re.compile(r"^rooms/([0-9a-f]{32})$")

Room = dict[str, Any]


def room_id_of(name: str) -> str:
    match = _ROOM_NAME.match(name)
    if match is None:
        raise InvalidRequest(f"room must look like rooms/<id>, got {echo(name)}", field="room")
    return match.group(1)


def code_matches(room: Room, code: str) -> bool:
    """Whether `code` is the room's join code (join_codes.normal: any case, spaces, dashes)."""
    return join_codes.matches(code, str(room["code"]))


def needs_code(room: Room, user: str) -> bool:
    """Whether `user` needs the room's join code to see it: a private room it does not sit in."""
    return not room["public"] and seat_of(room, user) is None


def check_join_code(room: Room, user: str, code: str) -> None:
    """Refuse `user` a private room it does not sit in unless `code` is its join code (WrongJoinCode)."""
    if needs_code(room, user) and not code_matches(room, code):
        raise WrongJoinCode("this private room needs its join code", room=f"rooms/{room['id']}")


def bot_user(room_or_match: str, seat: int) -> str:
    """The user id of a bot seat (stable, so a retried start joins the same bot)."""
    return "bot-" + uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:bot:{room_or_match}:{seat}").hex


def is_bot(user: str) -> bool:
    return user.startswith("bot-")


def room_clock(room: Room) -> ClockConfig | None:
    """The turn clock the room's game gets (None: none; rooms stored before clocks have none)."""
    raw = room.get("clock")
    return ClockConfig.from_plain(raw) if raw else None


def open_seats(room: Room) -> int:
    return sum(1 for s in room["seats"] if s is None)


def listing(room: Room) -> float | None:
    """The room's score in the listing indexes; None when it is not listed (private, started, closed)."""
    if not room["public"] or room["status"] != OPEN:
        return None
    return float(open_seats(room) * LISTING_STEP + room["seq"])


def seat_of(room: Room, user: str) -> int | None:
    for i, seat in enumerate(room["seats"]):
        if seat is not None and seat["user"] == user:
            return i
    return None


def require_host(room: Room, user: str) -> None:
    if room["host"] != user:
        raise NotRoomHost("only the room's host may do this", room=f"rooms/{room['id']}")


def require_open(room: Room) -> None:
    if room["status"] != OPEN:
        raise RoomNotOpen(f"the room is {room['status']}", room=f"rooms/{room['id']}", status=room["status"])


@dataclass(frozen=True, slots=True)
class RoomFilter:
    """What ListRooms may filter on (all optional)."""

    kind: str = ""
    min_open_seats: int = 0
    options: Mapping[str, str] | None = None

    def accepts(self, room: Room) -> bool:
        if self.kind and room["kind"] != self.kind:
            return False
        if room["status"] != OPEN or not room["public"] or open_seats(room) < self.min_open_seats:
            return False
        return room_options.matches(room["kind"], room["seat_count"], room["options"], self.options or {})
