"""Every record that crosses a process boundary, with its one encoder and decoder.

Gateways, workers and matchmakers exchange these through Redis; nothing else builds or
parses them (the commit script, `store/scripts/commit_transition.lua`, writes the event
stream entry; its field names are declared here, in `FIELDS`). Read a record by name, never
by position. Declared elsewhere: the commit script's own arguments and result
(`store/commit_script.py`), the host events' payloads (`app/host_events.py`), seat clocks
(`app/clocks.SeatClock`, `dumps`). Short field names keep the hot path's Redis traffic small;
`FIELDS` says what each one is, and a name means one thing in every record (an entry's `a` is
its seats to act, so no other record has an `a`): issue 25 renamed the fields that broke this,
keeping the event stream's names (stored in every game for good). Adding a field: give it a
name no record uses for something else and a default, and make the decoder accept its absence,
so entries written by the previous release (still queued during a rolling deploy) keep
decoding. Renaming one: see `LEGACY`.

| record        | where it lives                      | written by          | read by            |
|---------------|-------------------------------------|---------------------|--------------------|
| WorkItem      | work stream `flotilla:work:...`     | gateway             | worker             |
| InboxReply    | gateway inbox stream                | worker              | gateway            |
| OutcomeRecord | inside InboxReply, `req:` keys      | worker              | gateway, worker    |
| Entry         | game event stream (one per commit)  | commit script       | gateway, worker    |
| EventRow      | inside Entry, OutcomeRecord         | worker (app/host)   | gateway            |
| action record | game action list (the replay log)   | worker              | gateway (records)  |
| BotSeat       | bot-seat stream                     | lobby, matchmaker   | matchmaker workers |
| Prompts       | inside Entry (field p)              | worker (app/host)   | gateway, worker    |
| RoomRow       | room hash, room change stream       | lobby               | gateway, matchmaker|
| TicketChange  | ticket change stream (a wake-up)    | lobby, matchmaker   | gateway            |
| DeadLetter    | dead-letter stream                  | worker              | `flotilla deadletter`|
| SigningKey    | signing-key hash (`flotilla:keys`)  | first start, `flotilla keys rotate` | gateways |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

import orjson

Fields = Mapping[bytes, bytes]  # a stream entry's fields as redis-py returns them
DEFAULTS = "d"  # in an entry's p: {seat: index into its legal actions of the game's default action}

FIELDS: dict[str, dict[str, str]] = {
    "WorkItem": {"g": "game id", "s": "seat", "r": "request id", "act": "action", "t": "etag", "i": "inbox"}
    | {"k": "kind", "f": "follows the feed"},
    "InboxReply": {"g": "game id", "s": "seat", "r": "request id", "o": "outcome"},
    "OutcomeRecord": {"ok": "accepted", "v": "version", "e": "event rows", "h": "lineage", "why": "reason"}
    | {"m": "message", "meta": "error metadata"},
    "Entry": {"v": "version", "e": "event rows", "p": "prompts", "a": "seats to act", "h": "lineage"}
    | {"ph": "previous lineage", "s": "seat", "r": "request id"},
    "Prompts": {"<seat>": "legal actions", DEFAULTS: "default action indexes"},
    "BotSeat": {"g": "game id", "s": "seat", "u": "user", "n": "name", "policy": "policy"}
    | {"difficulty": "difficulty"},
    "RoomChange": {"room": "room document"},
    "TicketChange": {"state": "ticket state"},
    "DeadLetter": {"stream": "work stream", "entry": "work entry id", "cause": "cause", "incident": "incident id"}
    | {"deliveries": "deliveries", "at": "time set aside", "w.<field>": "work item field"},
    "finished": {"g": "game id"},
    "SigningKey": {"secret": "signing secret", "created_ms": "created", "superseded_ms": "superseded"},
}
"""Every record's field names and what each means: one name, one meaning across records
(tests/records/test_records.py holds the encoders and the Lua scripts to it)."""

LEGACY: dict[tuple[str, str], str] = {
    ("WorkItem", "e"): "t",
    ("WorkItem", "a"): "act",
    ("OutcomeRecord", "r"): "why",
    ("OutcomeRecord", "d"): "meta",
    ("BotSeat", "p"): "policy",
    ("BotSeat", "d"): "difficulty",
    ("RoomChange", "d"): "room",
    ("DeadLetter", "why"): "cause",
    ("SigningKey", "s"): "secret",
    ("SigningKey", "c"): "created_ms",
    ("SigningKey", "r"): "superseded_ms",
}
"""Names a record had before issue 25 (old name -> new name), written beside the new one for
the previous release's readers and read when the new one is absent (`with_old_names`,
`field_of`, `value_of`). The release after the next stops writing them, and reading them (by
then no entry of the previous release is queued) -- but for `SigningKey`, whose records last
until rotated out: its old names are read until a rotation after the upgrade plus the longest
token lifetime, and a key is superseded when either `superseded_ms` or `r` says so (the
previous release's rotation sets `r` alone: store/auth_store.py `superseded_ms`). On the hot
path this costs a work item its action twice for one release (`act` and `a`), and `act` two
bytes more than `a` for good: the project's accepted price for a rolling upgrade (old gateways
and new workers together) and for a name that says what it is. Not renamed: `Entry`'s names
(every stored game holds them) and so `Prompts`' `d`."""

