"""Canonical text and hashed features of engine values (views, actions) for OpenSpiel observers.

Engine views are frozen dataclasses of tuples, frozensets, enums and scalars. `canonical` writes
one as a string that depends only on the value (sets sorted, never Python's `hash`, whose string
hashing differs between processes), so two views that are equal give equal strings in any process.
`encode` also turns the same walk into (bucket, amount) pairs for a fixed-size tensor: each leaf's
path (and, for text, its value) is hashed with BLAKE2b into one of `size` buckets, numbers add
their value, anything else adds 1. Generic and exact (a function of the view alone), not a
learned layout: two different views may share buckets, two equal views never differ.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
from collections.abc import Mapping
from typing import Any

_DATACLASS, _ENUM, _SET, _SEQUENCE, _MAPPING, _NUMBER, _OTHER = range(7)


@functools.cache
def _kind(cls: type) -> tuple[int, tuple[str, ...]]:
    """How values of `cls` are walked, with the field names of a dataclass."""
    if dataclasses.is_dataclass(cls):
        return _DATACLASS, tuple(f.name for f in dataclasses.fields(cls))
    if issubclass(cls, enum.Enum):
        return _ENUM, ()
    if issubclass(cls, (frozenset, set)):
        return _SET, ()
    if issubclass(cls, (tuple, list)):
        return _SEQUENCE, ()
    if issubclass(cls, Mapping):
        return _MAPPING, ()
    if issubclass(cls, (bool, int, float)):
        return _NUMBER, ()
    return _OTHER, ()


@functools.lru_cache(maxsize=1 << 16)
def _bucket(key: str, size: int) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") % size


def _walk(value: Any, path: str, size: int, out: list[tuple[int, float]] | None) -> str:
    cls: type = type(value)
    kind, names = _kind(cls)
    if kind == _DATACLASS:
        parts = [f"{name}={_walk(getattr(value, name), f'{path}.{name}', size, out)}" for name in names]
        return f"{type(value).__name__}({','.join(parts)})"
    if kind == _SET:  # order-free: a set's members share one path
        return "{" + ",".join(sorted(_walk(v, path + "{}", size, out) for v in value)) + "}"
    if kind == _SEQUENCE:
        if out is not None:
            out.append((_bucket(path + "#", size), float(len(value))))
        return "(" + ",".join(_walk(v, f"{path}[{i}]", size, out) for i, v in enumerate(value)) + ")"
    if kind == _MAPPING:
        items = [f"{canonical(k)}:{_walk(v, f'{path}[{canonical(k)}]', size, out)}" for k, v in value.items()]
        return "{" + ",".join(sorted(items)) + "}"
    text = f"{type(value).__name__}.{value.name}" if kind == _ENUM else repr(value)
    if out is not None:
        if kind == _NUMBER:
            out.append((_bucket(path, size), float(value)))
        else:
            out.append((_bucket(f"{path}={text}", size), 1.0))
    return text


def canonical(value: Any) -> str:
    """`value` as text that depends on the value only (equal values, equal strings)."""
    return _walk(value, "", 1, None)


def encode(value: Any, size: int) -> tuple[str, list[tuple[int, float]]]:
    """`canonical(value)` and (bucket, amount) pairs whose sums per bucket encode `value` in
    a vector of `size` floats."""
    out: list[tuple[int, float]] = []
    return _walk(value, "", size, out), out
