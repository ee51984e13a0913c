"""The commit script's interface, declared once: its KEYS, its ARGV in order, and its result codes.

A worker runs the script as `batch_source()` makes it: the file's text as a function of one
commit's KEYS and ARGV, called for each commit of one script call in order (a round's commits in
one call: one script run in Redis per round, not per move).

`store/scripts/commit_transition.lua` opens with a header and a prelude generated from these
declarations (`lua_prelude()`): the prelude names each KEYS and ARGV slot, and the script's body
uses only those names. `tests/records/test_script_slots.py` fails when the script's opening and
the declarations differ, so a slot cannot move in one place only. Changing a slot: edit the
dataclass here, then write `lua_prelude()` over the script's opening (the test prints it). The
machinery (`slot`, `prelude`) is store/script_slots.py's.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from flotilla.store.script_slots import in_order, prelude, slot


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

    game: str = slot("flotilla:game:{g} (hash: version, state, status, to_act, result, head, seatclock)")
    events: str = slot("flotilla:game:{g}:events (stream; entry id 0-<new version>; records.Entry)")
    actions: str = slot("flotilla:game:{g}:actions (list: the replay log; records.action_record)")
    reply: str = slot("flotilla:game:{g}:req:<seat>:{r} (the cached outcome of this seat's request id)")
    seats: str = slot("flotilla:game:{g}:seats (expired with the game)")
    work_stream: str = slot("the work stream to acknowledge the work on (the game key when ack is '0')")
    inbox: str = slot("the gateway inbox to answer (the game key when answer is '0')")


@dataclass(frozen=True, slots=True)
class CommitArgs:
    """The script's ARGV, in order (`RedisStore.commit_args` fills them)."""

    expected_version: int = slot("the version the game must be at")
    version: int = slot("the new version (its last event id)")
    state: bytes = slot("the new state (GameHost.dumps)")
    events: bytes = slot("the event rows (JSON; field e of the entry)")
    prompts: bytes = slot("the prompts by seat (JSON, records.prompts_plain; field p)")
    to_act: bytes = slot("the seats to act (JSON; field a)")
    status: str = slot("the new status, or '' to keep it")
    result: bytes = slot("the result (JSON), or ''")
    record: bytes = slot("the action record to append to the replay log, or ''")
    outcome: bytes = slot("the request's outcome (records.OutcomeRecord)")
    outcome_ttl_s: int = slot("seconds to keep the outcome")
    seatclock: bytes = slot("the seat clocks (JSON, app/clocks.py), or '' to keep them")
    retain_s: int = slot("seconds to keep a game this commit ends (0: forever)")
    expected_lineage: str = slot("the game's head ('' before lineages); field ph of the entry")
    lineage: str = slot("this commit's lineage (app/lineage.py): the new head, field h")
    seat: int = slot("the seat whose action this is (field s; the inbox reply's s)")
    request_id: str = slot("its request id (field r; the inbox reply's r)")
    compare_clocks: str = slot("'1' to compare status and seat clocks too (joins, clock starts)")
    expected_status: str = slot("the status the game must have (with compare_clocks)")
    expected_seatclock: bytes = slot("the seat clocks the game must have (with compare_clocks)")
    ack: str = slot("'1' to XACK and XDEL the work entry (single Redis only)")
    group: str = slot("the work stream's consumer group")
    entry_id: bytes = slot("the work entry's id")
    answer: str = slot("'1' answer the inbox (records.InboxReply), '2' only a request applied before")
    game_id: str = slot("the game id (the inbox reply's g)")


@dataclass(frozen=True, slots=True)
class CommitRequest:
    """One run of the commit script."""

    keys: CommitKeys
    args: CommitArgs

    def keys_list(self) -> list[str]:
        """KEYS, in the declared order."""
        return in_order(self.keys)

    def argv(self) -> list[Any]:
        """ARGV, in the declared order."""
        return in_order(self.args)


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


BATCH_MAX = 64
"""At most this many commits in one script call (Redis runs a call alone: others wait for it)."""


def batch_source(body: str) -> str:
    """The script a worker calls: `body` (commit_transition.lua) as a function whose parameters
    KEYS and ARGV are one commit's slots, run for each commit of the call (their KEYS, then their
    ARGV, each in the declared order); it returns the list of their replies, in order."""
    nkeys, nargs = len(dataclasses.fields(CommitKeys)), len(dataclasses.fields(CommitArgs))
    return (
        "local function commit(KEYS, ARGV)\n"
        f"{body}"
        "end\n"
        "local replies = {}\n"
        f"for i = 0, #ARGV / {nargs} - 1 do\n"
        f"  local keys = {{unpack(KEYS, i * {nkeys} + 1, (i + 1) * {nkeys})}}\n"
        f"  replies[i + 1] = commit(keys, {{unpack(ARGV, i * {nargs} + 1, (i + 1) * {nargs})}})\n"
        "end\n"
        "return replies\n"
    )


def lua_prelude() -> str:
    """The opening `commit_transition.lua` must have: a header naming every slot and result
    code, then one local per slot (the body uses these names, never KEYS[n] or ARGV[n])."""
    return prelude(
        "Commit one transition if the game is still at the expected version (and clocks and status).",
        "commit_script.py (lua_prelude)",
        CommitKeys,
        CommitArgs,
        CODE_DOCS,
        "Returns {code, value}:",
    )
