"""Flotilla's errors, named by what went wrong. Whatever raises one, nothing was applied.

The tree. A class with a `reason` can reach a client: its wire name is ``ERROR_REASON_<reason>``
in error_reason.proto. A class without one is a category (never raised itself) or, like
`WorkGroupLost`, an error handled inside the server (should one reach an edge: INTERNAL)::

    FlotillaError
    ├── RulesError                      RULES_ERROR: the rules refuse (raised by the engines)
    │   ├── InvalidAction               malformed, or not an action of this game
    │   ├── InvalidConfig               options a game cannot be created with
    │   └── IllegalAction               well-formed, not allowed now
    │       ├── NotYourTurn
    │       ├── GameFinished
    │       └── CannotAfford
    ├── AppError                        the service refuses (categories below)
    │   ├── BadRequest                  the request itself is wrong
    │   │   ├── InvalidRequest          a field is malformed or missing
    │   │   │   └── MalformedMessage    not the RPC's protobuf message at all
    │   │   └── UnknownGameKind
    │   ├── NotFound                    the thing named does not exist (or no longer)
    │   │   ├── GameNotFound, RoomNotFound, TicketNotFound, CatalogNotFound
    │   │   └── PartyNotFound, PartyInviteNotFound
    │   ├── Unauthenticated             who is calling is not established
    │   │   └── TokenExpired, TokenRevoked, ApiKeyInvalid
    │   ├── Forbidden                   the caller is known, and may not do this
    │   │   ├── NotSeated, SeatTokenRequired, GuestsDisabled
    │   │   └── NotRoomHost, WrongJoinCode, NotPartyLeader
    │   ├── WrongState                  allowed, but not in the thing's present state
    │   │   ├── GameFull, GameNotFinished, SeatAbsent, TokenNotRefreshable
    │   │   ├── RoomFull, RoomNotOpen, RoomNotReady, TicketAlreadyWaiting
    │   │   └── AlreadyInParty, PartyFull, PartyMemberNotAccepted, TooManyInvites
    │   ├── Contention                  someone else changed it first: read again, retry
    │   │   └── StaleVersion, RoomBusy
    │   ├── OverLimit                   too much, too fast: RateLimited, QuotaExceeded
    │   └── ServiceFault                the service failed the caller, not the other way
    │       ├── RulesVersionUnavailable, NoWorkerAnswer, EngineFailure
    │       └── StoreUnavailable        the game store is unreachable or failing over: retry
    └── StoreError                      raised by store/ in place of its Redis client's errors
        ├── StoreUnreachable            Redis is unreachable or failing over (edges: StoreUnavailable)
        ├── StoreFailed                 Redis refused a command for a lasting cause (a bug: INTERNAL)
        ├── WorkGroupLost               the workers' group is gone (Redis lost its data)
        ├── QueuesFull                  no new matchmaking queue: they are at their bound
        └── AlreadyWaiting              a party member waits in another ticket of the queue

Each class maps to one gRPC status in one table at the edge (`flotilla.gateway.errors.ROWS`);
tests/gateway/test_error_table.py holds every class with a reason to exactly one row. A worker's
refusal crosses to the gateway as its `reason` in an outcome (records.OutcomeRecord), and the
gateway turns that reason into a status through the same table.

`flotilla.rules.errors` and `flotilla.app.errors` re-export their branches, so an engine imports its
errors from its own layer.

Adding an error a client can get: (1) a class here, under the category that says what went wrong
(never under a class only because it shares that class's status), with its `reason`, drawn in the
tree above; (2) ``ERROR_REASON_<reason>`` in proto/flotilla/api/game/v1/error_reason.proto, with a
comment naming its status and an example (then scripts/gen_protos.py); (3) its row in
`flotilla.gateway.errors.ROWS`. tests/gateway/test_error_table.py fails until all three are done.
"""

from __future__ import annotations

from typing import ClassVar


class FlotillaError(Exception):
    """Base of every error; `reason` (on every class that is not a category) becomes ErrorInfo.reason."""

    reason: ClassVar[str]

    def __init__(self, message: str, /, **metadata: str) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = {k: str(v) for k, v in metadata.items()}


