"""`Store`: what the app layer (app/games.py, app/inbox.py, lobby/ratings.py, and the watcher's
history pages) needs from the game store. `RedisStore` is the one implementation; mypy checks it
against this protocol (`_IMPLEMENTS` at the end of store/redis_store.py: this module imports no
implementation), and the app layer is typed against the protocol, so a
method the app starts using must be named here first.

The worker's commit path (prefetch, commit_many, work streams, timers) is not here: the worker is
an edge process and works on `RedisStore` itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from flotilla.records import ActionRecord
from flotilla.store.limits_store import Bucket
from flotilla.store.meta import GameMeta


class Store(Protocol):
    """Games, their seats and history, the work queue and the gateways' inboxes."""

    @property
    def wait_replicas(self) -> int:
        """How many replicas a commit waits for (0: none); then only a worker's reply is final."""
        ...

    # --- games -------------------------------------------------------------------------
    async def create_game(
        self,
        game_id: str,
        *,
        kind: str,
        rules_version: str,
        seat_count: int,
        options: Mapping[str, str],
        created_ms: int,
        version: int,
        state: bytes,
        events: bytes,
        prompts: bytes,
        to_act: bytes,
        seed_sha256: str,
        clock: bytes = b"",
        seatclock: bytes = b"",
        private_code: str = "",
        lineage: str = "",
        seated: Sequence[tuple[str, str]] = (),
    ) -> bool | None:
        """Store a new game (False: that id exists already; None: with other holders than `seated`,
        every seat's (user, name): the game starts with them seated, reserved for them)."""
        ...

    async def game_meta(self, game_id: str) -> GameMeta | None:
        """The game's description, None if there is no such game."""
        ...

    async def metas(self, game_ids: Sequence[str]) -> list[GameMeta | None]:
        """The descriptions of several games, in order."""
        ...

    async def load(self, game_id: str) -> tuple[GameMeta, bytes] | None:
        """The game's description and state snapshot, read together."""
        ...

    async def list_games(self, kind: str, before: int | None, count: int) -> list[tuple[str, int]]:
        """(game id, listing score) of listed games, newest first, below `before`."""
        ...

    async def expires_in_ms(self, game_id: str, margin_ms: int) -> int:
        """How long the game's keys still live."""
        ...

    # --- seats and history -------------------------------------------------------------
    async def join(self, game_id: str, user: str, name: str, seat: int | None, kind: str = "") -> tuple[int, bool]:
        """Take a seat (the given one, or the first free): (seat, whether the game started); a
        negative seat is a refusal (see RedisStore.join)."""
        ...

    async def seats(self, game_id: str) -> dict[int, dict[str, str]]:
        """Who holds each seat."""
        ...

    async def actions_log(self, game_id: str) -> list[ActionRecord]:
        """The game's action records, in order (for its game record)."""
        ...

    async def outcomes(self, game_id: str, seat: int, request_ids: Sequence[str]) -> list[bytes | None]:
        """The recorded outcomes of a seat's request ids (None where there is none yet)."""
        ...

    async def entry_fields_from(self, game_id: str, version: int, count: int) -> list[Mapping[bytes, bytes]]:
        """Up to `count` raw history entries from `version` on."""
        ...

    async def confirm_heads(self, heads: Mapping[str, tuple[int, str]]) -> set[str]:
        """The games among `heads` (game -> version, lineage) whose commit there is on `wait_replicas` replicas."""
        ...

    # --- work queue, turn clocks and inboxes -------------------------------------------
    async def enqueue(
        self, stream: str, fields: Mapping[str, bytes | str | int], gate: Sequence[Bucket] = ()
    ) -> tuple[int, int] | None:
        """Queue a work item for the workers, after the rate-limit `gate` (its refusal, or None)."""
        ...

    async def wake(self, wakeups: Mapping[str, int]) -> None:
        """Schedule the turn clocks of these games (game id -> when, ms)."""
        ...

    async def keep_inbox(self, inbox: str, ttl_ms: int) -> bool:
        """Keep a gateway's inbox alive (False: it had vanished and was made anew)."""
        ...

    async def read_inbox(
        self, inbox: str, after: str, block_ms: int, *, trim: bool = False
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        """Outcomes addressed to this inbox after `after`, waiting up to `block_ms`."""
        ...

    async def drop_inbox(self, inbox: str) -> None:
        """Delete a gateway's inbox (it stops)."""
        ...
