"""Field limits for JSON request bodies, applied while scanning the text, before a message is built.

A binary body is decoded by protobuf's C decoder (4 MiB at most: tens of milliseconds in the worst
case) and then checked field by field (gateway/field_limits.py). The proto3 JSON mapping is parsed
in Python at about a microsecond per value, so a 4 MiB body of 1.3 M array elements (3.9 KB
gzipped) would hold the gateway's event loop for a second. `over_limits` walks the JSON text once,
with the request's descriptor and the same table (`MAXIMA`), and stops at the first field over its
maximum: a repeated field at its maximum plus one entry, a string as soon as it is read. What no
field limit names (unknown fields, scalars, an action's inside) counts against `MAX_JSON_VALUES`
and `MAX_JSON_DEPTH`, so every body the scan lets through is cheap to build (milliseconds at most).
A string token is read by the json module's C scanner (linear, no Python per character). Bodies
shorter than SCAN_FROM_CHARS are parsed at once (the scan would cost as much as the parse); the
gRPC server's field check refuses theirs with the same words.
"""

from __future__ import annotations

import re
from _json import scanstring
from collections.abc import Iterator
from functools import cache

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
    too_long,
    too_many,
    whole_request,
)

SCAN_FROM_CHARS = 1024  # shorter bodies are parsed at once: at most ~500 values, half a millisecond
MAX_JSON_VALUES = 4096  # values (scalars, strings, arrays, objects) in one JSON request body
MAX_JSON_DEPTH = 32  # arrays and objects nested in one JSON request body

_SPACE = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity")


class _Refused(Exception):
    def __init__(self, error: InvalidRequest) -> None:
        self.error = error


def over_limits(text: str, message: Descriptor) -> InvalidRequest | None:
    """The refusal of a JSON body for `message` that has a field over its maximum, or too many values
    or levels; None when it is within them (or shorter than SCAN_FROM_CHARS: the check after
    decoding judges those). ValueError when the scan finds it is not JSON."""
    if len(text) < SCAN_FROM_CHARS:
        return None
    try:
        problem = _Scan(text).message(message, 0)
    except _Refused as refused:
        return refused.error
    return None if problem is None else refusal(problem)


@cache
def _fields(message: Descriptor) -> dict[str, FieldDescriptor]:
    """A message's fields by both names the JSON mapping accepts (`seatCounts`, `seat_counts`)."""
    return {**{f.name: f for f in message.fields}, **{f.json_name: f for f in message.fields}}


class _Scan:
    """One pass over a JSON text; `at` is the position of the next token."""

    __slots__ = ("at", "left", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.left = MAX_JSON_VALUES

    def peek(self) -> str:
        """The next token's first character ('' at the end), whitespace skipped."""
        found = _SPACE.match(self.text, self.at)
        assert found is not None  # the pattern matches the empty string
        self.at = found.end()
        return self.text[self.at : self.at + 1]

    def take(self, expected: str) -> None:
        if self.peek() != expected:
            raise ValueError(f"expected {expected!r} at {self.at}")
        self.at += 1

    def count(self, depth: int) -> None:
        self.left -= 1
        if self.left < 0:
            raise _Refused(whole_request(f"has more than {MAX_JSON_VALUES} JSON values"))
        if depth > MAX_JSON_DEPTH:
            raise _Refused(whole_request(f"is nested more than {MAX_JSON_DEPTH} deep"))

    def value(self, depth: int) -> str | None:
        """Scan any value; a string's text is returned (its length is what limits count)."""
        self.count(depth)
        first = self.peek()
        if first == '"':
            text, self.at = scanstring(self.text, self.at + 1, True)
            return text
        if first == "{":
            for _ in self.members(depth):
                self.value(depth + 1)
        elif first == "[":
            for _ in self.elements(depth):
                self.value(depth + 1)
        else:
            scalar = _SCALAR.match(self.text, self.at)
            if scalar is None:
                raise ValueError(f"not a JSON value at {self.at}")
            self.at = scalar.end()
        return None

    def members(self, depth: int) -> Iterator[str]:
        """Each key of the object here, leaving `at` on its value for the caller to scan."""
        self.take("{")
        if self.peek() == "}":
            self.at += 1
            return
        while True:
            if self.peek() != '"':
                raise ValueError(f"expected a key at {self.at}")
            key, self.at = scanstring(self.text, self.at + 1, True)
            self.take(":")
            yield key
            self.take("}" if self.peek() == "}" else ",")
            if self.text[self.at - 1] == "}":
                return

    def elements(self, depth: int) -> Iterator[int]:
        """Each element's index of the array here, leaving `at` on it for the caller to scan."""
        self.take("[")
        if self.peek() == "]":
            self.at += 1
            return
        index = 0
        while True:
            yield index
            index += 1
            self.take("]" if self.peek() == "]" else ",")
            if self.text[self.at - 1] == "]":
                return

    def message(self, message: Descriptor, depth: int) -> str | None:
        """Scan a message's object: the first field over its maximum (field_limits' words), or None."""
        if self.peek() != "{":
            self.value(depth)  # null, or not an object: the JSON mapping's parser says what is wrong
            return None
        self.count(depth)
        fields = _fields(message)
        for key in self.members(depth):
            field = fields.get(key)
            if field is None:
                self.value(depth + 1)  # an unknown field: ignored, as in the binary format, but counted
                continue
            problem = self.field(field, depth + 1)
            if problem is not None:
                return problem
        return None

    def field(self, field: FieldDescriptor, depth: int) -> str | None:
        name, most, limit = field.name, MAXIMA.get(field.full_name, 0), limit_of(field)
        nested = inner(field)
        if nested is not None:
            problem = self.message(nested, depth)
            return None if problem is None else f"{name}.{problem}"
        if limit is Limit.MAP:
            return self.entries(name, most, depth)
        if limit in (Limit.STRINGS, Limit.LENGTH) and field.is_repeated:
            return self.repeated(field, most, depth)
        value = self.value(depth)  # a scalar, an action (its bytes are checked once built), or a string
        if limit is Limit.LENGTH and field.type == FieldDescriptor.TYPE_STRING and len(value or "") > most:
            return too_long(name, most)
        return None

    def entries(self, name: str, most: int, depth: int) -> str | None:
        if self.peek() != "{":
            self.value(depth)
            return None
        self.count(depth)
        for index, key in enumerate(self.members(depth)):
            if index == most:
                return too_many(name, most)
            if len(key) > MAX_OPTION_CHARS or len(self.value(depth + 1) or "") > MAX_OPTION_CHARS:
                return option_too_long(name)
        return None

    def repeated(self, field: FieldDescriptor, most: int, depth: int) -> str | None:
        if self.peek() != "[":
            self.value(depth)
            return None
        self.count(depth)
        strings = limit_of(field) is Limit.STRINGS
        for index in self.elements(depth):
            if index == most:
                return too_many(field.name, most)
            value = self.value(depth + 1)
            if strings and len(value or "") > PARTY_MEMBER:
                return entry_too_long(field.name, PARTY_MEMBER)
        return None