# --- the rules -----------------------------------------------------------------------------
class RulesError(FlotillaError):
    """The rules refuse; raised bare for a rules refusal of no finer kind."""

    reason = "RULES_ERROR"


class InvalidAction(RulesError):
    """The action is malformed or names things that do not exist in this game."""

    reason = "INVALID_ACTION"


class InvalidConfig(RulesError):
    """The game cannot be created with these options (seat count, variant, ...)."""

    reason = "INVALID_CONFIG"


class IllegalAction(RulesError):
    """The action is well-formed but not allowed in the current state."""

    reason = "ILLEGAL_ACTION"


class NotYourTurn(IllegalAction):
    """The seat may not act now."""

    reason = "NOT_YOUR_TURN"


class GameFinished(IllegalAction):
    """The game is over; no action applies."""

    reason = "GAME_FINISHED"


class CannotAfford(IllegalAction):
    """The seat lacks the coins or goods the action costs."""

    reason = "CANNOT_AFFORD"


# --- the service: categories ---------------------------------------------------------------
class AppError(FlotillaError):
    """The service refuses (a category: raise one of its leaves)."""


class BadRequest(AppError):
    """The request itself is wrong: fix it before sending it again (a category)."""


class NotFound(AppError):
    """The thing the request names does not exist, or no longer (a category)."""


class Forbidden(AppError):
    """The caller is known and may not do this (a category)."""


class WrongState(AppError):
    """Allowed, but not in the present state of the game, room, party or token (a category)."""


class Contention(AppError):
    """Someone else changed the thing first: read it again, then retry (a category)."""


class OverLimit(AppError):
    """Too many calls, or too many things held at once (a category)."""


class ServiceFault(AppError):
    """The service failed the caller, not the other way round (a category)."""


# --- bad requests --------------------------------------------------------------------------
class InvalidRequest(BadRequest):
    reason = "INVALID_REQUEST"


class MalformedMessage(InvalidRequest):
    """The request body is not the RPC's protobuf message (or a string in it is not UTF-8)."""

    reason = "MALFORMED_MESSAGE"


class UnknownGameKind(BadRequest):
    reason = "UNKNOWN_GAME_KIND"


# --- not found -----------------------------------------------------------------------------
class GameNotFound(NotFound):
    reason = "GAME_NOT_FOUND"


class RoomNotFound(NotFound):
    reason = "ROOM_NOT_FOUND"


class TicketNotFound(NotFound):
    reason = "TICKET_NOT_FOUND"


class PartyNotFound(NotFound):
    reason = "PARTY_NOT_FOUND"


class PartyInviteNotFound(NotFound):
    reason = "PARTY_INVITE_NOT_FOUND"


class CatalogNotFound(NotFound):
    """No catalogue of this game kind and rules version (CatalogService.GetCatalog)."""

    reason = "CATALOG_NOT_FOUND"


# --- authentication (docs/security.md) -----------------------------------------------------
class Unauthenticated(AppError):
    """Who is calling is not established (no token, a bad one); raised bare or as a leaf."""

    reason = "UNAUTHENTICATED"


class TokenExpired(Unauthenticated):
    reason = "TOKEN_EXPIRED"


class TokenRevoked(Unauthenticated):
    reason = "TOKEN_REVOKED"


class ApiKeyInvalid(Unauthenticated):
    reason = "API_KEY_INVALID"


# --- forbidden -----------------------------------------------------------------------------
class NotSeated(Forbidden):
    reason = "NOT_SEATED"


class SeatTokenRequired(Forbidden):
    """A session token tried to act for a seat: acting needs that seat's token."""

    reason = "SEAT_TOKEN_REQUIRED"


class GuestsDisabled(Forbidden):
    reason = "GUESTS_DISABLED"


class NotRoomHost(Forbidden):
    reason = "NOT_ROOM_HOST"


class WrongJoinCode(Forbidden):
    reason = "WRONG_JOIN_CODE"


class NotPartyLeader(Forbidden):
    reason = "NOT_PARTY_LEADER"


# --- wrong state ---------------------------------------------------------------------------
class GameFull(WrongState):
    reason = "GAME_FULL"


class GameNotFinished(WrongState):
    reason = "GAME_NOT_FINISHED"


