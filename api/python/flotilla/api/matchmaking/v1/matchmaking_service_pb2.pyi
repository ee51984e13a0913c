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

class TicketState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATE_UNSPECIFIED: _ClassVar[TicketState]
    TICKET_STATE_SEARCHING: _ClassVar[TicketState]
    TICKET_STATE_MATCHED: _ClassVar[TicketState]
    TICKET_STATE_EXPIRED: _ClassVar[TicketState]
    TICKET_STATE_CANCELLED: _ClassVar[TicketState]
TICKET_STATE_UNSPECIFIED: TicketState
TICKET_STATE_SEARCHING: TicketState
TICKET_STATE_MATCHED: TicketState
TICKET_STATE_EXPIRED: TicketState
TICKET_STATE_CANCELLED: TicketState

class Ticket(_message.Message):
    __slots__ = ("name", "kind", "options", "seat_counts", "party", "state", "game", "seat", "seat_token", "create_time", "rating", "party_name")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    PARTY_NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    options: _containers.ScalarMap[str, str]
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    party: _containers.RepeatedScalarFieldContainer[str]
    state: TicketState
    game: str
    seat: int
    seat_token: str
    create_time: _timestamp_pb2.Timestamp
    rating: float
    party_name: str
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., seat_counts: _Optional[_Iterable[int]] = ..., party: _Optional[_Iterable[str]] = ..., state: _Optional[_Union[TicketState, str]] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rating: _Optional[float] = ..., party_name: _Optional[str] = ...) -> None: ...

class CreateTicketRequest(_message.Message):
    __slots__ = ("kind", "options", "seat_counts", "party", "request_id", "party_name")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    KIND_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PARTY_NAME_FIELD_NUMBER: _ClassVar[int]
    kind: str
    options: _containers.ScalarMap[str, str]
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    party: _containers.RepeatedScalarFieldContainer[str]
    request_id: str
    party_name: str
    def __init__(self, kind: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ..., seat_counts: _Optional[_Iterable[int]] = ..., party: _Optional[_Iterable[str]] = ..., request_id: _Optional[str] = ..., party_name: _Optional[str] = ...) -> None: ...

