import datetime

from flotilla.api.counter.v1 import counter_pb2 as _counter_pb2
from flotilla.api.navegador.v1 import navegador_pb2 as _navegador_pb2
from flotilla.api.pirates_of_nassau.v1 import pirates_of_nassau_pb2 as _pirates_of_nassau_pb2
from flotilla.api.port_royal.v1 import port_royal_pb2 as _port_royal_pb2
from flotilla.api.sail_away.v1 import sail_away_pb2 as _sail_away_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class UserKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    USER_KIND_UNSPECIFIED: _ClassVar[UserKind]
    USER_KIND_ACCOUNT: _ClassVar[UserKind]
    USER_KIND_GUEST: _ClassVar[UserKind]
    USER_KIND_BOT_ACCOUNT: _ClassVar[UserKind]
    USER_KIND_SERVER_BOT: _ClassVar[UserKind]

class AbsencePolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ABSENCE_POLICY_UNSPECIFIED: _ClassVar[AbsencePolicy]
    ABSENCE_POLICY_BOT: _ClassVar[AbsencePolicy]
    ABSENCE_POLICY_ABORT: _ClassVar[AbsencePolicy]
    ABSENCE_POLICY_FORFEIT: _ClassVar[AbsencePolicy]

class GameState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_STATE_UNSPECIFIED: _ClassVar[GameState]
    GAME_STATE_WAITING: _ClassVar[GameState]
    GAME_STATE_ACTIVE: _ClassVar[GameState]
    GAME_STATE_FINISHED: _ClassVar[GameState]
    GAME_STATE_ABANDONED: _ClassVar[GameState]
USER_KIND_UNSPECIFIED: UserKind
USER_KIND_ACCOUNT: UserKind
USER_KIND_GUEST: UserKind
USER_KIND_BOT_ACCOUNT: UserKind
USER_KIND_SERVER_BOT: UserKind
ABSENCE_POLICY_UNSPECIFIED: AbsencePolicy
ABSENCE_POLICY_BOT: AbsencePolicy
ABSENCE_POLICY_ABORT: AbsencePolicy
ABSENCE_POLICY_FORFEIT: AbsencePolicy
GAME_STATE_UNSPECIFIED: GameState
GAME_STATE_WAITING: GameState
GAME_STATE_ACTIVE: GameState
GAME_STATE_FINISHED: GameState
GAME_STATE_ABANDONED: GameState

