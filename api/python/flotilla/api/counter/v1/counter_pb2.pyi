from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Action(_message.Message):
    __slots__ = ("add",)
    ADD_FIELD_NUMBER: _ClassVar[int]
    add: Add
    def __init__(self, add: _Optional[_Union[Add, _Mapping]] = ...) -> None: ...

class Add(_message.Message):
    __slots__ = ("n",)
    N_FIELD_NUMBER: _ClassVar[int]
    n: int
    def __init__(self, n: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("added",)
    ADDED_FIELD_NUMBER: _ClassVar[int]
    added: Added
    def __init__(self, added: _Optional[_Union[Added, _Mapping]] = ...) -> None: ...

class Added(_message.Message):
    __slots__ = ("seat", "n", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    n: int
    total: int
    def __init__(self, seat: _Optional[int] = ..., n: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("viewer", "total", "count", "moves", "to_act")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    total: int
    count: int
    moves: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, viewer: _Optional[int] = ..., total: _Optional[int] = ..., count: _Optional[int] = ..., moves: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ...) -> None: ...