_OLD_NAMES: dict[str, dict[str, str]] = {
    record: {new: old for (named, old), new in LEGACY.items() if named == record} for record, _ in LEGACY
}  # record -> {new name: old name}
V = TypeVar("V")


def with_old_names(record: str, out: dict[str, V]) -> dict[str, V]:
    """`out` with, beside each renamed field it holds, the same value under the old name (`LEGACY`)."""
    for new, old in _OLD_NAMES.get(record, {}).items():
        if new in out:
            out[old] = out[new]
    return out


def field_of(record: str, fields: Fields, name: str) -> bytes | None:
    """Stream field `name` of `record`, or its old name's value when it is absent (`LEGACY`)."""
    found = fields.get(name.encode())
    old = _OLD_NAMES.get(record, {}).get(name)
    return fields.get(old.encode()) if found is None and old else found


def required_field(record: str, fields: Fields, name: str) -> bytes:
    """`field_of`, KeyError when the entry has neither name."""
    found = field_of(record, fields, name)
    if found is None:
        raise KeyError(name)
    return found


def value_of(record: str, plain: Mapping[str, Any], name: str) -> Any:
    """Key `name` of a JSON record, or its old name's value when it is absent (KeyError if neither)."""
    if name in plain:
        return plain[name]
    return plain[_OLD_NAMES.get(record, {}).get(name, name)]


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

    Fields on the stream: g game id, s seat, r request id, act action (codec plain JSON), t etag
    ("" for none), i the inbox to answer, k kind ("act" when absent), f "1" when the gateway
    follows the game's feed and takes an accepted outcome from the committed entry itself
    (no inbox reply then). Before issue 25 the etag was e (e is the event rows elsewhere) and the
    action a (a is the seats to act elsewhere): both are still written under the old name too,
    for workers of the previous release, and read from it when the new one is absent (`LEGACY`).
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
            out["act"] = self.action
            out["t"] = self.etag
        else:
            out["k"] = self.kind
        if self.inbox:
            out["i"] = self.inbox
        if self.follows:
            out["f"] = 1
        return with_old_names("WorkItem", out)

    @staticmethod
    def decode_fields(fields: Fields) -> dict[str, Any]:
        """The constructor arguments of a stream entry; KeyError/ValueError/UnicodeDecodeError if malformed."""
        return {
            "game_id": fields[b"g"].decode(),
            "seat": int(fields[b"s"]),
            "request_id": fields[b"r"].decode(),
            "action": field_of("WorkItem", fields, "act") or b"",
            "etag": (field_of("WorkItem", fields, "t") or b"").decode(),
            "inbox": fields[b"i"].decode(),
            "kind": fields.get(b"k", b"act").decode(),
            "follows": fields.get(b"f", b"") == b"1",
        }


