"""`GameMeta`: a game's description as the store keeps it (the `Store` protocol's and RedisStore's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
