"""create_game.lua's interface, declared once: its KEYS, its ARGV in order, and its result codes
(the machinery is store/script_slots.py's; `GameRecords.create_game` fills them).

`store/scripts/create_game.lua` opens with the header and prelude `lua_prelude()` writes;
tests/records/test_script_slots.py fails when they differ. Changing a slot: edit the dataclass
here, then write `lua_prelude()` over the script's opening (the test prints it).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from flotilla.store.script_slots import in_order, prelude, slot


class CreateCode(enum.IntEnum):
    """The script's reply."""

    CREATED = 1
    EXISTS = 0
    HELD_BY_OTHERS = -1


CODE_DOCS = {
    CreateCode.CREATED: "created",
    CreateCode.EXISTS: "the game already exists (with these holders, if given): nothing written",
    CreateCode.HELD_BY_OTHERS: "it exists with other holders: nothing written",
}


@dataclass(frozen=True, slots=True)
class CreateKeys:
    """The script's KEYS, in order (all in the game's slot)."""

    game: str = slot("flotilla:game:{g} (hash)")
    events: str = slot("flotilla:game:{g}:events (stream; its first entry, records.Entry)")
    seats: str = slot("flotilla:game:{g}:seats (hash: seat -> holder)")


@dataclass(frozen=True, slots=True)
class CreateArgs:
    """The script's ARGV, in order."""

    version: int = slot("the first entry's version (its last event id)")
    state: bytes = slot("the initial state (GameHost.dumps)")
    events: bytes = slot("the event rows (JSON; field e of the entry)")
    prompts: bytes = slot("the prompts by seat (JSON; field p)")
    to_act: bytes = slot("the seats to act (JSON; field a)")
    kind: str = slot("the game kind")
    rules_version: str = slot("the rules version")
    seat_count: int = slot("the number of seats")
    options: bytes = slot("the options (JSON)")
    created_ms: int = slot("when it was created (ms)")
    seed_sha256: str = slot("the seed commitment")
    clock: bytes = slot("the clock config (JSON), or ''")
    seatclock: bytes = slot("the seat clocks (JSON, app/clocks.py), or ''")
    private_code: str = slot("the join code of a private game, or ''")
    lineage: str = slot("the first entry's lineage (app/lineage.py): the head, field h")
    unstarted_ttl_s: int = slot(
        "seconds the game lives unless every seat is taken (join_seat.lua drops the TTL); 0: none"
    )
    holders: bytes | str = slot(
        "'' (open seats), or every seat's holder, a JSON array of {user, name, kind} in seat order: the game "
        "starts with them seated, in this one step, and is reserved (join_seat.lua lets nobody else in)"
    )


def create_call(keys: CreateKeys, args: CreateArgs) -> dict[str, list[Any]]:
    """The script's call arguments (`keys=`, `args=`), in the declared order."""
    return {"keys": in_order(keys), "args": in_order(args)}


def lua_prelude() -> str:
    """The opening `create_game.lua` must have (see `script_slots.prelude`)."""
    return prelude(
        "Create a game with its initial state and first stream entry (once: an existing id is left alone).",
        "create_script.py (lua_prelude)",
        CreateKeys,
        CreateArgs,
        CODE_DOCS,
        "Returns:",
    )
