"""Every record that crosses a process boundary, with its one encoder and decoder.

Gateways, workers and matchmakers exchange these through Redis; nothing else builds or
parses them (the commit script, `store/scripts/commit_transition.lua`, writes the event
stream entry; its field names are declared here, in `FIELDS`). Read a record by name, never
by position. Declared elsewhere: the commit script's own arguments and result
(`store/commit_script.py`), the host events' payloads (`app/host_events.py`), seat clocks
(`app/clocks.SeatClock`, `dumps`). Short field names keep the hot path's Redis traffic small;
the tables below say what each one is. Adding a field: give it a default and make the decoder
accept its absence, so entries written by the previous release (still queued during a rolling
deploy) keep decoding. Renaming one: see `LEGACY`.

| record        | where it lives                      | written by          | read by            |
|---------------|-------------------------------------|---------------------|--------------------|
| WorkItem      | work stream `flotilla:work:...`     | gateway             | worker             |
| InboxReply    | gateway inbox stream                | worker              | gateway            |
| OutcomeRecord | inside InboxReply, `req:` keys      | worker              | gateway, worker    |
| Entry         | game event stream (one per commit)  | commit script       | gateway, worker    |
| EventRow      | inside Entry, OutcomeRecord         | worker (app/host)   | gateway            |
| action record | game action list (the replay log)   | worker              | gateway (records)  |
| BotSeat       | bot-seat stream                     | lobby, matchmaker   | matchmaker workers |
| RoomRow       | room hash, room change stream       | lobby               | gateway, matchmaker|
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

Fields = Mapping[bytes, bytes]  # a stream entry's fields as redis-py returns them

FIELDS: dict[str, dict[str, str]] = {
    "WorkItem": {"g": "game id", "s": "seat", "r": "request id", "a": "action", "t": "etag", "i": "inbox"}
    | {"k": "kind", "f": "follows the feed"},
    "InboxReply": {"g": "game id", "s": "seat", "r": "request id", "o": "outcome"},
    "OutcomeRecord": {"ok": "accepted", "v": "version", "e": "event rows", "h": "lineage", "why": "reason"}
    | {"m": "message", "d": "error metadata"},
    "Entry": {"v": "version", "e": "event rows", "p": "prompts", "a": "seats to act", "h": "lineage"}
    | {"ph": "previous lineage", "s": "seat", "r": "request id"},
    "BotSeat": {"g": "game id", "s": "seat", "u": "user", "n": "name", "p": "policy", "d": "difficulty"},
    "finished": {"g": "game id"},
}
"""Every record's field names and what each means (tests/records/test_records.py holds the
encoders to it, and a name to one meaning across records, but for `STILL_REUSED`)."""

LEGACY: dict[tuple[str, str], str] = {("WorkItem", "e"): "t", ("OutcomeRecord", "r"): "why"}
"""Names a record had before issue 25, written beside the new one for the previous release's
readers and read when the new one is absent. The release after the next stops writing them."""

STILL_REUSED = {"a", "p", "d"}
"""Names that still mean one thing in one record and another in another (a action / seats to act,
p prompts / policy, d error metadata / difficulty): `Entry`'s are in every stored game, so a
rename must keep reading the old name for good; not done yet (issue 25)."""

# --- user kinds: stored with a user's record, room seats and game seats ---------------------
# The API's UserKind (identity/principal.py re-exports them; server bots are told by their user id,
# lobby/rooms.py `is_bot`).
ACCOUNT = "account"  # the operator's identity provider
GUEST = "guest"  # SignInAsGuest
BOT_ACCOUNT = "bot"  # an API key's

# --- work items: gateway -> worker ----------------------------------------------------------
ACT = "act"
LEAVE = "leave"
CLOCK = "clock"


@dataclass(slots=True)
class WorkItem:
    """One thing to do to a game: a submitted action, a seat leaving, or (worker-made) a clock.

    Fields on the stream: g game id, s seat, r request id, a action (codec plain JSON), t etag
    ("" for none), i the inbox to answer, k kind ("act" when absent), f "1" when the gateway
    follows the game's feed and takes an accepted outcome from the committed entry itself
    (no inbox reply then). The etag was field e before issue 25 (e is the event rows elsewhere):
    it is still written as e too, for workers of the previous release, and read from e when t
    is absent (`LEGACY`).
    """

    game_id: str
    seat: int
    request_id: str
    action: bytes = b""
    etag: str = ""
    inbox: str = ""
    kind: str = ACT
    follows: bool = False

    def fields(self) -> dict[str, bytes | str | int]:
        """The stream entry's fields."""
        out: dict[str, bytes | str | int] = {"g": self.game_id, "s": self.seat, "r": self.request_id}
        if self.kind == ACT:
            out["a"] = self.action
            out["t"] = out["e"] = self.etag
        else:
            out["k"] = self.kind
        if self.inbox:
            out["i"] = self.inbox
        if self.follows:
            out["f"] = 1
        return out

    @staticmethod
    def decode_fields(fields: Fields) -> dict[str, Any]:
        """The constructor arguments of a stream entry; KeyError/ValueError/UnicodeDecodeError if malformed."""
        return {
            "game_id": fields[b"g"].decode(),
            "seat": int(fields[b"s"]),
            "request_id": fields[b"r"].decode(),
            "action": fields.get(b"a", b""),
            "etag": fields.get(b"t", fields.get(b"e", b"")).decode(),
            "inbox": fields[b"i"].decode(),
            "kind": fields.get(b"k", b"act").decode(),
            "follows": fields.get(b"f", b"") == b"1",
        }


