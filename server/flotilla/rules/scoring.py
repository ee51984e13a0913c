"""Helpers for final results shared by every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flotilla.rules.types import Result, Seat


def ranked_result(scores: Sequence[int], keys: Sequence[tuple[Any, ...]]) -> Result:
    """A `Result` whose ranks follow `keys` (higher is better); equal keys share a rank.

    `keys[i]` is the full tie-break key of seat i, e.g. (score, ships, money). Every seat
    with the best key wins, so a tie on every criterion is a shared victory.
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    winners = frozenset(Seat(i) for i in range(len(keys)) if ranks[i] == 1)
    return Result(scores=tuple(scores), winners=winners, ranks=tuple(ranks))
