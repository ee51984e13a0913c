"""Canonical text and hashed features of engine values (views, actions) for OpenSpiel observers.

Engine views are frozen dataclasses of tuples, frozensets, enums and scalars. `canonical` writes
one as a string that depends only on the value (sets sorted, never Python's `hash`, whose string
hashing differs between processes), so two views that are equal give equal strings in any process.
`features` turns the same walk into (bucket, value) pairs for a fixed-size tensor: each leaf's
path (and, for text, its value) is hashed with BLAKE2b into one of `size` buckets, numbers add
their value, text adds 1. Generic and exact (a function of the view alone), not a learned layout.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from collections.abc import Iterator, Mapping
from typing import Any


def canonical(value: Any) -> str:
    """`value` as text that depends on the value only (equal values, equal strings)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ",".join(f"{f.name}={canonical(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__name__}({fields})"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, (frozenset, set)):
        return "{" + ",".join(sorted(canonical(v) for v in value)) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(canonical(v) for v in value) + ")"
    if isinstance(value, Mapping):
        items = sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    return repr(value)


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (frozenset, set)):
        for v in value:  # order-free: a set's members share the path
            yield from _leaves(v, f"{path}{{}}")
    elif isinstance(value, (tuple, list)):
        yield f"{path}#", len(value)
        for i, v in enumerate(value):
            yield from _leaves(v, f"{path}[{i}]")
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaves(v, f"{path}[{canonical(k)}]")
    else:
        yield path, value


def _bucket(key: str, size: int) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") % size


def features(value: Any, size: int) -> Iterator[tuple[int, float]]:
    """(bucket, amount) pairs whose sums per bucket encode `value` in a vector of `size` floats."""
    for path, leaf in _leaves(value, ""):
        if isinstance(leaf, bool):
            yield _bucket(path, size), float(leaf)
        elif isinstance(leaf, (int, float)):
            yield _bucket(path, size), float(leaf)
        elif leaf is None:
            yield _bucket(f"{path}=None", size), 1.0
        else:
            yield _bucket(f"{path}={canonical(leaf)}", size), 1.0
