"""A rules event's `GameEvent`, built by the renderer in one constructor call, is the message built
field by field (its time as `Timestamp.FromMilliseconds`, the game's event converted and copied
in, the summary and text of the redacted value), for every game kind, viewer and event, hidden
ones included (in-process, random legal games)."""

from __future__ import annotations

import random

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from flotilla.api.game.v1 import game_pb2
from flotilla.app.host import GameHost, host_for
from flotilla.app.host_events import RULES_EVENT
from flotilla.convert import GameConverter
from flotilla.games import REGISTRY
from flotilla.gateway.render import Renderer, text_pb
from flotilla.records import EventRow
from flotilla.rules import Seat
from flotilla.rules.describe import describe_event

NOW_MS = 1_765_000_000_123  # a time with milliseconds: the timestamp's nanos are set


def rows(host: GameHost, moves: int, seed: int) -> list[tuple[str, EventRow]]:
    """The rules event rows, with their game's id, of random games of 3 seats (2 for counter),
    `moves` moves in all."""
    seats = 2 if host.rules.name == "counter" else 3
    driver = random.Random(seed)
    out: list[tuple[str, EventRow]] = []
    for game in range(100):
        step = host.start(host.config(seats, {}), seed * 1000 + game, {}, NOW_MS)
        while step.to_act and moves > 0:
            seat = Seat(driver.choice(step.to_act))
            action = driver.choice(host.rules.legal_actions(step.state, seat))
            step = host.step(step.state, seat, action, step.version, NOW_MS + moves)
            out.extend((f"g{game}", row) for row in step.events if row.tag == RULES_EVENT)
            moves -= 1
        if moves <= 0:
            break
    return out


def field_by_field(host: GameHost, row: EventRow, viewer: Seat | None) -> game_pb2.GameEvent:
    """The message as it was built before the one-call constructor."""
    rules = host.rules
    shown = rules.redact(host.codec.from_plain(row.payload), viewer)
    when = Timestamp()
    when.FromMilliseconds(row.time_ms)
    msg = game_pb2.GameEvent(event_id=row.event_id, event_time=when)
    if shown is None:
        msg.summary = "hidden event"
        msg.text.CopyFrom(game_pb2.Text(label="hidden event", message_key="game.event.hidden"))
        return msg
    described = describe_event(rules.describer, rules.name, shown)
    msg.summary = described.label
    getattr(msg, rules.name).CopyFrom(GameConverter(rules).event_to_pb(shown))
    msg.text.CopyFrom(text_pb(described))
    return msg


@pytest.mark.parametrize("kind", sorted(REGISTRY))
def test_rules_events_render_as_built_field_by_field(kind: str) -> None:
    host = host_for(kind)
    render = Renderer()
    viewers: list[Seat | None] = [None, *(Seat(i) for i in range(2 if kind == "counter" else 3))]
    for game_id, row in rows(host, 150, seed=7):
        for viewer in viewers:
            got = render.event(game_id, host, row, viewer, "x")
            want = field_by_field(host, row, viewer)
            assert got == want
            assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
