"""Lossless conversion between rules values and plain JSON-able data.

States, actions, events and views are frozen dataclasses, enums, tuples, frozensets and
scalars. `Codec` turns them into nested lists/dicts of scalars and back, with a type tag per
dataclass or enum. Only the types reachable from the roots it was built with can be
decoded (a whitelist), so stored data can never instantiate anything else.

Encoding: tuple -> list; frozenset -> {"~fs": [...]}; dataclass -> {"Tag": [fields...]};
enum -> {"Tag": value}; an int outside 64 bits -> {"~big": "digits"} (so any JSON or
MessagePack library can carry it); None/bool/int/str/float as they are.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, Union

from flotilla.rules.evolve import field_stores

_FROZENSET = "~fs"
_BIGINT = "~big"
_SCALARS = (str, float, bool, type(None))
_INT64 = 1 << 63


def _walk_hint(hint: Any, found: list[type]) -> None:
    if hint is None or hint is type(None):
        return
    supertype = getattr(hint, "__supertype__", None)  # typing.NewType
    if supertype is not None:
        _walk_hint(supertype, found)
        return
    origin = typing.get_origin(hint)
    if origin is not None or isinstance(hint, types.UnionType):
        for arg in typing.get_args(hint):
            if arg is not Ellipsis:
                _walk_hint(arg, found)
        return
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or issubclass(hint, enum.Enum)):
        if hint in found:
            return
        found.append(hint)
        if dataclasses.is_dataclass(hint):
            for sub in typing.get_type_hints(hint).values():
                _walk_hint(sub, found)


def reachable_types(*roots: Any) -> tuple[type, ...]:
    """Every dataclass and enum type reachable from `roots` through type hints."""
    found: list[type] = []
    for root in roots:
        _walk_hint(root, found)
    return tuple(found)


def union_members(union: Any) -> tuple[type, ...]:
    """The member types of a union type alias (`A | B | C`), or the type itself."""
    if typing.get_origin(union) is Union or isinstance(union, types.UnionType):
        return tuple(typing.get_args(union))
    return (union,)


def _same(value: Any) -> Any:
    return value


def _encode_int(value: int) -> Any:
    return value if -_INT64 <= value < _INT64 else {_BIGINT: str(value)}


def _encode_int_subclass(value: int) -> int:  # IntEnum-free int subclasses (NewType is plain int)
    return int(value)


class _Encoders(dict[type, Callable[[Any], Any]]):
    """The encoder of each type, looked up by exact type: one generated function per dataclass (its
    fields read and encoded in order, like `evolve`'s copiers, from field names that are identifiers)."""

    def __init__(self, tags: dict[type, str], fields: dict[type, tuple[str, ...]]) -> None:
        super().__init__()
        self[int] = _encode_int
        for scalar in _SCALARS:
            self[scalar] = _same
        self[tuple] = self[list] = self._encode_tuple
        self[frozenset] = self._encode_frozenset
        for cls, tag in tags.items():
            names = fields.get(cls)
            self[cls] = self._enum_encoder(tag) if names is None else self._dataclass_encoder(tag, names)

    def __missing__(self, cls: type) -> Callable[[Any], Any]:
        if issubclass(cls, int):
            self[cls] = _encode_int_subclass
            return _encode_int_subclass
        msg = f"cannot encode a {cls.__qualname__}; is it reachable from the codec's roots?"
        raise TypeError(msg)

    @staticmethod
    def _enum_encoder(tag: str) -> Callable[[Any], Any]:
        return lambda value: {tag: value.value}

    def _dataclass_encoder(self, tag: str, names: tuple[str, ...]) -> Callable[[Any], Any]:
        reads = "".join(f"    f{i} = value.{name}\n" for i, name in enumerate(names))
        items = ", ".join(f"enc[type(f{i})](f{i})" for i in range(len(names)))
        source = f"def encode(value):\n{reads}    return {{tag: [{items}]}}\n"
        scope: dict[str, Any] = {"enc": self, "tag": tag}
        exec(source, scope)
        encoder: Callable[[Any], Any] = scope["encode"]
        return encoder

    def _encode_tuple(self, value: Iterable[Any]) -> list[Any]:
        return [self[type(v)](v) for v in value]

    def _encode_frozenset(self, value: frozenset[Any]) -> dict[str, Any]:
        items = [self[type(v)](v) for v in value]
        try:
            items.sort()
        except TypeError:
            items.sort(key=repr)
        return {_FROZENSET: items}


class Codec:
    """Encode and decode values of a closed set of dataclass and enum types."""

    def __init__(self, *roots: Any) -> None:
        self._by_tag: dict[str, type] = {}
        self._fields: dict[type, tuple[str, ...]] = {}
        self._tags: dict[type, str] = {}
        for cls in reachable_types(*roots):
            tag = cls.__qualname__
            if tag in self._by_tag and self._by_tag[tag] is not cls:
                msg = f"two types share the codec tag {tag!r}: {self._by_tag[tag]} and {cls}"
                raise TypeError(msg)
            self._by_tag[tag] = cls
            self._tags[cls] = tag
            if dataclasses.is_dataclass(cls):
                self._fields[cls] = tuple(f.name for f in dataclasses.fields(cls))
        self._encoders = _Encoders(self._tags, self._fields)
        self._decoders = {tag: self._decoder(tag, cls) for tag, cls in self._by_tag.items()}

    def _decoder(self, tag: str, cls: type) -> Callable[[Any], Any]:
        """The decoder of one tag's body: an enum's value, or a dataclass's fields in order, each
        decoded and stored as `from_plain` always did (through `object.__setattr__`, or its slot's
        descriptor, which is what that call does for a slotted field); generated like the encoders."""
        fields = self._fields.get(cls)
        if fields is None:
            return cls
        scope: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls, "dec": self.from_plain}
        lines = field_stores(cls, fields, "obj", "dec(body[{i}])", scope)
        message = f"{tag} has {len(fields)} fields, got "
        scope["_wrong_length"] = lambda body: ValueError(message + str(len(body)))
        source = (
            f"def decode(body):\n    if len(body) != {len(fields)}:\n        raise _wrong_length(body)\n"
            "    obj = _new(cls)\n" + "".join(lines) + "    return obj\n"
        )
        exec(source, scope)
        decoder: Callable[[Any], Any] = scope["decode"]
        return decoder

    @property
    def types(self) -> tuple[type, ...]:
        """The types this codec knows."""
        return tuple(self._tags)

    def to_plain(self, value: Any) -> Any:
        """`value` as nested lists, dicts and scalars."""
        return self._encoders[type(value)](value)

    def from_plain(self, data: Any) -> Any:
        """The value `to_plain` was given."""
        if isinstance(data, list):
            return tuple([self.from_plain(v) for v in data])
        if isinstance(data, dict):
            ((tag, body),) = data.items()
            decoder = self._decoders.get(tag)
            if decoder is not None:
                return decoder(body)
            if tag == _FROZENSET:
                return frozenset([self.from_plain(v) for v in body])
            if tag == _BIGINT:
                return int(body)
            msg = f"unknown type tag {tag!r}"
            raise ValueError(msg)
        return data
