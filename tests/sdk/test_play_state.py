"""What a Play stream keeps across its calls (`flotilla_client.play.PlayState`), without a server:
the resume point, the submits sent again, the retryable refusals held back, the answers dropped."""

from __future__ import annotations

import grpc
from google.protobuf import duration_pb2
from google.rpc import error_details_pb2, status_pb2

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client import Seat
from flotilla_client.play import PlayState

SEAT = Seat("games/g1", 0, "token")
ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))


def refused(request_id: str, code: grpc.StatusCode, reason: str = "", delay_s: float | None = None) -> g.PlayResponse:
    status = status_pb2.Status(code=code.value[0], message="refused")
    if reason:
        status.details.add().Pack(error_details_pb2.ErrorInfo(reason=reason, domain="flotilla.dev"))
    if delay_s is not None:
        retry = error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=int(delay_s)))
        status.details.add().Pack(retry)
    return g.PlayResponse(outcome=g.ActionOutcome(request_id=request_id, status=status))


def accepted(etag: str, through: int, *request_ids: str, finished: bool = False) -> g.PlayResponse:
    update = g.WatchGameResponse(etag=etag, through_event_id=through, answered_request_ids=request_ids)
    event = update.events.add(event_id=through)
    if finished:
        event.game_finished.SetInParent()
    return g.PlayResponse(update=update)


def take(state: PlayState, response: g.PlayResponse) -> float | None:
    return state.take(response, retries=2, backoff_s=0.0, max_backoff_s=0.0)


def test_a_new_call_resumes_after_the_last_update_and_sends_the_unanswered_again() -> None:
    state = PlayState(SEAT, after_event_id=3, after_etag="3.a")
    first = state.opening()
    assert first[0] is not None
    assert (first[0].open.after_event_id, first[0].open.after_etag) == (3, "3.a")
    answered, lost = state.submit(ADD, "3.a", "r1"), state.submit(ADD, "4.b", "r2")
    assert take(state, accepted("4.b", 4, "r1")) is None  # passed on
    state.closed = True
    again = state.opening()
    assert again[0] is not None
    assert (again[0].open.after_event_id, again[0].open.after_etag) == (4, "4.b")
    assert again[1:] == [lost, None]  # the unanswered submit as it was sent, then the half-close
    assert answered not in again
    assert state.unanswered == ["r2"]
    assert state.calls == 2


def test_a_retryable_refusal_is_held_back_and_sent_again_a_bounded_number_of_times() -> None:
    state = PlayState(SEAT)
    state.opening()
    sent = state.submit(ADD, "", "r1")
    rate_limited = refused("r1", grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_RATE_LIMITED", delay_s=1)
    pause = take(state, rate_limited)
    assert pause is not None
    assert 1.0 <= pause <= 2.0
    assert state.resend("r1", state.calls) == sent
    assert take(state, refused("r1", grpc.StatusCode.DEADLINE_EXCEEDED, "ERROR_REASON_NO_WORKER_ANSWER")) == 0.0
    assert take(state, rate_limited) is None, "past `retries` resends the refusal is passed on"
    assert state.unanswered == []
    assert state.resent == 2
    assert state.resend("r1", state.calls) is None  # answered: nothing to send


def test_a_resend_due_after_a_reopen_is_not_sent_twice() -> None:
    state = PlayState(SEAT)
    state.opening()
    state.submit(ADD, "", "r1")
    assert take(state, refused("r1", grpc.StatusCode.UNAVAILABLE)) is not None
    calls = state.calls
    state.opening()  # the stream broke meanwhile: the new call sent r1 already
    assert state.resend("r1", calls) is None


def test_refusals_that_are_final_are_passed_on_and_answer_the_submit() -> None:
    state = PlayState(SEAT)
    state.submit(ADD, "1.x", "r1")
    assert take(state, refused("r1", grpc.StatusCode.ABORTED, "ERROR_REASON_STALE_GAME_VERSION")) is None
    quota = refused("r2", grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_QUOTA_EXCEEDED")
    state.submit(ADD, "", "r2")
    assert take(state, quota) is None
    assert state.unanswered == []


def test_a_second_acceptance_is_dropped_and_an_expired_token_reopens() -> None:
    state = PlayState(SEAT)
    state.submit(ADD, "", "r1")
    ok = g.PlayResponse(outcome=g.ActionOutcome(request_id="r1", etag="2.c", through_event_id=2))
    assert not state.repeated(ok)
    assert take(state, ok) is None
    assert state.repeated(ok), "r1 was answered: an OK outcome for it again is dropped"
    expired = refused("r2", grpc.StatusCode.UNAUTHENTICATED, "ERROR_REASON_TOKEN_EXPIRED")
    assert not state.expired(expired), "not a submit of this stream"
    state.submit(ADD, "", "r2")
    assert state.expired(expired)
    assert not state.over
    take(state, accepted("9.z", 9, finished=True))
    assert state.over
