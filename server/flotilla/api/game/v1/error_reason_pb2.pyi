from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

DESCRIPTOR: _descriptor.FileDescriptor

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_CONFIG: _ClassVar[ErrorReason]
    ERROR_REASON_ILLEGAL_ACTION: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_YOUR_TURN: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_FINISHED: _ClassVar[ErrorReason]
    ERROR_REASON_CANNOT_AFFORD: _ClassVar[ErrorReason]
    ERROR_REASON_RULES_ERROR: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_SEATED: _ClassVar[ErrorReason]
    ERROR_REASON_UNAUTHENTICATED: _ClassVar[ErrorReason]
    ERROR_REASON_STALE_GAME_VERSION: _ClassVar[ErrorReason]
    ERROR_REASON_STORE_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_INVALID_REQUEST: _ClassVar[ErrorReason]
    ERROR_REASON_UNKNOWN_GAME_KIND: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_FULL: _ClassVar[ErrorReason]
    ERROR_REASON_NO_WORKER_ANSWER: _ClassVar[ErrorReason]
    ERROR_REASON_GAME_NOT_FINISHED: _ClassVar[ErrorReason]
    ERROR_REASON_RULES_VERSION_UNAVAILABLE: _ClassVar[ErrorReason]
    ERROR_REASON_APP_ERROR: _ClassVar[ErrorReason]
    ERROR_REASON_ROOM_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_TICKET_NOT_FOUND: _ClassVar[ErrorReason]
    ERROR_REASON_NOT_ROOM_HOST: _ClassVar[ErrorReason]
    ERROR_REASON_WRONG_JOIN_CODE: _ClassVar[ErrorReason]
    ERROR_REASON_ROOM_FULL: _ClassVar[ErrorReason]
    ERROR_REASON_ROOM_NOT_OPEN: _ClassVar[ErrorReason]
    ERROR_REASON_ROOM_NOT_READY: _ClassVar[ErrorReason]
    ERROR_REASON_ROOM_BUSY: _ClassVar[ErrorReason]
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_INVALID_ACTION: ErrorReason
ERROR_REASON_INVALID_CONFIG: ErrorReason
ERROR_REASON_ILLEGAL_ACTION: ErrorReason
ERROR_REASON_NOT_YOUR_TURN: ErrorReason
ERROR_REASON_GAME_FINISHED: ErrorReason
ERROR_REASON_CANNOT_AFFORD: ErrorReason
ERROR_REASON_RULES_ERROR: ErrorReason
ERROR_REASON_GAME_NOT_FOUND: ErrorReason
ERROR_REASON_NOT_SEATED: ErrorReason
ERROR_REASON_UNAUTHENTICATED: ErrorReason
ERROR_REASON_STALE_GAME_VERSION: ErrorReason
ERROR_REASON_STORE_UNAVAILABLE: ErrorReason
ERROR_REASON_INVALID_REQUEST: ErrorReason
ERROR_REASON_UNKNOWN_GAME_KIND: ErrorReason
ERROR_REASON_GAME_FULL: ErrorReason
ERROR_REASON_NO_WORKER_ANSWER: ErrorReason
ERROR_REASON_GAME_NOT_FINISHED: ErrorReason
ERROR_REASON_RULES_VERSION_UNAVAILABLE: ErrorReason
ERROR_REASON_APP_ERROR: ErrorReason
ERROR_REASON_ROOM_NOT_FOUND: ErrorReason
ERROR_REASON_TICKET_NOT_FOUND: ErrorReason
ERROR_REASON_NOT_ROOM_HOST: ErrorReason
ERROR_REASON_WRONG_JOIN_CODE: ErrorReason
ERROR_REASON_ROOM_FULL: ErrorReason
ERROR_REASON_ROOM_NOT_OPEN: ErrorReason
ERROR_REASON_ROOM_NOT_READY: ErrorReason
ERROR_REASON_ROOM_BUSY: ErrorReason
