"""Field limits for binary (protobuf wire format) request bodies, applied to the bytes before the
message is built.

protobuf's C decoder builds a 4 MiB body of two million strings or map entries in about 45 ms of
the event loop, only for the field check after it (gateway/field_limits.py) to refuse it.
`over_limits` walks the body's fields once, with the request's descriptor and the same table,
and stops at the first field over its maximum: a repeated field's entries are counted as they
come (a packed run is counted without decoding it), a string's or an action's length is read
from its length prefix. What no field limit names (unknown fields, scalars) counts against
`MAX_WIRE_FIELDS`. A body the walk cannot follow is left to the decoder, which refuses it
MALFORMED_MESSAGE; the field check after decoding still runs, so this walk only needs to be
right about what it refuses. Bodies of at most WALK_FROM_BYTES are not walked: decoding one
costs less than walking it (the walk is Python, microseconds per field; the move path's bodies
are a hundred bytes).
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from flotilla.app.errors import InvalidRequest
from flotilla.app.inputs import MAX_OPTION_CHARS
from flotilla.gateway.field_limits import (
    MAXIMA,
    PARTY_MEMBER,
    Limit,
    entry_too_long,
    inner,
    limit_of,
    option_too_long,
    refusal,
    too_large,
    too_long,
    too_many,
    whole_request,
)

WALK_FROM_BYTES = 16 * 1024  # smaller bodies are decoded at once: at most ~0.2 ms of the C decoder
MAX_WIRE_FIELDS = 4096  # fields (every occurrence, unknown ones too) in one binary request body
MAX_GROUP_DEPTH = 32  # groups (a proto2 form no Flotilla message has) nested in an unknown field
_VARINT, _FIXED64, _BYTES, _GROUP_START, _GROUP_END, _FIXED32 = range(6)
_HIGH_BYTES = bytes(range(0x80, 0x100))
_PACKABLE_SIZES = {  # the element size of a packed fixed-width run; varints are counted by their last bytes
    FieldDescriptor.TYPE_FIXED32: 4,
    FieldDescriptor.TYPE_SFIXED32: 4,
    FieldDescriptor.TYPE_FLOAT: 4,
    FieldDescriptor.TYPE_FIXED64: 8,
    FieldDescriptor.TYPE_SFIXED64: 8,
    FieldDescriptor.TYPE_DOUBLE: 8,
}


class _Unreadable(Exception):
    """The bytes are not a well-formed message: the decoder will say so."""


class _TooMany(Exception):
    """More than MAX_WIRE_FIELDS fields."""


def over_limits(data: bytes, message: Descriptor) -> InvalidRequest | None:
    """The refusal of `data` (a `message` in the wire format) with a field over its maximum (in the
    words of field_limits' checks) or more than MAX_WIRE_FIELDS fields; None otherwise, and for
    any body of at most WALK_FROM_BYTES (the check after decoding judges those)."""
    if len(data) <= WALK_FROM_BYTES:
        return None
    try:
        problem = _Walk(data).message(message, 0, len(data))
    except _TooMany:
        return whole_request(f"has more than {MAX_WIRE_FIELDS} fields")
    except _Unreadable:
        return None
    return None if problem is None else refusal(problem)


class _Walk:
    __slots__ = ("data", "left")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.left = MAX_WIRE_FIELDS

    def varint(self, at: int, end: int) -> tuple[int, int]:
        value = shift = 0
        while at < end and shift < 70:
            byte = self.data[at]
            value |= (byte & 0x7F) << shift
            at += 1
            if byte < 0x80:
                return value, at
            shift += 7
        raise _Unreadable

    def message(self, message: Descriptor, at: int, end: int) -> str | None:
        counts: dict[int, int] = {}
        while at < end:
            key, at = self.tag(at, end)
            number, wire = key >> 3, key & 7
            start, at = at, self.skip(key, at, end, 0)
            field = message.fields_by_number.get(number)
            if field is None or (wire != _BYTES and not field.is_repeated):
                continue  # unknown, or a scalar: counted above
            problem = self.field(field, wire, start, at, counts)
            if problem is not None:
                return problem
        return None

    def tag(self, at: int, end: int) -> tuple[int, int]:
        """A field's tag, counted against MAX_WIRE_FIELDS."""
        self.left -= 1
        if self.left < 0:
            raise _TooMany
        return self.varint(at, end)

    def skip(self, key: int, at: int, end: int, depth: int) -> int:
        """The position after the value of the field whose tag `key` was read (a group: after its end)."""
        wire = key & 7
        if wire == _VARINT:
            return self.varint(at, end)[1]
        if wire in (_FIXED64, _FIXED32):
            at += 8 if wire == _FIXED64 else 4
        elif wire == _BYTES:
            size, at = self.varint(at, end)
            at += size
        elif wire == _GROUP_START and depth < MAX_GROUP_DEPTH:
            inside, at = self.tag(at, end)
            while inside != key - _GROUP_START + _GROUP_END:
                at = self.skip(inside, at, end, depth + 1)
                inside, at = self.tag(at, end)
        else:
            raise _Unreadable  # a stray group end, a group too deep (the decoder's own limit is 100), wire type 6 or 7
        if at > end:
            raise _Unreadable
        return at

    def field(self, field: FieldDescriptor, wire: int, start: int, end: int, counts: dict[int, int]) -> str | None:
        """The check of one occurrence of `field`, whose value lies in data[start:end]."""
        limit, name, most = limit_of(field), field.name, MAXIMA.get(field.full_name, 0)
        if limit is None:
            return None
        if wire == _BYTES:
            _, start = self.varint(start, end)
        nested = inner(field)
        if nested is not None:
            problem = self.message(nested, start, end)
            return None if problem is None else f"{name}.{problem}"
        if limit is Limit.ENCODED:
            return too_large(name, most) if end - start > most else None
        if field.is_repeated:
            seen = counts[field.number] = counts.get(field.number, 0) + self.entries(field, wire, start, end)
            if seen > most:
                return too_many(name, most)
        if limit is Limit.MAP:
            return self.entry(name, start, end)
        if field.type == FieldDescriptor.TYPE_STRING and end - start > (PARTY_MEMBER if field.is_repeated else most):
            each = PARTY_MEMBER if field.is_repeated else most
            if len(self.text(start, end)) > each:
                return entry_too_long(name, each) if field.is_repeated else too_long(name, most)
        elif field.type == FieldDescriptor.TYPE_BYTES and end - start > most:
            return too_long(name, most)
        return None

    def entries(self, field: FieldDescriptor, wire: int, start: int, end: int) -> int:
        """How many entries one occurrence adds: one, or a packed run's count."""
        if wire != _BYTES or field.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
            return 1
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            return 1
        size = _PACKABLE_SIZES.get(field.type)
        run = self.data[start:end]
        return len(run) // size if size else len(run.translate(None, _HIGH_BYTES))

    def entry(self, name: str, start: int, end: int) -> str | None:
        """A map entry's key (1) and value (2): each at most MAX_OPTION_CHARS characters."""
        at = start
        while at < end:
            key, at = self.tag(at, end)
            begin, at = at, self.skip(key, at, end, 0)
            if key & 7 == _BYTES:
                _, begin = self.varint(begin, end)
                if at - begin > MAX_OPTION_CHARS and len(self.text(begin, at)) > MAX_OPTION_CHARS:
                    return option_too_long(name)
        return None

    def text(self, start: int, end: int) -> str:
        try:
            return self.data[start:end].decode()
        except UnicodeDecodeError:
            raise _Unreadable from None