# --- outcomes: worker -> gateway (and cached per request id) --------------------------------
@dataclass(frozen=True, slots=True)
class OutcomeRecord:
    """Accepted (version, its lineage and event rows) or rejected (reason, message, metadata).

    Encoded as JSON: {"ok": true, "v": version, "e": event rows, "h": lineage} or
    {"ok": false, "why": reason, "m": message, "meta": metadata}. `game` and `seat` are not
    encoded: they say whose request it answers, from the InboxReply that carried it. Before
    issue 25 the reason was "r" (a request id elsewhere) and the metadata "d" (a bot's difficulty
    elsewhere): a refusal still carries them under the old names too, for gateways of the
    previous release, and they are read from there when the new ones are absent (`LEGACY`).
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
        refused = {"ok": False, "why": self.reason, "m": self.message, "meta": self.metadata}
        return orjson.dumps(with_old_names("OutcomeRecord", refused))

    @classmethod
    def plain_args(cls, data: bytes) -> dict[str, Any]:
        """The constructor arguments of `dumps` output (ValueError/KeyError if malformed)."""
        raw = orjson.loads(data)
        if raw["ok"]:
            return {"ok": True, "version": raw["v"], "events": load_rows(raw["e"]), "lineage": raw.get("h", "")}
        return {
            "ok": False,
            "reason": value_of("OutcomeRecord", raw, "why"),
            "message": raw["m"],
            "metadata": value_of("OutcomeRecord", raw, "meta"),
        }


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
    decoded_prompts: dict[str, Any] | None = field(default=None, compare=False, repr=False)  # of raw_prompts

    def prompt(self, seat: int) -> list[Any] | None:
        """The legal actions (plain) of `seat` after this commit, if it must act."""
        found = self.prompt_default(seat)
        return None if found is None else found[0]

    def prompt_default(self, seat: int) -> tuple[list[Any], int | None] | None:
        """The legal actions (plain) of `seat` after this commit and the index of its default
        action among them (None when the entry has none), if it must act."""
        if seat not in self.to_act:
            return None
        raw = self.decoded_prompts
        if raw is None:  # decoded once: every watcher of the game on a gateway shares the entry
            raw = orjson.loads(self.raw_prompts)
            object.__setattr__(self, "decoded_prompts", raw)
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
    """A seat a bot is to take: fields g game, s seat, u user, n name, policy, difficulty
    (absent: the bot runner's default). Before issue 25 the policy was p (an entry's prompts) and
    the difficulty d (an outcome's metadata): still written under those names too, and read
    from them when the new ones are absent (`LEGACY`)."""

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
            "policy": self.policy,
        }
        if self.difficulty is not None:
            out["difficulty"] = self.difficulty
        return with_old_names("BotSeat", out)

    @classmethod
    def decode(cls, fields: Fields) -> BotSeat:
        difficulty = field_of("BotSeat", fields, "difficulty")
        return cls(
            fields[b"g"].decode(),
            int(fields[b"s"]),
            fields[b"u"].decode(),
            fields[b"n"].decode(),
            (field_of("BotSeat", fields, "policy") or b"").decode(),
            int(difficulty) if difficulty is not None else None,
        )


# --- rooms: lobby -> gateways, matchmakers (store/lobby_store.py) --------------------------
class RoomRow(NamedTuple):
    """A room as stored: its version (the compare-and-set counter, the id of its change-stream
    entry) and its JSON document (lobby/rooms.py says what it holds)."""

    version: int
    room: dict[str, Any]

    @classmethod
    def of_change(cls, entry_id: bytes, fields: Fields) -> RoomRow:
        """A room change stream entry (id 0-<version>): field room, the room's JSON document, written
        by store/scripts/room_update.lua (d before issue 25, the outcome's metadata elsewhere:
        still written too, and read when room is absent, `LEGACY`). KeyError/ValueError if malformed."""
        return cls(int(entry_id.split(b"-")[1]), orjson.loads(required_field("RoomChange", fields, "room")))


def finished_fields(game_id: str) -> dict[str, str]:
    """An entry of the finished-games stream (the ratings consumer's input): g game id."""
    return {"g": game_id}


def finished_game(fields: Fields) -> str:
    return fields[b"g"].decode()
