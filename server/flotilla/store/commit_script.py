"""The commit script's interface, declared once: its KEYS, its ARGV in order, and its result codes.

`store/scripts/commit_transition.lua` opens with a header and a prelude generated from these
declarations (`lua_prelude()`): the prelude names each KEYS and ARGV slot, and the script's body
uses only those names. `tests/records/test_commit_script.py` fails when the script's opening and
the declarations differ, so a slot cannot move in one place only. Changing a slot: edit the
dataclass here, then write `lua_prelude()` over the script's opening (the test prints it).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any


def _doc(text: str) -> Any:
    """A field with no default whose description goes into the script's header."""
    return field(metadata={"doc": text})


class CommitCode(enum.IntEnum):
    """The first element of the script's reply; `CODE_DOCS` says what the second is."""

    COMMITTED = 1
    ALREADY_APPLIED = 0
    MOVED = -1


CODE_DOCS = {
    CommitCode.COMMITTED: "committed; value: the game's status after it",
    CommitCode.ALREADY_APPLIED: "this request id was applied before; value: its outcome (nothing written)",
    CommitCode.MOVED: "the game moved; value: its current version or '' (nothing written: reload, retry)",
}


@dataclass(frozen=True, slots=True)
class CommitKeys:
    """The script's KEYS, in order (every one in the game's slot, except on a single Redis the last two)."""

    game: str = _doc("flotilla:game:{g} (hash: version, state, status, to_act, result, head, seatclock)")
    events: str = _doc("flotilla:game:{g}:events (stream; entry id 0-<new version>; records.Entry)")
    actions: str = _doc("flotilla:game:{g}:actions (list: the replay log; records.action_record)")
    reply: str = _doc("flotilla:game:{g}:req:<seat>:{r} (the cached outcome of this seat's request id)")
    seats: str = _doc("flotilla:game:{g}:seats (expired with the game)")
    work_stream: str = _doc("the work stream to acknowledge the work on (the game key when ack is '0')")
    inbox: str = _doc("the gateway inbox to answer (the game key when answer is '0')")


@dataclass(frozen=True, slots=True)
class CommitArgs:
    """The script's ARGV, in order (`RedisStore.commit_args` fills them)."""

    expected_version: int = _doc("the version the game must be at")
    version: int = _doc("the new version (its last event id)")
    state: bytes = _doc("the new state (GameHost.dumps)")
    events: bytes = _doc("the event rows (JSON; field e of the entry)")
    prompts: bytes = _doc("the prompts by seat (JSON, records.prompts_plain; field p)")
    to_act: bytes = _doc("the seats to act (JSON; field a)")
    status: str = _doc("the new status, or '' to keep it")
    result: bytes = _doc("the result (JSON), or ''")
    record: bytes = _doc("the action record to append to the replay log, or ''")
    outcome: bytes = _doc("the request's outcome (records.OutcomeRecord)")
    outcome_ttl_s: int = _doc("seconds to keep the outcome")
    seatclock: bytes = _doc("the seat clocks (JSON, app/clocks.py), or '' to keep them")
    retain_s: int = _doc("seconds to keep a game this commit ends (0: forever)")
    expected_lineage: str = _doc("the game's head ('' before lineages); field ph of the entry")
    lineage: str = _doc("this commit's lineage (app/lineage.py): the new head, field h")
    seat: int = _doc("the seat whose action this is (field s; the inbox reply's s)")
    request_id: str = _doc("its request id (field r; the inbox reply's r)")
    compare_clocks: str = _doc("'1' to compare status and seat clocks too (joins, clock starts)")
    expected_status: str = _doc("the status the game must have (with compare_clocks)")
    expected_seatclock: bytes = _doc("the seat clocks the game must have (with compare_clocks)")
    ack: str = _doc("'1' to XACK and XDEL the work entry (single Redis only)")
    group: str = _doc("the work stream's consumer group")
    entry_id: bytes = _doc("the work entry's id")
    answer: str = _doc("'1' answer the inbox (records.InboxReply), '2' only a request applied before")
    game_id: str = _doc("the game id (the inbox reply's g)")


@dataclass(frozen=True, slots=True)
class CommitRequest:
    """One run of the commit script."""

    keys: CommitKeys
    args: CommitArgs

    def keys_list(self) -> list[str]:
        """KEYS, in the declared order."""
        return _in_order(self.keys)

    def argv(self) -> list[Any]:
        """ARGV, in the declared order."""
        return _in_order(self.args)


def _in_order(slots: CommitKeys | CommitArgs) -> list[Any]:
    return [getattr(slots, f.name) for f in dataclasses.fields(slots)]


@dataclass(frozen=True, slots=True)
class Committed:
    """What the commit script did (`code`), and what it answered for that code."""

    code: CommitCode
    outcome: bytes | None = None  # ALREADY_APPLIED
    current_version: int | None = None  # MOVED
    status: str = ""  # COMMITTED
    durable: bool = True  # False: committed, but not on the replicas asked for within the timeout

    @classmethod
    def decode(cls, reply: Any, durable: bool) -> Committed:
        """The script's reply `[code, value]` as redis-py returns it."""
        code = CommitCode(int(reply[0]))
        if code is CommitCode.COMMITTED:
            return cls(code, status=(reply[1] or b"").decode(), durable=durable)
        if code is CommitCode.ALREADY_APPLIED:
            return cls(code, outcome=reply[1])
        return cls(code, current_version=int(reply[1] or 0))


def lua_prelude() -> str:
    """The opening `commit_transition.lua` must have: a header naming every slot and result
    code, then one local per slot (the body uses these names, never KEYS[n] or ARGV[n])."""
    lines = [
        "-- Commit one transition if the game is still at the expected version (and clocks and status).",
        "-- GENERATED from flotilla/store/commit_script.py (lua_prelude); the test checks it.",
    ]
    for array, cls in (("KEYS", CommitKeys), ("ARGV", CommitArgs)):
        for i, f in enumerate(dataclasses.fields(cls), start=1):
            lines.append(f"-- {array}[{i}] {f.name}: {f.metadata['doc']}")
    lines.append("-- Returns {code, value}:")
    for code in CommitCode:
        lines.append(f"--   {code.value:>2} {code.name}: {CODE_DOCS[code]}")
    for array, cls in (("KEYS", CommitKeys), ("ARGV", CommitArgs)):
        prefix = "k_" if array == "KEYS" else ""
        for i, f in enumerate(dataclasses.fields(cls), start=1):
            lines.append(f"local {prefix}{f.name} = {array}[{i}]")
    return "\n".join(lines) + "\n"
