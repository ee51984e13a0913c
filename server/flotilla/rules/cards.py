"""Cards (or tokens, or any ids) as multisets: what lies out of sight, and conservation checks.

Engines keep face-down piles as sorted multisets (the rules draw from them uniformly), so a
seat's world is rebuilt from its view as "the catalogue minus everything in sight"
(`unseen`), and an invariant check asks that every card of the catalogue is in exactly one
place (`check_conserved`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)


def unseen(cards: Iterable[T], seen: Iterable[T], key: Callable[[T], Any] | None = None) -> tuple[T, ...]:
    """The multiset `cards` without one copy of each in `seen`, sorted (by `key` if given)."""
    rest = (Counter(cards) - Counter(seen)).elements()
    if key is None:
        return tuple(sorted(rest))  # type: ignore[type-var]  # ids: str or another ordered type
    return tuple(sorted(rest, key=key))


def check_conserved(what: str, places: Iterable[str], expected: Sequence[str]) -> None:
    """AssertionError naming what is missing and what is extra, unless the cards found in every
    place are `expected` (a sorted list) as a multiset: each one in exactly one place."""
    found = sorted(places)
    if found != list(expected):
        have, want = Counter(found), Counter(expected)
        msg = f"{what} not conserved: missing {dict(want - have)}, extra {dict(have - want)}"
        raise AssertionError(msg)