# --- outcomes: worker -> gateway (and cached per request id) --------------------------------
@dataclass(frozen=True, slots=True)
class OutcomeRecord:
    """Accepted (version, its lineage and event rows) or rejected (reason, message, metadata).

    Encoded as JSON: {"ok": true, "v": version, "e": event rows, "h": lineage} or
    {"ok": false, "why": reason, "m": message, "d": metadata}. `game` and `seat` are not
    encoded: they say whose request it answers, from the InboxReply that carried it. The reason
    was "r" before issue 25 (r is a request id elsewhere): it is still written as "r" too, for
    gateways of the previous release, and read from "r" when "why" is absent (`LEGACY`).
    """

    ok: bool
    version: int = 0
    events: list[EventRow] = field(default_factory=list)
    reason: str = ""
    message: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    lineage: str = ""
    game: str = ""
    seat: int = -1

    def dumps(self) -> bytes:
        if self.ok:
            rows = _plain_rows(self.events)
            return orjson.dumps({"ok": True, "v": self.version, "e": rows, "h": self.lineage})
        why = self.reason
        return orjson.dumps({"ok": False, "why": why, "r": why, "m": self.message, "d": self.metadata})

    @classmethod
    def plain_args(cls, data: bytes) -> dict[str, Any]:
        """The constructor arguments of `dumps` output (ValueError/KeyError if malformed)."""
        raw = orjson.loads(data)
        if raw["ok"]:
            return {"ok": True, "version": raw["v"], "events": load_rows(raw["e"]), "lineage": raw.get("h", "")}
        reason = raw["why"] if "why" in raw else raw["r"]
        return {"ok": False, "reason": reason, "message": raw["m"], "metadata": raw["d"]}


@dataclass(frozen=True, slots=True)
class InboxReply:
    """An outcome on its way to the gateway that queued the request: fields g, s, r and o."""

    game_id: str
    seat: int
    request_id: str
    outcome: bytes  # OutcomeRecord.dumps()

    def fields(self) -> dict[str, bytes | str]:
        return {"g": self.game_id, "s": str(self.seat), "r": self.request_id, "o": self.outcome}

    @classmethod
    def decode(cls, fields: Fields) -> InboxReply:
        """KeyError/ValueError/UnicodeDecodeError if malformed."""
        return cls(fields[b"g"].decode(), int(fields[b"s"]), fields[b"r"].decode(), fields[b"o"])


# --- event rows: [event id, time ms, tag, payload] ------------------------------------------
class EventRow(NamedTuple):
    """One numbered event of a commit, stored as the JSON array `[event_id, time_ms, tag,
    payload]`: the tag says what the payload is (app/host.py: r a rules event in codec plain
    form, s started, f finished, t timed out, x absent, a aborted). Encode rows with
    `dump_rows` (`orjson.dumps` refuses this type); read them by name, never by index."""

    event_id: int
    time_ms: int
    tag: str
    payload: Any


def dump_rows(rows: Sequence[EventRow]) -> bytes:
    """Field e of an entry (and the `events` argument of the commit and create scripts)."""
    return orjson.dumps(_plain_rows(rows))


def _plain_rows(rows: Sequence[EventRow]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in rows]


def load_rows(plain: Any) -> list[EventRow]:
    """Rows as `orjson.loads` gives them back (ValueError if one is not a 4-item array)."""
    try:
        return [EventRow._make(row) for row in plain]
    except TypeError as exc:
        raise ValueError(f"malformed event rows: {exc}") from None


# --- the game's event stream: one entry per commit ------------------------------------------
# Written by commit_transition.lua (and create_game.lua): v version, e event rows (JSON), p
# prompts by seat (JSON, `prompts_plain`), a seats to act (JSON), h lineage, ph the previous
# lineage, s and r the seat and request id whose action this commit applied ("" for the server's
# own work; absent from a game's first entry). FIELDS["Entry"] names them;
# tests/records/test_records.py holds the commit script's XADD to that.
DEFAULTS = "d"  # in p: {seat: index into its legal actions of the game's default action}