class Party(_message.Message):
    __slots__ = ("name", "leader", "members", "invites", "expire_time")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    MEMBERS_FIELD_NUMBER: _ClassVar[int]
    INVITES_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    name: str
    leader: str
    members: _containers.RepeatedCompositeFieldContainer[PartyMember]
    invites: _containers.RepeatedCompositeFieldContainer[PartyInvite]
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, name: _Optional[str] = ..., leader: _Optional[str] = ..., members: _Optional[_Iterable[_Union[PartyMember, _Mapping]]] = ..., invites: _Optional[_Iterable[_Union[PartyInvite, _Mapping]]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PartyMember(_message.Message):
    __slots__ = ("user", "display_name", "user_kind")
    USER_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    USER_KIND_FIELD_NUMBER: _ClassVar[int]
    user: str
    display_name: str
    user_kind: _game_pb2.UserKind
    def __init__(self, user: _Optional[str] = ..., display_name: _Optional[str] = ..., user_kind: _Optional[_Union[_game_pb2.UserKind, str]] = ...) -> None: ...

class PartyInvite(_message.Message):
    __slots__ = ("party", "user", "leader", "expire_time")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    party: str
    user: str
    leader: str
    expire_time: _timestamp_pb2.Timestamp
    def __init__(self, party: _Optional[str] = ..., user: _Optional[str] = ..., leader: _Optional[str] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreatePartyRequest(_message.Message):
    __slots__ = ("request_id",)
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    def __init__(self, request_id: _Optional[str] = ...) -> None: ...

class CreatePartyResponse(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: Party
    def __init__(self, party: _Optional[_Union[Party, _Mapping]] = ...) -> None: ...

class GetPartyRequest(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: str
    def __init__(self, party: _Optional[str] = ...) -> None: ...

class GetPartyResponse(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: Party
    def __init__(self, party: _Optional[_Union[Party, _Mapping]] = ...) -> None: ...

class InviteToPartyRequest(_message.Message):
    __slots__ = ("party", "user")
    PARTY_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    party: str
    user: str
    def __init__(self, party: _Optional[str] = ..., user: _Optional[str] = ...) -> None: ...

class InviteToPartyResponse(_message.Message):
    __slots__ = ("invite",)
    INVITE_FIELD_NUMBER: _ClassVar[int]
    invite: PartyInvite
    def __init__(self, invite: _Optional[_Union[PartyInvite, _Mapping]] = ...) -> None: ...

class AcceptPartyInviteRequest(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: str
    def __init__(self, party: _Optional[str] = ...) -> None: ...

class AcceptPartyInviteResponse(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: Party
    def __init__(self, party: _Optional[_Union[Party, _Mapping]] = ...) -> None: ...

class DeclinePartyInviteRequest(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: str
    def __init__(self, party: _Optional[str] = ...) -> None: ...

class DeclinePartyInviteResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LeavePartyRequest(_message.Message):
    __slots__ = ("party",)
    PARTY_FIELD_NUMBER: _ClassVar[int]
    party: str
    def __init__(self, party: _Optional[str] = ...) -> None: ...

class LeavePartyResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListPartyInvitesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListPartyInvitesResponse(_message.Message):
    __slots__ = ("invites",)
    INVITES_FIELD_NUMBER: _ClassVar[int]
    invites: _containers.RepeatedCompositeFieldContainer[PartyInvite]
    def __init__(self, invites: _Optional[_Iterable[_Union[PartyInvite, _Mapping]]] = ...) -> None: ...

class CreateTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: str
    def __init__(self, ticket: _Optional[str] = ...) -> None: ...

class GetTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class CancelTicketRequest(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: str
    def __init__(self, ticket: _Optional[str] = ...) -> None: ...

class CancelTicketResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class WatchTicketRequest(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: str
    def __init__(self, ticket: _Optional[str] = ...) -> None: ...

class WatchTicketResponse(_message.Message):
    __slots__ = ("ticket", "is_checkpoint")
    TICKET_FIELD_NUMBER: _ClassVar[int]
    IS_CHECKPOINT_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    is_checkpoint: bool
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ..., is_checkpoint: _Optional[bool] = ...) -> None: ...

class PlayerRating(_message.Message):
    __slots__ = ("user", "display_name", "mu", "sigma", "ordinal", "games", "rank", "user_kind")
    USER_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    USER_KIND_FIELD_NUMBER: _ClassVar[int]
    user: str
    display_name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    rank: int
    user_kind: _game_pb2.UserKind
    def __init__(self, user: _Optional[str] = ..., display_name: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ..., games: _Optional[int] = ..., rank: _Optional[int] = ..., user_kind: _Optional[_Union[_game_pb2.UserKind, str]] = ...) -> None: ...

class ListLeaderboardRequest(_message.Message):
    __slots__ = ("kind", "page_size", "page_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    page_size: int
    page_token: str
    def __init__(self, kind: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLeaderboardResponse(_message.Message):
    __slots__ = ("ratings", "next_page_token")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    next_page_token: str
    def __init__(self, ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetRatingRequest(_message.Message):
    __slots__ = ("kind", "user")
    KIND_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    kind: str
    user: str
    def __init__(self, kind: _Optional[str] = ..., user: _Optional[str] = ...) -> None: ...

class GetRatingResponse(_message.Message):
    __slots__ = ("rating",)
    RATING_FIELD_NUMBER: _ClassVar[int]
    rating: PlayerRating
    def __init__(self, rating: _Optional[_Union[PlayerRating, _Mapping]] = ...) -> None: ...

class ListRatingHistoryRequest(_message.Message):
    __slots__ = ("kind", "user", "page_size", "page_token")
    KIND_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    kind: str
    user: str
    page_size: int
    page_token: str
    def __init__(self, kind: _Optional[str] = ..., user: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRatingHistoryResponse(_message.Message):
    __slots__ = ("changes", "next_page_token")
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    next_page_token: str
    def __init__(self, changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("game", "rank", "mu", "sigma", "ordinal", "rate_time")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    ORDINAL_FIELD_NUMBER: _ClassVar[int]
    RATE_TIME_FIELD_NUMBER: _ClassVar[int]
    game: str
    rank: int
    mu: float
    sigma: float
    ordinal: float
    rate_time: _timestamp_pb2.Timestamp
    def __init__(self, game: _Optional[str] = ..., rank: _Optional[int] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., ordinal: _Optional[float] = ..., rate_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
