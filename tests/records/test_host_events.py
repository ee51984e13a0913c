"""The host events' payloads (app/host_events.py) are the fields of the proto messages the
gateway renders them as, so a payload key and its field cannot drift apart."""

from __future__ import annotations

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.app import host_events


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (host_events.Started, game_pb2.GameStarted),
        (host_events.Finished, game_pb2.GameFinished),
        (host_events.TimedOut, game_pb2.SeatTimedOut),
        (host_events.Absent, game_pb2.SeatAbsent),
        (host_events.Aborted, game_pb2.GameAborted),
    ],
)
def test_payload_keys_are_fields_of_their_message(payload: type, message: type) -> None:
    fields = {f.name for f in message.DESCRIPTOR.fields}  # type: ignore[attr-defined]
    assert set(payload.__annotations__) <= fields, (payload.__name__, fields)


def test_tags_are_distinct() -> None:
    tags = [host_events.RULES_EVENT, host_events.STARTED, host_events.FINISHED]
    tags += [host_events.TIMED_OUT, host_events.ABSENT, host_events.ABORTED]
    assert len(set(tags)) == len(tags)
