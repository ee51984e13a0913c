"""Counter-based PRNG kept inside the game state (STYLE.md section 4).

Output i is BLAKE2b(key=seed, msg=i). Two integers of state, pure, portable across Python
versions, so a game replays bit-exactly from its seed and action log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_SEED_BYTES = 16
_MASK = (1 << 128) - 1
_WORDS = 1 << 64


@dataclass(frozen=True, slots=True)
class Rng:
    """A seed (up to 128 bits) and a counter; every call returns the advanced generator."""

    seed: int
    counter: int = 0

    def _word(self, counter: int) -> int:
        digest = hashlib.blake2b(
            counter.to_bytes(8, "big"), key=(self.seed & _MASK).to_bytes(_SEED_BYTES, "big"), digest_size=8
        ).digest()
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform int in [0, n) and the advanced generator (rejection sampling: no modulo bias)."""
        if not 1 <= n <= 1 << 64:  # above 2**64 the rejection bound would be 0: no word ever accepted
            msg = f"below() needs 1 <= n <= 2**64, got {n}"
            raise ValueError(msg)
        limit = (1 << 64) - (1 << 64) % n
        counter = self.counter
        while True:
            x = self._word(counter)
            counter += 1
            if x < limit:
                return x % n, Rng(self.seed, counter)

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one (for determinization and tests);
        `salt` in [0, 2**128)."""
        if not 0 <= salt < 1 << 128:
            msg = f"fork() needs 0 <= salt < 2**128, got {salt}"
            raise ValueError(msg)
        derived = hashlib.blake2b(
            salt.to_bytes(16, "big", signed=False),
            key=(self.seed & _MASK).to_bytes(_SEED_BYTES, "big"),
            digest_size=16,
        ).digest()
        return Rng(int.from_bytes(derived, "big"), 0)


def draw(pile: tuple[T, ...], rng: Rng) -> tuple[T, tuple[T, ...], Rng]:
    """Remove one uniformly chosen item from a pile kept as a sorted multiset."""
    i, rng = rng.below(len(pile))
    return pile[i], pile[:i] + pile[i + 1 :], rng


def draw_many(pile: tuple[T, ...], k: int, rng: Rng) -> tuple[tuple[T, ...], tuple[T, ...], Rng]:
    """Draw `k` items one after the other (draw order kept) from a sorted multiset."""
    drawn: list[T] = []
    for _ in range(k):
        item, pile, rng = draw(pile, rng)
        drawn.append(item)
    return tuple(drawn), pile, rng


def shuffled(items: Sequence[T], rng: Rng) -> tuple[tuple[T, ...], Rng]:
    """A uniformly shuffled copy of `items` (Fisher-Yates driven by `rng`).

    Exactly `rng.below(i + 1)` for i = len-1 .. 1, with the key set up once for all the words.
    """
    out = list(items)
    if len(out) < 2:
        return tuple(out), rng
    keyed = hashlib.blake2b(key=(rng.seed & _MASK).to_bytes(_SEED_BYTES, "big"), digest_size=8)
    counter = rng.counter
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _WORDS - _WORDS % n
        while True:
            word = keyed.copy()
            word.update(counter.to_bytes(8, "big"))
            x = int.from_bytes(word.digest(), "big")
            counter += 1
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return tuple(out), Rng(rng.seed, counter)
