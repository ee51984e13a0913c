"""Small helpers for copy-on-write updates of tuples inside frozen states."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A copy of `items` with position `index` set to `value`."""
    return (*items[:index], value, *items[index + 1 :])


def remove_at(items: tuple[T, ...], index: int) -> tuple[T, ...]:
    """A copy of `items` without position `index`."""
    return items[:index] + items[index + 1 :]


def remove_one(items: tuple[T, ...], value: T) -> tuple[T, ...]:
    """A copy of `items` with the first occurrence of `value` removed (ValueError if absent)."""
    i = items.index(value)
    return items[:i] + items[i + 1 :]


def insert_sorted(items: tuple[T, ...], *values: T) -> tuple[T, ...]:
    """Merge `values` into a pile kept as a sorted multiset."""
    return tuple(sorted((*items, *values)))  # type: ignore[type-var]
