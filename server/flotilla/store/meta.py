"""`GameMeta`: a game's description as the store keeps it (the `Store` protocol's and RedisStore's),
and how it is read from the game's hash (`META_FIELDS`, `meta_of`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson


@dataclass(frozen=True, slots=True)
class GameMeta:
    """A game's description as stored (no state)."""

    game_id: str
    kind: str
    rules_version: str
    seat_count: int
    options: dict[str, str]
    status: str
    version: int
    created_ms: int
    to_act: list[int]
    result: dict[str, Any] | None
    seed_sha256: str = ""
    clock: dict[str, Any] | None = None
    seatclock: list[list[Any]] | None = None
    private_code: str = ""  # set for games of private rooms: spectators need it
    head: str = ""  # the lineage of the current version (app/lineage.py)


META_FIELDS = (
    b"kind",
    b"rules_version",
    b"seat_count",
    b"options",
    b"status",
    b"version",
    b"created_ms",
    b"to_act",
    b"result",
    b"seed_sha256",
    b"clock",
    b"seatclock",
    b"private_code",
    b"head",
)
"""The game hash's fields a `GameMeta` is read from, in `meta_of`'s order."""

SEATCLOCK = META_FIELDS.index(b"seatclock")  # the seat clocks as stored (the commit compares the bytes)


def meta_of(game_id: str, values: Sequence[bytes | None]) -> GameMeta | None:
    """A game's description from its hash's `META_FIELDS` values; None when the game is gone."""
    if values[0] is None:
        return None
    kind, rules_version, seat_count, options, status, version, created_ms, to_act, result, commitment, clock, seats = (
        values[:12]
    )
    code, head = values[12:14]
    return GameMeta(
        game_id=game_id,
        kind=kind.decode() if kind else "",
        rules_version=rules_version.decode() if rules_version else "",
        seat_count=int(seat_count or 0),
        options=orjson.loads(options) if options else {},
        status=status.decode() if status else "",
        version=int(version or 0),
        created_ms=int(created_ms or 0),
        to_act=orjson.loads(to_act) if to_act else [],
        result=orjson.loads(result) if result else None,
        seed_sha256=commitment.decode() if commitment else "",
        clock=orjson.loads(clock) if clock else None,
        seatclock=orjson.loads(seats) if seats else None,
        private_code=code.decode() if code else "",
        head=head.decode() if head else "",
    )
