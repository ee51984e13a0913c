"""A game stream's updates as serialized bytes, built from cached pieces (WatchGame and Play).

A protobuf message's serialization is the concatenation of its fields' (a tag, then the value;
a nested message as its length and its bytes), so an update is written here field by field, in
field-number order (what `SerializeToString` writes), and its costly fields come from caches:

* each event as a viewer may see it, per (game, lineage of its commit, event id, viewer): the
  renderer's own event key (gateway/render.py), so nothing is shared wider than it is there;
* a prompt's legal actions and their texts, per (rules, rules version, seat, the commit's stored
  prompts): the same prompt recurs, and its actions are not converted again. The seat is in the
  key, and a watcher is given only its own seat's prompt (app/watching.py).

Only the small fields are written per message (version, etag, the prompt's seat and default) and
per stream (Play's answered request ids and its wrapper). grpc sends bytes as they are (the
streams' response serializer passes bytes through: gateway/services.py). A full view (a stream's
first message, a resync) is rendered as a message and serialized: it is rare and not shared.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from flotilla.api.game.v1 import game_pb2
from flotilla.app.host import GameHost
from flotilla.app.lineage import etag
from flotilla.app.watching import Answer, Batch, PlainPrompt
from flotilla.gateway.render import Renderer
from flotilla.records import EventRow
from flotilla.rules import Seat

_CACHE_SIZE = 20_000
_CHECKPOINT = b"\x20\x01"  # is_checkpoint = true (field 4, varint)


def _varint(value: int) -> bytes:
    """A non-negative integer as a protobuf varint."""
    if value < 0x80:
        return bytes((value,))
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _nested(tag: bytes, body: bytes) -> bytes:
    """A length-delimited field (a message, a string) with its tag byte."""
    return tag + _varint(len(body)) + body


def _text(tag: bytes, body: bytes) -> bytes:
    """A string field; nothing when empty."""
    return _nested(tag, body) if body else b""


def _number(tag: bytes, value: int) -> bytes:
    """A varint field; nothing for 0 (proto3's default is not written)."""
    return tag + _varint(value) if value else b""


def play_update(update: bytes, answers: Sequence[Answer]) -> bytes:
    """A PlayResponse carrying `update` (a serialized WatchGameResponse) with the request ids it
    answers appended (answered_request_ids, field 8: the update's last field)."""
    for answer in answers:
        update += _nested(b"\x42", answer.request_id.encode())
    return _nested(b"\x0a", update)


class UpdateWire:
    """Serialized updates for one gateway process (shares the renderer's converters and texts)."""

    def __init__(self, renderer: Renderer) -> None:
        self.render = renderer
        self._events: OrderedDict[tuple[str, str, int, int], bytes] = OrderedDict()
        self._shared: OrderedDict[tuple[str, str, int], list[tuple[game_pb2.GameEvent, bytes]]] = OrderedDict()
        self._prompts: OrderedDict[tuple[str, str, Seat, bytes], tuple[bytes, bytes]] = OrderedDict()

    def update(self, game_id: str, batch: Batch, viewer: Seat | None) -> bytes:
        """`batch` as the WatchGameResponse `viewer` gets, serialized."""
        prompt = batch.prompt
        if batch.view is not None or not (prompt is None or isinstance(prompt, PlainPrompt)):
            return self.render.watch_response(game_id, batch, viewer).SerializeToString()
        tag = etag(batch.version, batch.lineage).encode()
        if batch.events:  # events 2, through_event_id 3, is_checkpoint 4, prompt 5, etag 6
            out = self._events_field(game_id, batch, viewer) + _number(b"\x18", batch.version)
        else:
            out = _number(b"\x18", batch.version) + _CHECKPOINT
        if prompt is not None and viewer is not None:
            out += _nested(b"\x2a", self._prompt(batch, prompt, viewer, tag))
        return out + _text(b"\x32", tag)

    def _events_field(self, game_id: str, batch: Batch, viewer: Seat | None) -> bytes:
        rows, lineages = batch.events, batch.lineages
        if len(lineages) == 1 and len(rows) != 1:
            lineages = (lineages[0],) * len(rows)
        cache, who = self._events, -1 if viewer is None else viewer
        out = []
        for row, lineage in zip(rows, lineages, strict=True):
            key = (game_id, lineage, row.event_id, who)
            field = cache.get(key)
            if field is None:
                field = cache[key] = self._event_field(game_id, batch.host, row, viewer, lineage)
                if len(cache) > _CACHE_SIZE:
                    cache.popitem(last=False)
            out.append(field)
        return b"".join(out)

    def _event_field(self, game_id: str, host: GameHost, row: EventRow, viewer: Seat | None, lineage: str) -> bytes:
        """The events field of one event as `viewer` may see it, serialized once per message: the
        viewers the renderer gives the same message (the same redaction) share its bytes."""
        msg = self.render.event(game_id, host, row, viewer, lineage)
        row_key = (game_id, lineage, row.event_id)
        shared = self._shared.get(row_key)
        if shared is None:
            shared = self._shared[row_key] = []
            if len(self._shared) > _CACHE_SIZE:
                self._shared.popitem(last=False)
        for seen, field in shared:
            if seen is msg:  # the very message (held here, so its identity is not reused)
                return field
        field = _nested(b"\x12", msg.SerializeToString())
        shared.append((msg, field))
        return field

    def _prompt(self, batch: Batch, prompt: PlainPrompt, viewer: Seat, tag: bytes) -> bytes:
        """The Prompt message's bytes: seat 1, legal_actions 2, etag 3, texts 4, default 5."""
        rules = batch.host.rules
        key = (rules.name, rules.version, viewer, prompt.source)
        cached = self._prompts.get(key)
        if cached is None:
            actions = [batch.host.codec.from_plain(a) for a in prompt.actions]
            wire = [self.render.action_to_pb(batch.host, a) for a in actions]
            texts = [self.render.text(rules, a, action=True)[1] for a in actions]
            cached = self._prompts[key] = (
                b"".join(_nested(b"\x12", a.SerializeToString()) for a in wire),
                b"".join(_nested(b"\x22", t.SerializeToString()) for t in texts),
            )
            if len(self._prompts) > _CACHE_SIZE:
                self._prompts.popitem(last=False)
        actions_field, texts_field = cached
        out = _number(b"\x08", viewer) + actions_field + _text(b"\x1a", tag) + texts_field
        if batch.default is not None:
            out += b"\x28" + _varint(batch.default)
        return out
