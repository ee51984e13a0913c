"""Application errors (rules errors live in flotilla.rules.errors). Each has a wire `reason`."""

from __future__ import annotations


class AppError(Exception):
    """Base of application errors; `reason` becomes ErrorInfo.reason."""

    reason = "APP_ERROR"

    def __init__(self, message: str, /, **metadata: str) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = {k: str(v) for k, v in metadata.items()}


class GameNotFound(AppError):
    reason = "GAME_NOT_FOUND"


class NotSeated(AppError):
    reason = "NOT_SEATED"


class Unauthenticated(AppError):
    reason = "UNAUTHENTICATED"


class StaleVersion(AppError):
    reason = "STALE_GAME_VERSION"


class StoreUnavailable(AppError):
    """Redis is unreachable or failing over; `retry_after_s`, when set, goes out as RetryInfo."""

    reason = "STORE_UNAVAILABLE"
    retry_after_s: float | None = None


class InvalidRequest(AppError):
    reason = "INVALID_REQUEST"


class MalformedMessage(InvalidRequest):
    """The request body is not the RPC's protobuf message (or a string in it is not UTF-8)."""

    reason = "MALFORMED_MESSAGE"


class UnknownGameKind(AppError):
    reason = "UNKNOWN_GAME_KIND"


class GameFull(AppError):
    reason = "GAME_FULL"


class NoWorkerAnswer(AppError):
    reason = "NO_WORKER_ANSWER"


class GameNotFinished(AppError):
    reason = "GAME_NOT_FINISHED"


class RulesVersionUnavailable(AppError):
    reason = "RULES_VERSION_UNAVAILABLE"


class EngineFailure(AppError):
    """The rules failed on this work (a server bug, never the client's action): nothing was applied,
    nothing recorded under the request id; metadata `incident` names the worker's log entry."""

    reason = "ENGINE_FAILURE"


# --- lobbies and matchmaking: subclasses, so gateway/errors.py maps them to the parent's status.
class RoomNotFound(GameNotFound):
    reason = "ROOM_NOT_FOUND"


class TicketNotFound(GameNotFound):
    reason = "TICKET_NOT_FOUND"


class TicketAlreadyWaiting(GameFull):
    reason = "TICKET_ALREADY_WAITING"


class NotRoomHost(NotSeated):
    reason = "NOT_ROOM_HOST"


class WrongJoinCode(NotSeated):
    reason = "WRONG_JOIN_CODE"


class RoomFull(GameFull):
    reason = "ROOM_FULL"


class RoomNotOpen(GameFull):
    reason = "ROOM_NOT_OPEN"


class RoomNotReady(GameFull):
    reason = "ROOM_NOT_READY"


class RoomBusy(StaleVersion):
    reason = "ROOM_BUSY"


# --- parties (reasons 60-69) ---
class PartyNotFound(GameNotFound):
    reason = "PARTY_NOT_FOUND"


class PartyInviteNotFound(GameNotFound):
    reason = "PARTY_INVITE_NOT_FOUND"


class NotPartyLeader(NotSeated):
    reason = "NOT_PARTY_LEADER"


class AlreadyInParty(GameFull):
    reason = "ALREADY_IN_PARTY"


class PartyFull(GameFull):
    reason = "PARTY_FULL"


class PartyMemberNotAccepted(GameFull):
    reason = "PARTY_MEMBER_NOT_ACCEPTED"


class TooManyInvites(GameFull):
    reason = "TOO_MANY_INVITES"


# --- tokens and identity (docs/security.md)
class SeatTokenRequired(NotSeated):
    """A session token tried to act for a seat: acting needs that seat's token."""

    reason = "SEAT_TOKEN_REQUIRED"


class TokenExpired(Unauthenticated):
    reason = "TOKEN_EXPIRED"


class TokenRevoked(Unauthenticated):
    reason = "TOKEN_REVOKED"


class ApiKeyInvalid(Unauthenticated):
    reason = "API_KEY_INVALID"


class GuestsDisabled(NotSeated):
    reason = "GUESTS_DISABLED"


class SeatAbsent(GameFull):
    """The seat left or timed out too often: its absence policy plays it, the player cannot."""

    reason = "SEAT_ABSENT"


class TokenNotRefreshable(GameFull):
    reason = "TOKEN_NOT_REFRESHABLE"


# --- rate limits and quotas (app/limits.py): RESOURCE_EXHAUSTED.
class RateLimited(AppError):
    """Over a rate limit; `retry_after_s` is when the next call would pass (RetryInfo)."""

    reason = "RATE_LIMITED"
    retry_after_s: float | None = None


class QuotaExceeded(AppError):
    """Over a quota of things held at once; frees only when the caller ends one (no RetryInfo)."""

    reason = "QUOTA_EXCEEDED"


class CatalogNotFound(GameNotFound):
    """No catalogue of this game kind and rules version (CatalogService.GetCatalog)."""

    reason = "CATALOG_NOT_FOUND"
