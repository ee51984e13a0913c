"""The tags of event rows and the payloads of the server's own events (host events), declared once.

An event row (`records.EventRow`) tagged `RULES_EVENT` carries a rules event in codec plain
form; any other tag carries one of the payloads below, stored as a JSON object. Their keys are
the fields of the proto message the gateway renders them as (`gateway/render.py`): GameStarted,
GameFinished, SeatTimedOut, SeatAbsent, GameAborted. Adding a key: readers must accept its
absence (rows stored before it still replay).
"""

from __future__ import annotations

from typing import Any, TypedDict

RULES_EVENT = "r"
STARTED = "s"
FINISHED = "f"
TIMED_OUT = "t"
ABSENT = "x"
ABORTED = "a"
ENDING = (FINISHED, ABORTED)

LEFT = "left"  # Absent.reason: the seat's player left
TIMEOUTS = "timeouts"  # Absent.reason: the seat timed out too often in a row


class Started(TypedDict):
    rules_version: str
    seed_sha256: str  # the commitment to the seed (app/host.seed_commitment)
    seat_count: int
    options: dict[str, str]


class Finished(TypedDict):
    result: dict[str, Any]  # app/host.result_plain
    seed: str  # the revealed seed (app/host.seed_hex)


class TimedOut(TypedDict):
    seat: int
    consecutive: int  # timeouts in a row


class Absent(TypedDict):
    seat: int
    reason: str  # LEFT or TIMEOUTS
    policy: str  # what plays for the seat now (app/clocks.POLICIES)


class Aborted(TypedDict):
    reason: str


HostPayload = Started | Finished | TimedOut | Absent | Aborted