def prompts_plain(legal: dict[str, list[Any]], defaults: dict[str, int]) -> dict[str, Any]:
    """Field p: the legal actions (codec plain) by seat ("0", "1", ...) and under "d" the index
    of each seat's default action (what a timeout plays). A reader that predates "d" looks up
    seats only; an entry without it (written before) has no defaults."""
    return {**legal, DEFAULTS: defaults} if defaults else legal


@dataclass(frozen=True, slots=True)
class Entry:
    """One commit as read from a game's event stream (its prompts decoded only when asked for)."""

    version: int
    events: list[EventRow]
    raw_prompts: bytes
    to_act: list[int]
    lineage: str = ""  # this commit's lineage token (app/lineage.py); "" before lineages existed
    previous: str = ""  # the lineage of the commit before it
    seat: int = -1  # whose request this commit applied (-1: the server's own, or unrecorded)
    request_id: str = ""

    def prompt(self, seat: int) -> list[Any] | None:
        """The legal actions (plain) of `seat` after this commit, if it must act."""
        found = self.prompt_default(seat)
        return None if found is None else found[0]

    def prompt_default(self, seat: int) -> tuple[list[Any], int | None] | None:
        """The legal actions (plain) of `seat` after this commit and the index of its default
        action among them (None when the entry has none), if it must act."""
        if seat not in self.to_act:
            return None
        raw = orjson.loads(self.raw_prompts)
        found: list[Any] | None = raw.get(str(seat))
        if found is None:
            return None
        default = raw.get(DEFAULTS, {}).get(str(seat))
        return found, default if type(default) is int and 0 <= default < len(found) else None

    @classmethod
    def decode(cls, fields: Fields) -> Entry:
        """KeyError/ValueError if malformed."""
        seat = fields.get(b"s", b"")
        return cls(
            version=int(fields[b"v"]),
            events=load_rows(orjson.loads(fields[b"e"])),
            raw_prompts=fields[b"p"],
            to_act=orjson.loads(fields[b"a"]),
            lineage=fields.get(b"h", b"").decode(),
            previous=fields.get(b"ph", b"").decode(),
            seat=int(seat) if seat else -1,
            request_id=fields.get(b"r", b"").decode(),
        )


# --- the action log: the replay record of a game --------------------------------------------
def action_record(seat: int, plain_action: bytes, version: int, by: str = "", request_id: str = "") -> bytes:
    """One applied action: [seat, action (codec plain), version after it, by ("clock" when the
    server played it, "" for the seat), request id]."""
    return orjson.dumps([seat, orjson.Fragment(plain_action), version, by, request_id])


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """A decoded action record (see `action_record`)."""

    seat: int
    action: Any  # codec plain form
    version: int
    by: str = ""
    request_id: str = ""

    @classmethod
    def decode(cls, raw: bytes) -> ActionRecord:
        seat, action, version, *rest = orjson.loads(raw)
        by = rest[0] if rest else ""
        request_id = rest[1] if len(rest) > 1 else ""
        return cls(int(seat), action, int(version), by or "", request_id or "")


# --- bot seats: lobby/matchmaker -> matchmaker workers --------------------------------------
@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat a bot is to take: fields g game, s seat, u user, n name, p policy, d difficulty
    (absent: the bot runner's default)."""

    game_id: str
    seat: int
    user: str
    name: str
    policy: str
    difficulty: int | None = None

    def fields(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {
            "g": self.game_id,
            "s": self.seat,
            "u": self.user,
            "n": self.name,
            "p": self.policy,
        }
        if self.difficulty is not None:
            out["d"] = self.difficulty
        return out

    @classmethod
    def decode(cls, fields: Fields) -> BotSeat:
        difficulty = fields.get(b"d")
        return cls(
            fields[b"g"].decode(),
            int(fields[b"s"]),
            fields[b"u"].decode(),
            fields[b"n"].decode(),
            fields.get(b"p", b"").decode(),
            int(difficulty) if difficulty is not None else None,
        )


# --- rooms: lobby -> gateways, matchmakers (store/lobby_store.py) --------------------------
class RoomRow(NamedTuple):
    """A room as stored: its version (the compare-and-set counter, the id of its change-stream
    entry) and its JSON document (lobby/rooms.py says what it holds)."""

    version: int
    room: dict[str, Any]


def finished_fields(game_id: str) -> dict[str, str]:
    """An entry of the finished-games stream (the ratings consumer's input): g game id."""
    return {"g": game_id}


def finished_game(fields: Fields) -> str:
    return fields[b"g"].decode()
