from flotilla.api.game.v1 import game_pb2 as _game_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.rpc import status_pb2 as _status_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ResyncReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESYNC_REASON_UNSPECIFIED: _ClassVar[ResyncReason]
    RESYNC_REASON_HISTORY_REWOUND: _ClassVar[ResyncReason]
    RESYNC_REASON_RESUME_POINT_UNKNOWN: _ClassVar[ResyncReason]
RESYNC_REASON_UNSPECIFIED: ResyncReason
RESYNC_REASON_HISTORY_REWOUND: ResyncReason
RESYNC_REASON_RESUME_POINT_UNKNOWN: ResyncReason

class SignInAsGuestRequest(_message.Message):
    __slots__ = ("display_name",)
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    def __init__(self, display_name: _Optional[str] = ...) -> None: ...

class SignInAsGuestResponse(_message.Message):
    __slots__ = ("user", "session_token", "expires_in")
    USER_FIELD_NUMBER: _ClassVar[int]
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    user: str
    session_token: str
    expires_in: int
    def __init__(self, user: _Optional[str] = ..., session_token: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class SignInWithApiKeyRequest(_message.Message):
    __slots__ = ("api_key",)
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    api_key: str
    def __init__(self, api_key: _Optional[str] = ...) -> None: ...

class SignInWithApiKeyResponse(_message.Message):
    __slots__ = ("user", "session_token", "expires_in")
    USER_FIELD_NUMBER: _ClassVar[int]
    SESSION_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    user: str
    session_token: str
    expires_in: int
    def __init__(self, user: _Optional[str] = ..., session_token: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class RefreshTokenRequest(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class RefreshTokenResponse(_message.Message):
    __slots__ = ("token", "expires_in")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    token: str
    expires_in: int
    def __init__(self, token: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("kind", "seat_count", "options", "request_id", "clock")
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
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat_count: int
    options: _containers.ScalarMap[str, str]
    request_id: str
    clock: _game_pb2.Clock
    def __init__(self, kind: _Optional[str] = ..., seat_count: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., request_id: _Optional[str] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _game_pb2.Game
    def __init__(self, game: _Optional[_Union[_game_pb2.Game, _Mapping]] = ...) -> None: ...

class JoinGameRequest(_message.Message):
    __slots__ = ("game", "seat")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game: str
    seat: int
    def __init__(self, game: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class JoinGameResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "game")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    seat_token: str
    game: _game_pb2.Game
    def __init__(self, seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., game: _Optional[_Union[_game_pb2.Game, _Mapping]] = ...) -> None: ...

class LeaveGameRequest(_message.Message):
    __slots__ = ("game", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    request_id: str
    def __init__(self, game: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class LeaveGameResponse(_message.Message):
    __slots__ = ("etag",)
    ETAG_FIELD_NUMBER: _ClassVar[int]
    etag: str
    def __init__(self, etag: _Optional[str] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("game", "join_code")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    game: str
    join_code: str
    def __init__(self, game: _Optional[str] = ..., join_code: _Optional[str] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _game_pb2.Game
    def __init__(self, game: _Optional[_Union[_game_pb2.Game, _Mapping]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("kind", "state", "page_size", "page_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    state: _game_pb2.GameState
    page_size: int
    page_token: str
    def __init__(self, kind: _Optional[str] = ..., state: _Optional[_Union[_game_pb2.GameState, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[_game_pb2.Game]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[_game_pb2.Game, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("game", "join_code")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    game: str
    join_code: str
    def __init__(self, game: _Optional[str] = ..., join_code: _Optional[str] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("view", "prompt")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    view: _game_pb2.GameView
    prompt: _game_pb2.Prompt
    def __init__(self, view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., prompt: _Optional[_Union[_game_pb2.Prompt, _Mapping]] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("game", "action", "etag", "request_id")
    GAME_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    game: str
    action: _game_pb2.Action
    etag: str
    request_id: str
    def __init__(self, game: _Optional[str] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("etag", "through_event_id", "events")
    ETAG_FIELD_NUMBER: _ClassVar[int]
    THROUGH_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    etag: str
    through_event_id: int
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameEvent]
    def __init__(self, etag: _Optional[str] = ..., through_event_id: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_game_pb2.GameEvent, _Mapping]]] = ...) -> None: ...

class WatchGameRequest(_message.Message):
    __slots__ = ("game", "after_event_id", "join_code", "after_etag")
    GAME_FIELD_NUMBER: _ClassVar[int]
    AFTER_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    AFTER_ETAG_FIELD_NUMBER: _ClassVar[int]
    game: str
    after_event_id: int
    join_code: str
    after_etag: str
    def __init__(self, game: _Optional[str] = ..., after_event_id: _Optional[int] = ..., join_code: _Optional[str] = ..., after_etag: _Optional[str] = ...) -> None: ...

class WatchGameResponse(_message.Message):
    __slots__ = ("view", "events", "through_event_id", "is_checkpoint", "prompt", "etag", "resync_reason", "answered_request_ids")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    THROUGH_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    IS_CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    RESYNC_REASON_FIELD_NUMBER: _ClassVar[int]
    ANSWERED_REQUEST_IDS_FIELD_NUMBER: _ClassVar[int]
    view: _game_pb2.GameView
    events: _containers.RepeatedCompositeFieldContainer[_game_pb2.GameEvent]
    through_event_id: int
    is_checkpoint: bool
    prompt: _game_pb2.Prompt
    etag: str
    resync_reason: ResyncReason
    answered_request_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_game_pb2.GameEvent, _Mapping]]] = ..., through_event_id: _Optional[int] = ..., is_checkpoint: _Optional[bool] = ..., prompt: _Optional[_Union[_game_pb2.Prompt, _Mapping]] = ..., etag: _Optional[str] = ..., resync_reason: _Optional[_Union[ResyncReason, str]] = ..., answered_request_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("open", "submit")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    SUBMIT_FIELD_NUMBER: _ClassVar[int]
    open: WatchGameRequest
    submit: SubmitActionRequest
    def __init__(self, open: _Optional[_Union[WatchGameRequest, _Mapping]] = ..., submit: _Optional[_Union[SubmitActionRequest, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("update", "outcome")
    UPDATE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    update: WatchGameResponse
    outcome: ActionOutcome
    def __init__(self, update: _Optional[_Union[WatchGameResponse, _Mapping]] = ..., outcome: _Optional[_Union[ActionOutcome, _Mapping]] = ...) -> None: ...

class ActionOutcome(_message.Message):
    __slots__ = ("request_id", "status", "etag", "through_event_id")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    THROUGH_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    status: _status_pb2.Status
    etag: str
    through_event_id: int
    def __init__(self, request_id: _Optional[str] = ..., status: _Optional[_Union[_status_pb2.Status, _Mapping]] = ..., etag: _Optional[str] = ..., through_event_id: _Optional[int] = ...) -> None: ...

class GetGameRecordRequest(_message.Message):
    __slots__ = ("game", "join_code")
    GAME_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    game: str
    join_code: str
    def __init__(self, game: _Optional[str] = ..., join_code: _Optional[str] = ...) -> None: ...

class GetGameRecordResponse(_message.Message):
    __slots__ = ("game", "seed", "actions")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    game: _game_pb2.Game
    seed: str
    actions: _containers.RepeatedCompositeFieldContainer[RecordedAction]
    def __init__(self, game: _Optional[_Union[_game_pb2.Game, _Mapping]] = ..., seed: _Optional[str] = ..., actions: _Optional[_Iterable[_Union[RecordedAction, _Mapping]]] = ...) -> None: ...

class RecordedAction(_message.Message):
    __slots__ = ("seat", "action", "through_event_id", "by_server")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    THROUGH_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    BY_SERVER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: _game_pb2.Action
    through_event_id: int
    by_server: bool
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[_game_pb2.Action, _Mapping]] = ..., through_event_id: _Optional[int] = ..., by_server: _Optional[bool] = ...) -> None: ...

class GetViewAtRequest(_message.Message):
    __slots__ = ("game", "event_id", "join_code")
    GAME_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    JOIN_CODE_FIELD_NUMBER: _ClassVar[int]
    game: str
    event_id: int
    join_code: str
    def __init__(self, game: _Optional[str] = ..., event_id: _Optional[int] = ..., join_code: _Optional[str] = ...) -> None: ...

class GetViewAtResponse(_message.Message):
    __slots__ = ("view",)
    VIEW_FIELD_NUMBER: _ClassVar[int]
    view: _game_pb2.GameView
    def __init__(self, view: _Optional[_Union[_game_pb2.GameView, _Mapping]] = ...) -> None: ...