class Game(_message.Message):
    __slots__ = ("name", "kind", "seat_count", "options", "state", "seats", "etag", "rules_version", "create_time", "last_event_id", "result", "to_act", "seed_sha256", "clock")
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
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    LAST_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    SEED_SHA256_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    seat_count: int
    options: _containers.ScalarMap[str, str]
    state: GameState
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    etag: str
    rules_version: str
    create_time: _timestamp_pb2.Timestamp
    last_event_id: int
    result: Result
    to_act: _containers.RepeatedScalarFieldContainer[int]
    seed_sha256: str
    clock: Clock
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., state: _Optional[_Union[GameState, str]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., etag: _Optional[str] = ..., rules_version: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., last_event_id: _Optional[int] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., seed_sha256: _Optional[str] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("turn_seconds", "bank_seconds", "increment_seconds", "max_timeouts", "absence_policy")
    TURN_SECONDS_FIELD_NUMBER: _ClassVar[int]
    BANK_SECONDS_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MAX_TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    ABSENCE_POLICY_FIELD_NUMBER: _ClassVar[int]
    turn_seconds: int
    bank_seconds: int
    increment_seconds: int
    max_timeouts: int
    absence_policy: AbsencePolicy
    def __init__(self, turn_seconds: _Optional[int] = ..., bank_seconds: _Optional[int] = ..., increment_seconds: _Optional[int] = ..., max_timeouts: _Optional[int] = ..., absence_policy: _Optional[_Union[AbsencePolicy, str]] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "taken", "display_name", "user", "deadline", "bank_ms", "timeouts", "absent", "forfeited", "user_kind")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    ABSENT_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    USER_KIND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    taken: bool
    display_name: str
    user: str
    deadline: _timestamp_pb2.Timestamp
    bank_ms: int
    timeouts: int
    absent: bool
    forfeited: bool
    user_kind: UserKind
    def __init__(self, seat: _Optional[int] = ..., taken: _Optional[bool] = ..., display_name: _Optional[str] = ..., user: _Optional[str] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., bank_ms: _Optional[int] = ..., timeouts: _Optional[int] = ..., absent: _Optional[bool] = ..., forfeited: _Optional[bool] = ..., user_kind: _Optional[_Union[UserKind, str]] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("scores", "winners", "ranks", "detail")
    class DetailEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    detail: _containers.ScalarMap[str, str]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ..., detail: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("counter", "port_royal", "sail_away", "pirates_of_nassau", "navegador")
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    PORT_ROYAL_FIELD_NUMBER: _ClassVar[int]
    SAIL_AWAY_FIELD_NUMBER: _ClassVar[int]
    PIRATES_OF_NASSAU_FIELD_NUMBER: _ClassVar[int]
    NAVEGADOR_FIELD_NUMBER: _ClassVar[int]
    counter: _counter_pb2.Action
    port_royal: _port_royal_pb2.Action
    sail_away: _sail_away_pb2.Action
    pirates_of_nassau: _pirates_of_nassau_pb2.Action
    navegador: _navegador_pb2.Action
    def __init__(self, counter: _Optional[_Union[_counter_pb2.Action, _Mapping]] = ..., port_royal: _Optional[_Union[_port_royal_pb2.Action, _Mapping]] = ..., sail_away: _Optional[_Union[_sail_away_pb2.Action, _Mapping]] = ..., pirates_of_nassau: _Optional[_Union[_pirates_of_nassau_pb2.Action, _Mapping]] = ..., navegador: _Optional[_Union[_navegador_pb2.Action, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("event_id", "event_time", "summary", "game_started", "game_finished", "seat_timed_out", "seat_absent", "game_aborted", "counter", "port_royal", "sail_away", "pirates_of_nassau", "navegador", "text")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_FINISHED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    SEAT_ABSENT_FIELD_NUMBER: _ClassVar[int]
    GAME_ABORTED_FIELD_NUMBER: _ClassVar[int]
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    PORT_ROYAL_FIELD_NUMBER: _ClassVar[int]
    SAIL_AWAY_FIELD_NUMBER: _ClassVar[int]
    PIRATES_OF_NASSAU_FIELD_NUMBER: _ClassVar[int]
    NAVEGADOR_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    event_time: _timestamp_pb2.Timestamp
    summary: str
    game_started: GameStarted
    game_finished: GameFinished
    seat_timed_out: SeatTimedOut
    seat_absent: SeatAbsent
    game_aborted: GameAborted
    counter: _counter_pb2.Event
    port_royal: _port_royal_pb2.Event
    sail_away: _sail_away_pb2.Event
    pirates_of_nassau: _pirates_of_nassau_pb2.Event
    navegador: _navegador_pb2.Event
    text: Text
    def __init__(self, event_id: _Optional[int] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., summary: _Optional[str] = ..., game_started: _Optional[_Union[GameStarted, _Mapping]] = ..., game_finished: _Optional[_Union[GameFinished, _Mapping]] = ..., seat_timed_out: _Optional[_Union[SeatTimedOut, _Mapping]] = ..., seat_absent: _Optional[_Union[SeatAbsent, _Mapping]] = ..., game_aborted: _Optional[_Union[GameAborted, _Mapping]] = ..., counter: _Optional[_Union[_counter_pb2.Event, _Mapping]] = ..., port_royal: _Optional[_Union[_port_royal_pb2.Event, _Mapping]] = ..., sail_away: _Optional[_Union[_sail_away_pb2.Event, _Mapping]] = ..., pirates_of_nassau: _Optional[_Union[_pirates_of_nassau_pb2.Event, _Mapping]] = ..., navegador: _Optional[_Union[_navegador_pb2.Event, _Mapping]] = ..., text: _Optional[_Union[Text, _Mapping]] = ...) -> None: ...

class GameStarted(_message.Message):
    __slots__ = ("rules_version", "seed_sha256", "seat_count", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEED_SHA256_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    rules_version: str
    seed_sha256: str
    seat_count: int
    options: _containers.ScalarMap[str, str]
    def __init__(self, rules_version: _Optional[str] = ..., seed_sha256: _Optional[str] = ..., seat_count: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class GameFinished(_message.Message):
    __slots__ = ("result", "seed")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    result: Result
    seed: str
    def __init__(self, result: _Optional[_Union[Result, _Mapping]] = ..., seed: _Optional[str] = ...) -> None: ...

class SeatTimedOut(_message.Message):
    __slots__ = ("seat", "consecutive")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    consecutive: int
    def __init__(self, seat: _Optional[int] = ..., consecutive: _Optional[int] = ...) -> None: ...

class SeatAbsent(_message.Message):
    __slots__ = ("seat", "reason", "policy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    reason: str
    policy: AbsencePolicy
    def __init__(self, seat: _Optional[int] = ..., reason: _Optional[str] = ..., policy: _Optional[_Union[AbsencePolicy, str]] = ...) -> None: ...

class GameAborted(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class GameView(_message.Message):
    __slots__ = ("game", "etag", "through_event_id", "viewer_seat", "to_act", "counter", "port_royal", "sail_away", "pirates_of_nassau", "navegador")
    GAME_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    THROUGH_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    COUNTER_FIELD_NUMBER: _ClassVar[int]
    PORT_ROYAL_FIELD_NUMBER: _ClassVar[int]
    SAIL_AWAY_FIELD_NUMBER: _ClassVar[int]
    PIRATES_OF_NASSAU_FIELD_NUMBER: _ClassVar[int]
    NAVEGADOR_FIELD_NUMBER: _ClassVar[int]
    game: str
    etag: str
    through_event_id: int
    viewer_seat: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    counter: _counter_pb2.View
    port_royal: _port_royal_pb2.View
    sail_away: _sail_away_pb2.View
    pirates_of_nassau: _pirates_of_nassau_pb2.View
    navegador: _navegador_pb2.View
    def __init__(self, game: _Optional[str] = ..., etag: _Optional[str] = ..., through_event_id: _Optional[int] = ..., viewer_seat: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., counter: _Optional[_Union[_counter_pb2.View, _Mapping]] = ..., port_royal: _Optional[_Union[_port_royal_pb2.View, _Mapping]] = ..., sail_away: _Optional[_Union[_sail_away_pb2.View, _Mapping]] = ..., pirates_of_nassau: _Optional[_Union[_pirates_of_nassau_pb2.View, _Mapping]] = ..., navegador: _Optional[_Union[_navegador_pb2.View, _Mapping]] = ...) -> None: ...

class Prompt(_message.Message):
    __slots__ = ("seat", "legal_actions", "etag", "legal_action_texts", "default_action_index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTION_TEXTS_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    etag: str
    legal_action_texts: _containers.RepeatedCompositeFieldContainer[Text]
    default_action_index: int
    def __init__(self, seat: _Optional[int] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., etag: _Optional[str] = ..., legal_action_texts: _Optional[_Iterable[_Union[Text, _Mapping]]] = ..., default_action_index: _Optional[int] = ...) -> None: ...

class Text(_message.Message):
    __slots__ = ("label", "message_key", "args")
    class ArgsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LABEL_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_KEY_FIELD_NUMBER: _ClassVar[int]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    label: str
    message_key: str
    args: _containers.ScalarMap[str, str]
    def __init__(self, label: _Optional[str] = ..., message_key: _Optional[str] = ..., args: _Optional[_Mapping[str, str]] = ...) -> None: ...
