import datetime

from flotilla.api.game.v1 import game_pb2 as _game_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RoomVisibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROOM_VISIBILITY_UNSPECIFIED: _ClassVar[RoomVisibility]
    ROOM_VISIBILITY_PUBLIC: _ClassVar[RoomVisibility]
    ROOM_VISIBILITY_PRIVATE: _ClassVar[RoomVisibility]

class RoomState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ROOM_STATE_UNSPECIFIED: _ClassVar[RoomState]
    ROOM_STATE_OPEN: _ClassVar[RoomState]
    ROOM_STATE_STARTING: _ClassVar[RoomState]
    ROOM_STATE_STARTED: _ClassVar[RoomState]
    ROOM_STATE_CLOSED: _ClassVar[RoomState]
ROOM_VISIBILITY_UNSPECIFIED: RoomVisibility
ROOM_VISIBILITY_PUBLIC: RoomVisibility
ROOM_VISIBILITY_PRIVATE: RoomVisibility
ROOM_STATE_UNSPECIFIED: RoomState
ROOM_STATE_OPEN: RoomState
ROOM_STATE_STARTING: RoomState
ROOM_STATE_STARTED: RoomState
ROOM_STATE_CLOSED: RoomState

class Room(_message.Message):
    __slots__ = ("name", "kind", "seat_count", "options", "visibility", "join_code", "host", "seats", "state", "game", "version", "open_seats", "create_time", "display_name", "clock", "rated", "start_error")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    HOST_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    START_ERROR_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    seat_count: int
    options: _containers.ScalarMap[str, str]
    visibility: RoomVisibility
    join_code: str
    host: str
    seats: _containers.RepeatedCompositeFieldContainer[RoomSeat]
    state: RoomState
    game: str
    version: int
    open_seats: int
    create_time: _timestamp_pb2.Timestamp
    display_name: str
    clock: _game_pb2.Clock
    rated: bool
    start_error: str
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., visibility: _Optional[_Union[RoomVisibility, str]] = ..., join_code: _Optional[str] = ..., host: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[RoomSeat, _Mapping]]] = ..., state: _Optional[_Union[RoomState, str]] = ..., game: _Optional[str] = ..., version: _Optional[int] = ..., open_seats: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., display_name: _Optional[str] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ..., rated: _Optional[bool] = ..., start_error: _Optional[str] = ...) -> None: ...

class RoomSeat(_message.Message):
    __slots__ = ("seat", "taken", "user", "display_name", "ready", "bot_policy", "bot_difficulty", "user_kind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    BOT_POLICY_FIELD_NUMBER: _ClassVar[int]
    BOT_DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    USER_KIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    taken: bool
    user: str
    display_name: str
    ready: bool
    bot_policy: str
    bot_difficulty: int
    user_kind: _game_pb2.UserKind
    def __init__(self, seat: _Optional[int] = ..., taken: _Optional[bool] = ..., user: _Optional[str] = ..., display_name: _Optional[str] = ..., ready: _Optional[bool] = ..., bot_policy: _Optional[str] = ..., bot_difficulty: _Optional[int] = ..., user_kind: _Optional[_Union[_game_pb2.UserKind, str]] = ...) -> None: ...

class CreateRoomRequest(_message.Message):
    __slots__ = ("kind", "seat_count", "options", "visibility", "request_id", "display_name", "clock", "rated")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat_count: int
    options: _containers.ScalarMap[str, str]
    visibility: RoomVisibility
    request_id: str
    display_name: str
    clock: _game_pb2.Clock
    rated: bool
    def __init__(self, kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., visibility: _Optional[_Union[RoomVisibility, str]] = ..., request_id: _Optional[str] = ..., display_name: _Optional[str] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ..., rated: _Optional[bool] = ...) -> None: ...

class CreateRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class ListRoomsRequest(_message.Message):
    __slots__ = ("kind", "min_open_seats", "options", "page_size", "page_token")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    KIND_FIELD_NUMBER: _ClassVar[int]
    MIN_OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    min_open_seats: int
    options: _containers.ScalarMap[str, str]
    page_size: int
    page_token: str
    def __init__(self, kind: _Optional[str] = ..., min_open_seats: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRoomsResponse(_message.Message):
    __slots__ = ("rooms", "next_page_token")
    ROOMS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    rooms: _containers.RepeatedCompositeFieldContainer[Room]
    next_page_token: str
    def __init__(self, rooms: _Optional[_Iterable[_Union[Room, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRoomRequest(_message.Message):
    __slots__ = ("room", "join_code")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    room: str
    join_code: str
    def __init__(self, room: _Optional[str] = ..., join_code: _Optional[str] = ...) -> None: ...

class GetRoomResponse(_message.Message):
    __slots__ = ("room", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat_token: _Optional[str] = ...) -> None: ...

class JoinRoomRequest(_message.Message):
    __slots__ = ("room", "join_code", "seat")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    room: str
    join_code: str
    seat: int
    def __init__(self, room: _Optional[str] = ..., join_code: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class JoinRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class LeaveRoomRequest(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: str
    def __init__(self, room: _Optional[str] = ...) -> None: ...

class LeaveRoomResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class SetReadyRequest(_message.Message):
    __slots__ = ("room", "ready")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    room: str
    ready: bool
    def __init__(self, room: _Optional[str] = ..., ready: _Optional[bool] = ...) -> None: ...

class SetReadyResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class KickSeatRequest(_message.Message):
    __slots__ = ("room", "seat")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    room: str
    seat: int
    def __init__(self, room: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class KickSeatResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class TransferHostRequest(_message.Message):
    __slots__ = ("room", "user")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    room: str
    user: str
    def __init__(self, room: _Optional[str] = ..., user: _Optional[str] = ...) -> None: ...

class TransferHostResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class AddBotRequest(_message.Message):
    __slots__ = ("room", "seat", "policy", "difficulty")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    room: str
    seat: int
    policy: str
    difficulty: int
    def __init__(self, room: _Optional[str] = ..., seat: _Optional[int] = ..., policy: _Optional[str] = ..., difficulty: _Optional[int] = ...) -> None: ...

class AddBotResponse(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: Room
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ...) -> None: ...

class StartRoomRequest(_message.Message):
    __slots__ = ("room",)
    ROOM_FIELD_NUMBER: _ClassVar[int]
    room: str
    def __init__(self, room: _Optional[str] = ...) -> None: ...

class StartRoomResponse(_message.Message):
    __slots__ = ("room", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., seat_token: _Optional[str] = ...) -> None: ...

class WatchRoomRequest(_message.Message):
    __slots__ = ("room", "after_version", "join_code")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    room: str
    after_version: int
    join_code: str
    def __init__(self, room: _Optional[str] = ..., after_version: _Optional[int] = ..., join_code: _Optional[str] = ...) -> None: ...

class WatchRoomResponse(_message.Message):
    __slots__ = ("room", "is_checkpoint", "seat_token")
    ROOM_FIELD_NUMBER: _ClassVar[int]
    IS_CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    room: Room
    is_checkpoint: bool
    seat_token: str
    def __init__(self, room: _Optional[_Union[Room, _Mapping]] = ..., is_checkpoint: _Optional[bool] = ..., seat_token: _Optional[str] = ...) -> None: ...
