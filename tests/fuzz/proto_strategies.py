"""Hypothesis strategies for any protobuf message, built from its descriptor.

Strings are drawn per field name from pools of valid-looking values (names of real games,
rooms, tickets and users) mixed with junk; numbers over the whole range of their type; enums
over known and unknown values; nested messages down to a fixed depth.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

MAX_DEPTH = 4
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
JUNK_TEXT = st.one_of(
    st.text(max_size=24),
    st.sampled_from(["", " ", "²", "١٢", "\u202e", "a\u200bb", "\x00", "games/", "rooms/", "tickets/", "users/"]),
    st.just("x" * 5000),
)
INTEGERS = {
    FieldDescriptor.TYPE_INT32: INT32,
    FieldDescriptor.TYPE_SINT32: INT32,
    FieldDescriptor.TYPE_SFIXED32: INT32,
    FieldDescriptor.TYPE_INT64: INT64,
    FieldDescriptor.TYPE_SINT64: INT64,
    FieldDescriptor.TYPE_SFIXED64: INT64,
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}


class Pools:
    """Valid-looking strings by field name (e.g. "game": real game names), drawn 3 times in 4;
    `plausible`: always (junk only for fields without a pool), to get past the first check."""

    def __init__(
        self,
        by_field: Mapping[str, Sequence[str]],
        messages_by_field: Mapping[str, Sequence[Message]] | None = None,
        *,
        plausible: bool = False,
    ) -> None:
        self.by_field = {name: list(values) for name, values in by_field.items()}
        self.messages_by_field = {name: list(values) for name, values in (messages_by_field or {}).items()}
        self.plausible = plausible
        self._plausible: Pools | None = self if plausible else None

    def only_plausible(self) -> Pools:
        """The same pools, drawing real values only (one object, so its strategies are cached)."""
        if self._plausible is None:
            self._plausible = Pools(self.by_field, self.messages_by_field, plausible=True)
        return self._plausible

    def message(self, field: str, generated: st.SearchStrategy[Message]) -> st.SearchStrategy[Message]:
        """Real messages for this field (e.g. legal actions) mixed with generated ones."""
        known = self.messages_by_field.get(field)
        if not known:
            return generated
        real = st.sampled_from(known)
        return real if self.plausible else st.one_of(real, generated)

    def text(self, field: str) -> st.SearchStrategy[str]:
        known = self.by_field.get(field)
        if not known:
            return JUNK_TEXT
        real = st.sampled_from(known)
        return real if self.plausible else st.one_of(real, real, real, JUNK_TEXT)


def _integers(bounds: tuple[int, int]) -> st.SearchStrategy[int]:
    low, high = bounds
    return st.one_of(st.integers(max(low, -3), min(high, 20)), st.integers(low, high))


def _is_map(fd: FieldDescriptor) -> bool:
    return fd.message_type is not None and fd.message_type.GetOptions().map_entry


def _scalar(fd: FieldDescriptor, pools: Pools) -> st.SearchStrategy[Any]:
    if fd.type == FieldDescriptor.TYPE_STRING:
        return pools.text(fd.name)
    if fd.type == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=32)
    if fd.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if fd.type == FieldDescriptor.TYPE_ENUM:
        known = [v.number for v in fd.enum_type.values]
        return st.one_of(st.sampled_from(known), st.integers(*INT32))
    if fd.type == FieldDescriptor.TYPE_FLOAT:
        return st.floats(width=32)
    if fd.type == FieldDescriptor.TYPE_DOUBLE:
        return st.floats()
    return _integers(INTEGERS[fd.type])


def _field(fd: FieldDescriptor, pools: Pools, depth: int) -> st.SearchStrategy[Any] | None:
    if _is_map(fd):
        key, value = fd.message_type.fields_by_name["key"], fd.message_type.fields_by_name["value"]
        if value.message_type is not None:
            return None
        return st.dictionaries(_scalar(key, pools), _scalar(value, pools), max_size=3)
    if fd.message_type is not None:
        if depth >= MAX_DEPTH:
            return None
        generated = st.deferred(lambda: messages(fd.message_type, pools, depth + 1))
        single: st.SearchStrategy[Any] = pools.message(fd.name, generated)
    else:
        single = _scalar(fd, pools)
    if fd.is_repeated:
        return st.lists(single, max_size=3)
    return single


def _build(cls: Callable[[], Message], values: Mapping[str, Any]) -> Message:
    msg = cls()
    for name, value in values.items():
        fd = msg.DESCRIPTOR.fields_by_name[name]
        if _is_map(fd):
            getattr(msg, name).update(value)
        elif fd.is_repeated:
            if fd.message_type is not None:
                for item in value:
                    getattr(msg, name).add().CopyFrom(item)
            else:
                getattr(msg, name).extend(value)
        elif fd.message_type is not None:
            getattr(msg, name).CopyFrom(value)
        else:
            setattr(msg, name, value)
    return msg


def messages(descriptor: Descriptor, pools: Pools, depth: int = 0) -> st.SearchStrategy[Message]:
    """Messages of this type: any subset of its fields set (a oneof keeps the last one set)."""
    return _messages(descriptor, pools, depth)


@cache
def _messages(descriptor: Descriptor, pools: Pools, depth: int) -> st.SearchStrategy[Message]:
    cls = message_factory.GetMessageClass(descriptor)
    fields = {fd.name: s for fd in descriptor.fields if (s := _field(fd, pools, depth)) is not None}
    # Plausible messages always name what they act on (a field with a pool of real values).
    named = pools.by_field.keys() | pools.messages_by_field.keys()
    required = {n: s for n, s in fields.items() if pools.plausible and n in named and n != "page_token"}
    optional = {n: s for n, s in fields.items() if n not in required}
    return st.fixed_dictionaries(required, optional=optional).map(lambda values: _build(cls, values))