class SeatAbsent(WrongState):
    """The seat left or timed out too often: its absence policy plays it, the player cannot."""

    reason = "SEAT_ABSENT"


class TokenNotRefreshable(WrongState):
    reason = "TOKEN_NOT_REFRESHABLE"


class RoomFull(WrongState):
    reason = "ROOM_FULL"


class RoomNotOpen(WrongState):
    reason = "ROOM_NOT_OPEN"


class RoomNotReady(WrongState):
    reason = "ROOM_NOT_READY"


class TicketAlreadyWaiting(WrongState):
    reason = "TICKET_ALREADY_WAITING"


class AlreadyInParty(WrongState):
    reason = "ALREADY_IN_PARTY"


class PartyFull(WrongState):
    reason = "PARTY_FULL"


class PartyMemberNotAccepted(WrongState):
    reason = "PARTY_MEMBER_NOT_ACCEPTED"


class TooManyInvites(WrongState):
    reason = "TOO_MANY_INVITES"


# --- contention ----------------------------------------------------------------------------
class StaleVersion(Contention):
    reason = "STALE_GAME_VERSION"


class RoomBusy(Contention):
    reason = "ROOM_BUSY"


# --- limits (app/limits.py) ----------------------------------------------------------------
class RateLimited(OverLimit):
    """Over a rate limit; `retry_after_s` is when the next call would pass (RetryInfo)."""

    reason = "RATE_LIMITED"
    retry_after_s: float | None = None


class QuotaExceeded(OverLimit):
    """Over a quota of things held at once; frees only when the caller ends one (no RetryInfo)."""

    reason = "QUOTA_EXCEEDED"


# --- service faults ------------------------------------------------------------------------
class RulesVersionUnavailable(ServiceFault):
    reason = "RULES_VERSION_UNAVAILABLE"


class NoWorkerAnswer(ServiceFault):
    reason = "NO_WORKER_ANSWER"


class EngineFailure(ServiceFault):
    """The rules failed on this work (a server bug, never the client's action): nothing was applied,
    nothing recorded under the request id; metadata `incident` names the worker's log entry."""

    reason = "ENGINE_FAILURE"


class StoreUnavailable(ServiceFault):
    """Redis is unreachable or failing over; `retry_after_s`, when set, goes out as RetryInfo.

    An `AppError` (the app raises it: app/watching.py, worker/plan.py), and seven `except AppError`
    sites count on that: so the store raises `StoreUnreachable` instead, and a gateway turns that
    (and any redis-py transient error that did not pass through a store method) into this."""

    reason = "STORE_UNAVAILABLE"
    retry_after_s: float | None = None


# --- the store -----------------------------------------------------------------------------
class StoreError(FlotillaError):
    """The game store's own errors, raised by store/ in place of its Redis client's (a category).
    Not an `AppError`: no `except AppError` in the app takes one for a refusal."""


class StoreUnreachable(StoreError):
    """Redis is unreachable or failing over: what a store's method raises in place of redis-py's
    transient errors (store/transient.py `own_errors`). Long-lived loops wait it out; a gateway
    answers `StoreUnavailable`. Its message is the client's (for logs, never sent): no reason."""


class StoreFailed(StoreError):
    """Redis answered a store's command with an error that is not transient (a script's error, a
    wrong type, a lost consumer group where none was expected): what a store's method raises in
    place of any other redis-py error (store/transient.py `own_errors`). A long-lived loop logs it
    and goes on; a gateway answers INTERNAL. Its message is the client's (for logs): no reason."""


class WorkGroupLost(StoreError):
    """The workers' consumer group on a work stream is gone (Redis restarted without its data):
    the worker makes it again (`RedisStore.ensure_group`). Never sent to a client: no reason."""


class QueuesFull(StoreError):
    """The set of matchmaking queues is at its bound and a ticket would open a new queue
    (lobby/tickets.py answers QuotaExceeded)."""


class AlreadyWaiting(StoreError):
    """A party member of a new ticket still waits in another ticket of the same queue
    (lobby/tickets.py answers TicketAlreadyWaiting)."""

    def __init__(self, ticket_id: str, user: str) -> None:
        super().__init__(f"user {user} waits in ticket {ticket_id}", ticket=ticket_id, user=user)
        self.ticket_id = ticket_id
        self.user = user
