"""Stream updates as serialized bytes (gateway/update_bytes.py), in-process: every update a watcher
gets is the message the renderer builds for it, viewer by viewer, with hidden events and each
seat's prompt served only to the viewer they were rendered for, whatever order the cache fills
in; Play's wrapper and answered ids; the streams' serializer passes bytes through."""

from __future__ import annotations

import orjson
import pytest

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.app.host import GameHost, host_for
from flotilla.app.pacing import Budget
from flotilla.app.watching import Answer, Batch, Watcher
from flotilla.gateway.render import Renderer
from flotilla.gateway.services import handlers
from flotilla.gateway.update_bytes import UpdateWire, play_update
from flotilla.records import Entry
from flotilla.rules import Seat
from stored_games import stored_fields


def seats(host: GameHost) -> int:
    return 2 if host.rules.name == "counter" else 3


def entries(host: GameHost, moves: int, seed: int) -> list[Entry]:
    """A game played by random legal moves, as its stream's entries (stored and read back)."""
    return [Entry.decode(fields) for fields in stored_fields(host, seats(host), moves, seed)]


async def no_view() -> Batch:
    raise AssertionError("not used")


def batches(host: GameHost, stream: list[Entry], viewer: Seat | None) -> list[Batch]:
    """What a watcher of `viewer` that saw the first entry is given for the rest, one at a time."""
    w = Watcher(None, host, "g", viewer, no_view, 10.0, Budget())  # type: ignore[arg-type]
    w.version, w.lineage, w.at, w.to_act = stream[0].version, stream[0].lineage, stream[0], tuple(stream[0].to_act)
    out = [b for b in [w.unprompted()] if b is not None]
    for entry in stream[1:]:
        given, broken = w.advance([entry])
        assert not broken
        out.extend(given)
    return out


@pytest.mark.parametrize("kind", ["counter", "sail_away", "pirates_of_nassau", "navegador", "port_royal"])
def test_every_update_is_the_rendered_message_for_its_viewer(kind: str) -> None:
    host = host_for(kind)
    stream = entries(host, 40, seed=7)
    renderer = Renderer()
    wire = UpdateWire(renderer)
    viewers: list[Seat | None] = [None, *(Seat(s) for s in range(seats(host)))]
    per_viewer = {viewer: batches(host, stream, viewer) for viewer in viewers}
    differ = False
    for i in range(max(len(b) for b in per_viewer.values())):
        seen: dict[bytes, Seat | None] = {}
        for viewer in reversed(viewers) if i % 2 else viewers:  # the cache fills in either order
            if i >= len(per_viewer[viewer]):
                continue
            batch = per_viewer[viewer][i]
            sent = wire.update("g", batch, viewer)
            want = renderer.watch_response("g", batch, viewer)
            assert game_service_pb2.WatchGameResponse.FromString(sent) == want, (kind, i, viewer)
            if batch.events:
                events = game_service_pb2.WatchGameResponse.FromString(sent).events
                key = b"".join(e.SerializeToString(deterministic=True) for e in events)
                differ = differ or (bool(seen) and key not in seen)
                seen.setdefault(key, viewer)
    prompted = [b for v in viewers[1:] for b in per_viewer[v] if b.prompt is not None]
    assert prompted, "the game gave no seat a prompt"
    if kind != "counter":
        assert differ, "no event was redacted differently for two viewers: the test shows nothing"


def test_a_seats_cached_prompt_is_never_served_to_another_seat() -> None:
    host = host_for("counter")
    stream = entries(host, 6, seed=1)
    both = next(e for e in stream if len(e.to_act) == 1)
    shared = Entry(both.version, both.events, orjson.dumps({"0": [{"Add": [1]}], "1": [{"Add": [2]}]}), [0, 1])
    renderer = Renderer()
    wire = UpdateWire(renderer)
    got = {}
    for viewer in (Seat(0), Seat(1), Seat(0)):
        w = Watcher(None, host, "g", viewer, no_view, 10.0, Budget())  # type: ignore[arg-type]
        w.version, w.at, w.to_act = shared.version, shared, (0, 1)
        batch = w.unprompted()
        assert batch is not None
        got[viewer] = game_service_pb2.WatchGameResponse.FromString(wire.update("g", batch, viewer)).prompt
        assert got[viewer] == renderer.batch_prompt(batch, viewer)
    assert got[Seat(0)].seat == 0
    assert got[Seat(1)].seat == 1
    assert got[Seat(0)].legal_actions != got[Seat(1)].legal_actions


def test_play_wraps_the_update_and_appends_the_answered_ids() -> None:
    update = game_service_pb2.WatchGameResponse(through_event_id=300, etag="e", is_checkpoint=True)
    answers = [Answer(0, "r1", 300, "x"), Answer(0, "r-" + "x" * 200, 300, "x")]
    sent = game_service_pb2.PlayResponse.FromString(play_update(update.SerializeToString(), answers))
    update.answered_request_ids.extend(["r1", "r-" + "x" * 200])
    assert sent == game_service_pb2.PlayResponse(update=update)


def test_the_streams_serializer_passes_bytes_and_serializes_messages() -> None:
    service = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
    methods = handlers(service, game_service_pb2_grpc.GameServiceServicer())
    for name in ("WatchGame", "Play"):
        encode = methods[name].response_serializer
        assert encode is not None
        assert encode(b"\x18\x05") == b"\x18\x05"
    assert methods["Play"].response_serializer(game_service_pb2.PlayResponse()) == b""  # type: ignore[misc]
