"""Counter games and work messages written straight to Redis, for worker tests."""

from __future__ import annotations

import time

import orjson

from flotilla.app.host import Step, host_for
from flotilla.games.counter import Add
from flotilla.records import WorkItem, dump_rows
from flotilla.store.redis_store import RedisStore


async def new_counter_game(
    store: RedisStore,
    game_id: str,
    options: dict[str, str] | None = None,
    *,
    clock: bytes = b"",
    seatclock: bytes = b"",
    lineage: str = "",
) -> Step:
    """A counter game stored as `Games.create` would, both seats taken (no unstarted-game TTL)."""
    host = host_for("counter")
    now = int(time.time() * 1000)
    step = host.start(host.config(2, options or {}), 12345, options or {}, now)
    await store.create_game(
        game_id,
        kind="counter",
        rules_version=host.rules.version,
        seat_count=2,
        options=options or {},
        created_ms=now,
        version=step.version,
        state=host.dumps(step.state),
        events=dump_rows(step.events),
        prompts=orjson.dumps(step.prompts),
        to_act=orjson.dumps(step.to_act),
        seed_sha256="",
        clock=clock,
        seatclock=seatclock,
        lineage=lineage,
    )
    for seat in range(2):
        await store.join(game_id, f"user{seat}", f"player {seat}", seat)
    return step


def work(game_id: str, seat: int, n: int, request_id: str, inbox: str) -> dict[str, bytes | str | int]:
    """A work item's stream fields, as a gateway writes them (records.WorkItem)."""
    return WorkItem(game_id, seat, request_id, action=host_for("counter").dumps(Add(n)), inbox=inbox).fields()
