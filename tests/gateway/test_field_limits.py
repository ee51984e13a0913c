"""Every string and repeated field of every request has a documented maximum, checked on arrival.

A binary body past gateway/wire_limits.py's WALK_FROM_BYTES is held to the same maxima before it is
decoded: the walk and the check after decoding must agree (same words, same fields), and the issue's
4 MiB bodies are refused after a few entries (the tests at the end).

The table is gateway/field_limits.py; the .proto comments and docs/security.md must say
the same, and a gateway refuses one over it with INVALID_ARGUMENT naming the field, before any
work (these calls carry no token: the size check comes before authentication).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.message import Message

from flotilla.api.game.v1 import game_service_pb2 as game
from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as matchmaking
from flotilla.gateway.field_limits import MAXIMA, Limit, checker, grows, inner, limit_of
from flotilla.gateway.json_limits import SCAN_FROM_CHARS
from flotilla.gateway.json_limits import over_limits as json_over_limits
from flotilla.gateway.wire_limits import MAX_WIRE_FIELDS, WALK_FROM_BYTES, over_limits
from inproc import InProcess
from raw_rpc import METHODS, auth, call, call_message

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]

ROOT = Path(__file__).resolve().parents[2]
PROTOS = {
    "flotilla.api.game.v1.": ROOT / "proto/flotilla/api/game/v1/game_service.proto",
    "flotilla.api.lobby.v1.": ROOT / "proto/flotilla/api/lobby/v1/lobby_service.proto",
    "flotilla.api.matchmaking.v1.": ROOT / "proto/flotilla/api/matchmaking/v1/matchmaking_service.proto",
    "flotilla.api.catalog.v1.": ROOT / "proto/flotilla/api/catalog/v1/catalog_service.proto",
}
INVALID = grpc.StatusCode.INVALID_ARGUMENT


def request_messages() -> Iterator[Descriptor]:
    """Every request message, and the request messages inside them, once each."""
    seen: set[str] = set()
    todo = [m.input_type for m in METHODS]
    while todo:
        message = todo.pop()
        if message.full_name in seen:
            continue
        seen.add(message.full_name)
        yield message
        todo += [nested for f in message.fields if (nested := inner(f)) is not None]


def growing_fields() -> list[FieldDescriptor]:
    return [f for m in request_messages() for f in m.fields if grows(f) or f.full_name in MAXIMA]


def test_every_growing_field_of_every_request_has_a_maximum_and_nothing_else_does() -> None:
    fields = {f.full_name for f in growing_fields()}
    assert fields - MAXIMA.keys() == set(), "fields without a documented maximum"
    assert MAXIMA.keys() - fields == set(), "maxima of fields that are not in any request"


def comment_above(full_name: str) -> str:
    package = next(p for p in PROTOS if full_name.startswith(p))
    lines = PROTOS[package].read_text().splitlines()
    message, field = full_name[len(package) :].rsplit(".", 1)
    at = lines.index(f"message {message} {{")
    pattern = re.compile(rf"^\s+(optional |repeated )?[\w.<>, ]+ {field} = \d+( \[[^]]*\])?;")
    while not pattern.match(lines[at]):
        at += 1
    comment = []
    while lines[at - 1].strip().startswith("//"):
        at -= 1
        comment.insert(0, lines[at].strip().removeprefix("//").strip())
    return " ".join(comment)


@pytest.mark.parametrize("full_name", sorted(MAXIMA))
def test_the_proto_and_the_docs_state_each_maximum(full_name: str) -> None:
    assert f"At most {MAXIMA[full_name]} " in comment_above(full_name)
    doc = (ROOT / "docs/security.md").read_text()
    short = full_name.split(".v1.", 1)[1]
    assert f"| `{short}` | {MAXIMA[full_name]} " in doc


def method_for(message: Descriptor) -> MethodDescriptor:
    return next(m for m in METHODS if m.input_type.full_name == message.full_name)


def filled(field: FieldDescriptor, count: int) -> Message:
    """A request whose `field` has `count` characters, entries or bytes."""
    request = message_factory.GetMessageClass(field.containing_type)()
    value = getattr(request, field.name) if field.is_repeated or field.type == FieldDescriptor.TYPE_MESSAGE else None
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        for i in range(count):
            value[f"k{i}"] = "v"  # type: ignore[index]
    elif field.is_repeated and field.type == FieldDescriptor.TYPE_STRING:
        value.extend(["users/x"] * count)  # type: ignore[union-attr]
    elif field.is_repeated:
        value.extend([2] * count)  # type: ignore[union-attr]
    elif field.type == FieldDescriptor.TYPE_MESSAGE:  # an action: an unknown field of `count` bytes in all
        value.counter.add.n = 1  # type: ignore[union-attr]
        value.counter.add.MergeFromString(b"\xc2\x3e" + _varint(count) + b"z" * count)  # type: ignore[union-attr]
    else:
        setattr(request, field.name, "a" * count)
    return request


def _varint(n: int) -> bytes:
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        if not n:
            return out + bytes([byte])
        out += bytes([byte | 0x80])


@pytest.mark.parametrize("full_name", sorted(MAXIMA))
async def test_a_field_over_its_maximum_is_refused_before_any_work(inproc: InProcess, full_name: str) -> None:
    field = next(f for f in growing_fields() if f.full_name == full_name)
    most = MAXIMA[full_name]
    async with grpc.aio.insecure_channel(inproc.gateways[0]) as channel:
        method = method_for(field.containing_type)
        slack = 16 if field.type == FieldDescriptor.TYPE_MESSAGE else 0  # an action's own bytes around the padding
        over = await call_message(channel, method, filled(field, most + 1))
        assert (over.code, over.reason, over.metadata) == (
            INVALID,
            "ERROR_REASON_INVALID_REQUEST",
            {"field": field.name},
        )
        assert "more than" in over.details or "larger than" in over.details
        at_most = await call_message(channel, method, filled(field, most - slack))
        assert "more than" not in at_most.details
        assert "larger than" not in at_most.details


async def test_a_play_stream_checks_the_messages_inside_its_requests(inproc: InProcess) -> None:
    play = next(m for m in METHODS if m.name == "Play")
    async with grpc.aio.insecure_channel(inproc.gateways[0]) as channel:
        opening = game.PlayRequest(open=game.WatchGameRequest(game="g" * 71))
        answer = await call(channel, play, [opening.SerializeToString()])
        assert (answer.code, answer.metadata) == (INVALID, {"field": "open.game"})


async def signed_in(channel: grpc.aio.Channel) -> tuple[tuple[str, str], ...]:
    stub = channel.unary_unary(
        "/flotilla.api.game.v1.AuthService/SignInAsGuest",
        request_serializer=game.SignInAsGuestRequest.SerializeToString,
        response_deserializer=game.SignInAsGuestResponse.FromString,
    )
    reply = await stub(game.SignInAsGuestRequest(display_name="host"))
    return auth(reply.session_token)


@pytest.mark.parametrize("name", ["\u202eevil", "a\u200bb", "bell\x07", "line\u2028break", "\ue000", "x" * 41, " "])
async def test_room_names_and_option_values_refuse_invisible_and_control_characters(
    inproc: InProcess, name: str
) -> None:
    create = next(m for m in METHODS if m.name == "CreateRoom")
    async with grpc.aio.insecure_channel(inproc.gateways[0]) as channel:
        token = dict(await signed_in(channel))["authorization"].removeprefix("Bearer ")
        room = lobby.CreateRoomRequest(kind="counter", seat_count=2, display_name=name)
        answer = await call_message(channel, create, room, token)
        assert (answer.code, answer.metadata) == (INVALID, {"field": "display_name"})
        if name.strip() and len(name) <= 40:
            with_option = lobby.CreateRoomRequest(kind="counter", seat_count=2, options={"moves": name})
            answer = await call_message(channel, create, with_option, token)
            assert (answer.code, answer.metadata) == (INVALID, {"field": "options"})


async def test_a_room_keeps_its_normalised_name(inproc: InProcess) -> None:
    async with grpc.aio.insecure_channel(inproc.gateways[0]) as channel:
        metadata = await signed_in(channel)
        stub = channel.unary_unary(
            "/flotilla.api.lobby.v1.LobbyService/CreateRoom",
            request_serializer=lobby.CreateRoomRequest.SerializeToString,
            response_deserializer=lobby.CreateRoomResponse.FromString,
        )
        reply = await stub(
            lobby.CreateRoomRequest(kind="counter", seat_count=2, display_name="  Zoe\u0308's table "),
            metadata=metadata,
        )
        assert reply.room.display_name == "Zo\u00eb's table"


PADDING = b"\xba\x3e" + _varint(WALK_FROM_BYTES) + b"p" * WALK_FROM_BYTES  # unknown field 999, walked past
TICKET = matchmaking.CreateTicketRequest
SEAT_COUNTS = TICKET.DESCRIPTOR.fields_by_name["seat_counts"].number


def field_named(full_name: str) -> FieldDescriptor:
    return next(f for f in growing_fields() if f.full_name == full_name)


@pytest.mark.parametrize("full_name", sorted(MAXIMA))
def test_the_walk_and_the_check_after_decoding_agree_on_every_maximum(full_name: str) -> None:
    field, most = field_named(full_name), MAXIMA[full_name]
    message = field.containing_type
    over = filled(field, most + 1).SerializeToString() + PADDING
    refused = over_limits(over, message)
    assert refused is not None, full_name
    after = checker(message)(type(filled(field, 0)).FromString(over))
    assert refused.args[0] == f"{after} (docs/security.md)"
    assert refused.metadata == {"field": field.name}
    slack = 16 if field.type == FieldDescriptor.TYPE_MESSAGE else 0  # an action's own bytes around its padding
    assert over_limits(filled(field, most - slack).SerializeToString() + PADDING, message) is None


def test_a_nested_request_is_walked_too() -> None:
    request = game.PlayRequest(open=game.WatchGameRequest(game="games/" + "g" * 70))
    refused = over_limits(request.SerializeToString() + PADDING, game.PlayRequest.DESCRIPTOR)
    assert refused is not None
    assert refused.metadata == {"field": "open.game"}


HOSTILE_BINARY = {  # name -> a 4 MiB-class CreateTicket body, and the field it is refused for
    "1.3M packed seat_counts": (
        TICKET(kind="port_royal", seat_counts=[2] * 1_300_000).SerializeToString(),
        "seat_counts",
    ),
    "2M unpacked seat_counts": (bytes([SEAT_COUNTS << 3, 2]) * 2_000_000, "seat_counts"),
    "2M empty party members": (TICKET(party=["", ""]).SerializeToString() * 1_000_000, "party"),
    "1.3M unknown fields": (b"\xc0\x3e\x01" * 1_300_000, "request"),
    "4M-byte kind": (TICKET(kind="k" * 4_000_000).SerializeToString(), "kind"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_BINARY))
def test_the_issues_binary_bodies_are_refused_after_a_few_entries(name: str) -> None:
    body, field = HOSTILE_BINARY[name]
    began = time.perf_counter()
    refused = over_limits(body, TICKET.DESCRIPTOR)
    took = time.perf_counter() - began
    assert refused is not None
    assert refused.metadata == {"field": field}
    assert took < 0.5, took  # decoding it first: up to 45 ms (measured ~1 ms or less here, unloaded)


def test_unreadable_bodies_are_left_to_the_decoder_and_small_ones_decoded_at_once() -> None:
    assert over_limits(b"\x0a\xff\xff\xff\x0f" + PADDING, TICKET.DESCRIPTOR) is None  # a length past the end
    assert over_limits(b"\x0b" * 100 + PADDING, TICKET.DESCRIPTOR) is None  # groups nested too deep
    assert over_limits(PADDING + b"\x0c", TICKET.DESCRIPTOR) is None  # a group's end with no start
    small = TICKET(seat_counts=[2] * 17).SerializeToString()
    assert len(small) <= WALK_FROM_BYTES
    assert over_limits(small, TICKET.DESCRIPTOR) is None  # the check after decoding refuses it


def test_a_body_of_more_fields_than_the_walk_allows_is_refused_as_a_whole() -> None:
    refused = over_limits(b"\xc0\x3e\x01" * (MAX_WIRE_FIELDS + 1) + PADDING, TICKET.DESCRIPTOR)
    assert refused is not None
    assert refused.metadata == {"field": "request"}
    assert refused.args[0] == f"the request has more than {MAX_WIRE_FIELDS} fields (docs/security.md)"


@pytest.mark.parametrize("full_name", sorted(MAXIMA))
def test_the_json_scan_and_the_check_after_decoding_agree_on_every_maximum(full_name: str) -> None:
    """gateway/json_limits.py holds JSON bodies to the same maxima in the same words (an action is
    bounded by its encoded size: that one is judged once built)."""
    field, most = field_named(full_name), MAXIMA[full_name]
    message = field.containing_type

    def body(count: int) -> str:
        text = json_format.MessageToJson(filled(field, count), indent=None)
        return text[:-1] + ', "padding": "' + "p" * SCAN_FROM_CHARS + '"}'  # an unknown field: scanned past

    refused = json_over_limits(body(most + 1), message)
    if limit_of(field) is Limit.ENCODED:
        assert refused is None
        return
    assert refused is not None, full_name
    after = checker(message)(filled(field, most + 1))
    assert refused.args[0] == f"{after} (docs/security.md)"
    assert refused.metadata == {"field": field.name}
    assert json_over_limits(body(most), message) is None
