"""Games and commits written through the store's public methods only, for the contract suite.

The store does not read a game's state, events or prompts: the values here are small stand-ins in
the records' formats (records.py). A game's versions are its last event ids; the game made by
`new_game` is at `FIRST`, and `lineage(v)` is the lineage token of the commit that made version v.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from redis.crc import key_slot

from flotilla.records import EventRow, OutcomeRecord, action_record, dump_rows
from flotilla.store.commit_script import CommitRequest
from flotilla.store.redis_store import RedisStore

FIRST = 1
KIND = "counter"


def lineage(version: int) -> str:
    """The lineage token of the commit that made `version` ("" for the game's first entry)."""
    return "" if version == FIRST else f"l{version}"


def rows(first: int, last: int) -> list[EventRow]:
    """Event rows with ids first..last."""
    return [EventRow(i, 1000 + i, "r", {"n": i}) for i in range(first, last + 1)]


async def new_game(
    store: RedisStore, game_id: str, *, seats: int = 2, seated: Sequence[tuple[str, str]] = ()
) -> bool | None:
    """Create a game at version `FIRST` with its seats open (or taken by `seated`)."""
    return await store.create_game(
        game_id,
        kind=KIND,
        rules_version="1",
        seat_count=seats,
        options={"moves": "9"},
        created_ms=1_700_000_000_000,
        version=FIRST,
        state=b"state-1",
        events=dump_rows(rows(FIRST, FIRST)),
        prompts=b'{"0": [1]}',
        to_act=b"[0]",
        seed_sha256="ab" * 32,
        seated=seated,
    )


async def fill(store: RedisStore, game_id: str, seats: int = 2) -> None:
    """Every seat taken: the game starts."""
    for seat in range(seats):
        taken, _started = await store.join(game_id, f"u{seat}", f"player {seat}", seat)
        assert taken == seat


def outcome(version: int) -> bytes:
    """The accepted outcome of the commit that made `version`."""
    return OutcomeRecord(ok=True, version=version, lineage=lineage(version)).dumps()


def step(
    store: RedisStore,
    game_id: str,
    *,
    at: int,
    add: int = 1,
    request_id: str,
    seat: int = 0,
    status: str = "",
    retain_s: int = 0,
    on_lineage: str | None = None,
    **settle: Any,
) -> CommitRequest:
    """A commit from version `at` (of lineage `on_lineage`, else `lineage(at)`) adding `add` events
    (ids at+1..at+add), for `seat`'s `request_id`; `settle`: commit_args' ack and answer_to (used
    only where the store `settles_work`)."""
    version = at + add
    return store.commit_args(
        game_id,
        seat,
        request_id,
        expected=at,
        version=version,
        state=f"state-{version}".encode(),
        events=dump_rows(rows(at + 1, version)),
        prompts=b'{"1": [1]}',
        to_act=b"[1]",
        status=status,
        result=orjson.dumps({"winners": [seat]}) if status == "finished" else b"",
        record=action_record(seat, b'{"n": 1}', version, request_id=request_id),
        outcome=outcome(version),
        retain_s=retain_s,
        expected_lineage=lineage(at) if on_lineage is None else on_lineage,
        lineage=lineage(version),
        **settle,
    )


async def game_keys_in_redis(probe: Any, game_id: str) -> dict[str, int]:
    """Every key whose name holds `game_id`, on every node, with its PTTL (-1: none)."""
    found = [key.decode() async for key in probe.scan_iter(match=f"*{game_id}*", count=1000)]
    return {key: int(await probe.pttl(key)) for key in found}


def slots(names: Sequence[str]) -> set[int]:
    """The cluster slots of these keys (by their hash tags)."""
    return {key_slot(name.encode()) for name in names}
