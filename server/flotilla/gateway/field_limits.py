"""The documented maximum of every string and repeated field of every request, checked on arrival.

`MAXIMA` names each field of a request message (and of the messages inside it: PlayRequest's
`open` and `submit`) that can grow: a string's characters, a repeated field's or a map's entries,
the encoded bytes of an action. The gateway checks them as it decodes a request, before
authentication, limits or any other work (gateway/services.py); a field over its maximum is
refused INVALID_ARGUMENT / INVALID_REQUEST naming the field. The same numbers are in the .proto
comments ("At most N ...") and docs/security.md; tests/gateway/test_field_limits.py keeps the
three in step and fails on a new field without a maximum. Finer checks (formats, display-name
characters, options against the rules) come later, in the handlers.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from functools import cache

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from flotilla.app.errors import InvalidRequest
from flotilla.app.inputs import MAX_ACTION_BYTES, MAX_OPTION_CHARS, MAX_OPTIONS

NAME = 70  # a resource name: "games/", "rooms/" or "users/" and an id of at most 64 characters
DISPLAY_NAME = 160  # characters sent: at most 40 once normalised and trimmed (app/inputs.py)
KIND = 40
REQUEST_ID = 128
ETAG = 64
PAGE_TOKEN = 32
JOIN_CODE = 16
TOKEN = 8192  # a bearer token: Flotilla JWTs are ~400 characters, an identity provider's may carry many claims
API_KEY = 128  # flk_<12 hex>_<43 characters>
RULES_VERSION = 40

_G, _L, _M = "flotilla.api.game.v1.", "flotilla.api.lobby.v1.", "flotilla.api.matchmaking.v1."
_C = "flotilla.api.catalog.v1."
MAXIMA: dict[str, int] = {
    _G + "SignInAsGuestRequest.display_name": DISPLAY_NAME,
    _G + "SignInWithApiKeyRequest.api_key": API_KEY,
    _G + "RefreshTokenRequest.token": TOKEN,
    _G + "CreateGameRequest.kind": KIND,
    _G + "CreateGameRequest.options": MAX_OPTIONS,
    _G + "CreateGameRequest.request_id": REQUEST_ID,
    _G + "JoinGameRequest.game": NAME,
    _G + "LeaveGameRequest.game": NAME,
    _G + "LeaveGameRequest.request_id": REQUEST_ID,
    _G + "GetGameRequest.game": NAME,
    _G + "GetGameRequest.join_code": JOIN_CODE,
    _G + "ListGamesRequest.kind": KIND,
    _G + "ListGamesRequest.page_token": PAGE_TOKEN,
    _G + "GetViewRequest.game": NAME,
    _G + "GetViewRequest.join_code": JOIN_CODE,
    _G + "SubmitActionRequest.game": NAME,
    _G + "SubmitActionRequest.action": MAX_ACTION_BYTES,
    _G + "SubmitActionRequest.etag": ETAG,
    _G + "SubmitActionRequest.request_id": REQUEST_ID,
    _G + "WatchGameRequest.game": NAME,
    _G + "WatchGameRequest.join_code": JOIN_CODE,
    _G + "WatchGameRequest.after_etag": ETAG,
    _G + "GetGameRecordRequest.game": NAME,
    _G + "GetGameRecordRequest.join_code": JOIN_CODE,
    _G + "GetViewAtRequest.game": NAME,
    _G + "GetViewAtRequest.join_code": JOIN_CODE,
    _L + "CreateRoomRequest.kind": KIND,
    _L + "CreateRoomRequest.options": MAX_OPTIONS,
    _L + "CreateRoomRequest.request_id": REQUEST_ID,
    _L + "CreateRoomRequest.display_name": DISPLAY_NAME,
    _L + "ListRoomsRequest.kind": KIND,
    _L + "ListRoomsRequest.options": MAX_OPTIONS,
    _L + "ListRoomsRequest.page_token": PAGE_TOKEN,
    _L + "GetRoomRequest.room": NAME,
    _L + "GetRoomRequest.join_code": JOIN_CODE,
    _L + "JoinRoomRequest.room": NAME,
    _L + "JoinRoomRequest.join_code": JOIN_CODE,
    _L + "LeaveRoomRequest.room": NAME,
    _L + "SetReadyRequest.room": NAME,
    _L + "KickSeatRequest.room": NAME,
    _L + "TransferHostRequest.room": NAME,
    _L + "TransferHostRequest.user": NAME,
    _L + "AddBotRequest.room": NAME,
    _L + "AddBotRequest.policy": KIND,
    _L + "StartRoomRequest.room": NAME,
    _L + "WatchRoomRequest.room": NAME,
    _L + "WatchRoomRequest.join_code": JOIN_CODE,
    _M + "CreateTicketRequest.kind": KIND,
    _M + "CreateTicketRequest.options": MAX_OPTIONS,
    _M + "CreateTicketRequest.seat_counts": 16,
    _M + "CreateTicketRequest.party": 8,
    _M + "CreateTicketRequest.request_id": REQUEST_ID,
    _M + "CreateTicketRequest.party_name": NAME,
    _M + "CreatePartyRequest.request_id": REQUEST_ID,
    _M + "GetPartyRequest.party": NAME,
    _M + "InviteToPartyRequest.party": NAME,
    _M + "InviteToPartyRequest.user": NAME,
    _M + "AcceptPartyInviteRequest.party": NAME,
    _M + "DeclinePartyInviteRequest.party": NAME,
    _M + "LeavePartyRequest.party": NAME,
    _M + "GetTicketRequest.ticket": 100,
    _M + "CancelTicketRequest.ticket": 100,
    _M + "WatchTicketRequest.ticket": 100,
    _M + "ListLeaderboardRequest.kind": KIND,
    _M + "ListLeaderboardRequest.page_token": PAGE_TOKEN,
    _M + "GetRatingRequest.kind": KIND,
    _M + "GetRatingRequest.user": NAME,
    _M + "ListRatingHistoryRequest.kind": KIND,
    _M + "ListRatingHistoryRequest.user": NAME,
    _M + "ListRatingHistoryRequest.page_token": PAGE_TOKEN,
    _C + "GetCatalogRequest.kind": KIND,
    _C + "GetCatalogRequest.rules_version": RULES_VERSION,
}
PARTY_MEMBER = NAME  # characters of each `party` entry (users/{id})
_OWN_PACKAGES = (_G, _L, _M, _C)

Check = Callable[[Message], str | None]


def grows(field: FieldDescriptor) -> bool:  # used by the coverage test
    """Whether a field can be made large: strings, bytes, repeated fields and maps."""
    return field.is_repeated or field.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)


def inner(field: FieldDescriptor) -> Descriptor | None:
    """The request message inside `field` whose own fields are checked one by one (PlayRequest's
    open and submit, CreateGameRequest's clock); None for others (an action is bounded as a whole)."""
    kind = field.message_type
    if field.type != FieldDescriptor.TYPE_MESSAGE or field.is_repeated or field.full_name in MAXIMA:
        return None
    return kind if kind is not None and kind.full_name.startswith(_OWN_PACKAGES) else None


class Limit(enum.Enum):
    """How a field is bounded (`limit_of`); the binary and JSON checks go by the same answer."""

    NESTED = "nested"  # a request message inside: its own fields are checked
    MAP = "map"  # entries, and characters of each key and value
    ENCODED = "encoded"  # a message bounded as a whole by its encoded bytes (an action)
    STRINGS = "strings"  # entries, and characters of each entry
    LENGTH = "length"  # characters (or bytes) of one string, entries of a repeated scalar


@cache
def limit_of(field: FieldDescriptor) -> Limit | None:
    """How `field` is bounded; None for a scalar (or a field added without a maximum:
    test_field_limits.py fails on it)."""
    if inner(field) is not None:
        return Limit.NESTED
    if field.full_name not in MAXIMA:
        return None
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return Limit.MAP
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        return Limit.ENCODED
    if field.is_repeated and field.type == FieldDescriptor.TYPE_STRING:
        return Limit.STRINGS
    return Limit.LENGTH


@cache
def checker(message: Descriptor) -> Check:
    """The check of one request message type: the first field over its maximum, or None."""
    checks: list[Check] = []
    for field in message.fields:
        limit = limit_of(field)
        most = MAXIMA.get(field.full_name, 0)
        nested = inner(field)
        if nested is not None:
            checks.append(_nested(field.name, checker(nested)))
        elif limit is Limit.MAP:
            checks.append(_map(field.name, most))
        elif limit is Limit.ENCODED:
            checks.append(_encoded(field.name, most))
        elif limit is Limit.STRINGS:
            checks.append(_strings(field.name, most, PARTY_MEMBER))
        elif limit is Limit.LENGTH:
            checks.append(_length(field.name, most, field.is_repeated))

    def check(request: Message) -> str | None:
        for one in checks:
            problem = one(request)
            if problem is not None:
                return problem
        return None

    return check


def refusal(problem: str) -> InvalidRequest:
    """The error of a field over its maximum (`problem` starts with the field's name)."""
    return InvalidRequest(f"{problem} (docs/security.md)", field=problem.split(" ", maxsplit=1)[0])


def whole_request(problem: str) -> InvalidRequest:
    """The error of a body over a bound of the whole request (`problem`: "has more than ...")."""
    return InvalidRequest(f"the request {problem} (docs/security.md)", field="request")


def too_long(name: str, most: int) -> str:
    return f"{name} has more than {most} characters"


def too_many(name: str, most: int) -> str:
    return f"{name} has more than {most} entries"


def entry_too_long(name: str, each: int) -> str:
    return f"{name} entries have at most {each} characters"


def option_too_long(name: str) -> str:
    return f"{name} keys and values have at most {MAX_OPTION_CHARS} characters"


def _length(name: str, most: int, repeated: bool) -> Check:
    problem = too_many(name, most) if repeated else too_long(name, most)

    def check(request: Message) -> str | None:
        return problem if len(getattr(request, name)) > most else None

    return check


def _strings(name: str, most: int, each: int) -> Check:
    def check(request: Message) -> str | None:
        values = getattr(request, name)
        if len(values) > most:
            return too_many(name, most)
        return entry_too_long(name, each) if any(len(v) > each for v in values) else None

    return check


def _map(name: str, most: int) -> Check:
    def check(request: Message) -> str | None:
        entries = getattr(request, name)
        if len(entries) > most:
            return too_many(name, most)
        if any(len(k) > MAX_OPTION_CHARS or len(v) > MAX_OPTION_CHARS for k, v in entries.items()):
            return option_too_long(name)
        return None

    return check


def too_large(name: str, most: int) -> str:
    return f"{name} is larger than {most} bytes"


def _encoded(name: str, most: int) -> Check:
    def check(request: Message) -> str | None:
        return too_large(name, most) if getattr(request, name).ByteSize() > most else None

    return check


def _nested(name: str, inside: Check) -> Check:
    def check(request: Message) -> str | None:
        if not request.HasField(name):
            return None
        problem = inside(getattr(request, name))
        return None if problem is None else f"{name}.{problem}"

    return check
