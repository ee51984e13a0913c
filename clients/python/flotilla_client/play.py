"""What a Play stream keeps across its calls, shared by both clients.

A Play stream is a run of calls: when one breaks retryably, the next opens (on the next gateway)
after the last update delivered, and sends again every submit not answered yet, with its request
id and etag, so that the server applies it once and answers it once (docs/wire.md, "Retries and
request ids"). `PlayState` holds that resume point, the unanswered submits and the decisions;
each client adds only the waiting (await or block).
"""

from __future__ import annotations

import grpc

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.calls import fresh_request_id
from flotilla_client.errors import TOKEN_EXPIRED, Failure, error_info, retry_after, retry_pause_s
from flotilla_client.seat import Seat

OVER = (game_pb2.GAME_STATE_FINISHED, game_pb2.GAME_STATE_ABANDONED)
ENDED_EARLY = Failure.of(grpc.StatusCode.UNAVAILABLE, "the Play stream ended before the game did")


def ends_game(update: g.WatchGameResponse) -> bool:
    """Whether `update` carries the game's last event (GameFinished or GameAborted)."""
    return any(e.WhichOneof("event") in ("game_finished", "game_aborted") for e in update.events)


class PlayState:
    """One seat's Play stream across its calls: the resume point (the last update delivered), the
    submits sent and not answered yet, and whether the game ended."""

    def __init__(self, seat: Seat, after_event_id: int = 0, after_etag: str = "") -> None:
        self.seat = seat
        self.etag = after_etag  # of the last update delivered: the next call resumes after it
        self.through_event_id = after_event_id
        self.pending: dict[str, g.PlayRequest] = {}  # request id -> its submit, in the order sent
        self.resends: dict[str, int] = {}  # request id -> times sent again after a retryable refusal
        self.over = False  # an update delivered the game's last event
        self.closed = False  # half-closed: no more submits
        self.calls = 0  # calls opened so far
        self.resent = 0  # refused submits sent again after their RetryInfo delay

    @property
    def unanswered(self) -> list[str]:
        """Request ids of the submits sent and not answered yet."""
        return list(self.pending)

    def submit(self, action: game_pb2.Action, etag: str, request_id: str) -> g.PlayRequest:
        """The submit for `action`, kept until answered (a fresh request id unless one is given)."""
        request_id = fresh_request_id(request_id)
        submit = g.SubmitActionRequest(game=self.seat.game, action=action, etag=etag, request_id=request_id)
        self.pending[request_id] = request = g.PlayRequest(submit=submit)
        return request

    def opening(self) -> list[g.PlayRequest | None]:
        """What a new call sends first: `open` after the last update delivered, every unanswered
        submit, and the half-close (None) once `close()`d."""
        self.calls += 1
        opening = g.WatchGameRequest(game=self.seat.game, after_event_id=self.through_event_id, after_etag=self.etag)
        return [g.PlayRequest(open=opening), *self.pending.values(), *([None] if self.closed else [])]

    def expired(self, response: g.PlayResponse) -> bool:
        """Whether `response` refuses an unanswered submit because the call's token expired: the
        stream reopens with the refresh and sends it again (if the token was refreshed)."""
        return (
            response.HasField("outcome")
            and response.outcome.request_id in self.pending
            and error_info(response.outcome.status)[0] == TOKEN_EXPIRED
        )

    def repeated(self, response: g.PlayResponse) -> bool:
        """Whether `response` accepts a submit that was answered already (an OK outcome for a
        request id no longer unanswered): the stream drops it, so each submit is answered once."""
        return (
            response.HasField("outcome")
            and response.outcome.status.code == grpc.StatusCode.OK.value[0]
            and response.outcome.request_id not in self.pending
        )

    def take(self, response: g.PlayResponse, retries: int, backoff_s: float, max_backoff_s: float) -> float | None:
        """Account for `response`; None when it is passed on to the caller, else the pause after
        which its refused submit is sent again instead (a retryable refusal: nothing was done;
        at most `retries` times a submit)."""
        if response.HasField("update"):
            update = response.update
            self.etag, self.through_event_id = update.etag, update.through_event_id
            for request_id in update.answered_request_ids:
                self._answered(request_id)
            self.over = self.over or ends_game(update)
            return None
        outcome = response.outcome
        if outcome.status.code != grpc.StatusCode.OK.value[0] and outcome.request_id in self.pending:
            delay = retry_after(Failure(outcome.status))
            tries = self.resends.get(outcome.request_id, 0) + 1
            if delay is not None and tries <= retries:
                self.resends[outcome.request_id] = tries
                self.resent += 1
                return retry_pause_s(tries, delay, backoff_s, max_backoff_s)
        self._answered(outcome.request_id)
        return None

    def resend(self, request_id: str, calls: int) -> g.PlayRequest | None:
        """The submit to send again after its pause: None once answered, or when a new call
        (opened since `calls`) has sent it already."""
        return self.pending.get(request_id) if calls == self.calls else None

    def _answered(self, request_id: str) -> None:
        self.pending.pop(request_id, None)
        self.resends.pop(request_id, None)
