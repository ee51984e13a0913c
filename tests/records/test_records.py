"""Every cross-process record decodes what its encoder wrote, and what the previous release wrote."""

from __future__ import annotations

import re
from dataclasses import replace
from importlib import resources
from pathlib import Path

import orjson
import pytest

from flotilla import records
from flotilla.records import (
    ACT,
    FIELDS,
    LEAVE,
    LEGACY,
    ActionRecord,
    BotSeat,
    Entry,
    EventRow,
    InboxReply,
    OutcomeRecord,
    RoomRow,
    WorkItem,
    action_record,
    dump_rows,
    finished_fields,
    finished_game,
    load_rows,
    prompts_plain,
)
from flotilla.store.deadletter import DELIVERIES, ENGINE, DeadLetter


def _wire(fields: dict[str, bytes | str | int]) -> dict[bytes, bytes]:
    """What redis-py gives back for fields it was given."""
    return {k.encode(): v if isinstance(v, bytes) else str(v).encode() for k, v in fields.items()}


@pytest.mark.parametrize(
    "item",
    [
        WorkItem("g1", 1, "r1", action=b'{"Add":[3]}', etag="7.ab", inbox="flotilla:inbox:x"),
        WorkItem("g1", 0, "r2", inbox="flotilla:inbox:x", kind=LEAVE),
        WorkItem("g1", 2, "r3", action=b"[]", inbox="flotilla:inbox:x", follows=True),
    ],
)
def test_work_items_round_trip(item: WorkItem) -> None:
    assert WorkItem(**WorkItem.decode_fields(_wire(item.fields()))) == item


def test_a_work_item_of_the_previous_release_decodes() -> None:
    old = {b"g": b"g1", b"s": b"1", b"a": b"[1]", b"r": b"r1", b"e": b"", b"i": b"inbox"}
    assert WorkItem(**WorkItem.decode_fields(old)) == WorkItem("g1", 1, "r1", action=b"[1]", inbox="inbox", kind=ACT)


@pytest.mark.parametrize("missing", [b"g", b"s", b"r", b"i"])
def test_a_work_item_without_a_required_field_is_refused(missing: bytes) -> None:
    fields = _wire(WorkItem("g1", 1, "r1", inbox="i").fields())
    del fields[missing]
    with pytest.raises(KeyError):
        WorkItem.decode_fields(fields)


def test_outcomes_and_inbox_replies_round_trip() -> None:
    accepted = OutcomeRecord(True, 9, [EventRow(9, 5, "r", {"Added": [3]})], lineage="ab")
    rejected = OutcomeRecord(False, reason="NOT_YOUR_TURN", message="wait", metadata={"seat": "1"})
    for outcome in (accepted, rejected):
        assert OutcomeRecord(**OutcomeRecord.plain_args(outcome.dumps())) == outcome
        reply = InboxReply("g1", 1, "r1", outcome.dumps())
        assert InboxReply.decode(_wire(reply.fields())) == reply


def test_entries_decode_with_and_without_their_request() -> None:
    fields = {
        b"v": b"4",
        b"e": b'[[4,1,"r",{}]]',  # as stored: rows are JSON arrays
        b"p": b'{"1": [1, 2]}',
        b"a": b"[1]",
        b"h": b"new",
        b"ph": b"old",
    }
    old = Entry.decode(fields)  # written before entries named their request
    assert (old.version, old.to_act, old.lineage, old.previous, old.seat, old.request_id) == (
        4,
        [1],
        "new",
        "old",
        -1,
        "",
    )
    assert old.prompt(1) == [1, 2]
    assert old.prompt(0) is None
    new = Entry.decode({**fields, b"s": b"0", b"r": b"req"})
    assert (new.seat, new.request_id) == (0, "req")


def test_prompt_defaults_decode_and_entries_without_them_have_none() -> None:
    fields = {
        b"v": b"4",
        b"e": b"[]",
        b"a": b"[0, 1]",
        b"p": orjson.dumps(prompts_plain({"0": [5, 6], "1": [7]}, {"0": 1})),
    }
    new = Entry.decode(fields)
    assert new.prompt_default(0) == ([5, 6], 1)
    assert new.prompt_default(1) == ([7], None)  # a seat the rules named no legal default for
    assert new.prompt(0) == [5, 6]
    old = Entry.decode({**fields, b"p": b'{"0": [5, 6], "1": [7]}'})  # the previous release's form
    assert old.prompt_default(0) == ([5, 6], None)
    assert Entry.decode({**fields, b"p": b'{"0": [5], "d": {"0": 3}}'}).prompt_default(0) == ([5], None)  # out of range
    assert prompts_plain({"0": [1]}, {}) == {"0": [1]}  # no defaults: the previous form exactly


def test_action_records_of_seats_and_clocks() -> None:
    seat = ActionRecord.decode(action_record(1, b'{"Add":[2]}', 7, "", "r1"))
    assert seat == ActionRecord(1, {"Add": [2]}, 7, "", "r1")
    clock = ActionRecord.decode(orjson.dumps([0, {"Pass": []}, 8, "clock"]))  # the previous release's form
    assert clock == ActionRecord(0, {"Pass": []}, 8, "clock", "")


def test_bot_seats_and_finished_games() -> None:
    bot = BotSeat("g1", 2, "bot:1", "Bot 3 (random)", "random")
    assert BotSeat.decode(_wire(bot.fields())) == bot
    assert {"difficulty", "d"}.isdisjoint(bot.fields())  # no difficulty: the runner's default
    hard = BotSeat("g1", 2, "bot:1", "Bot 3 (heuristic)", "heuristic", 2)
    assert BotSeat.decode(_wire(hard.fields())) == hard
    assert finished_game(_wire(finished_fields("g1"))) == "g1"


def test_event_rows_keep_their_stored_form() -> None:
    rows = [EventRow(4, 1, "r", {"Added": [3]}), EventRow(5, 1, "f", {"seed": "00"})]
    stored = b'[[4,1,"r",{"Added":[3]}],[5,1,"f",{"seed":"00"}]]'
    assert dump_rows(rows) == stored  # the wire form of field e (and of an outcome's e)
    assert load_rows(orjson.loads(stored)) == rows
    assert [row.tag for row in load_rows(orjson.loads(stored))] == ["r", "f"]
    with pytest.raises(TypeError):
        orjson.dumps(rows)  # only dump_rows encodes rows: a plain dumps cannot write another form
    for bad in (b'[[4,1,"r"]]', b'[[4,1,"r",{},9]]', b"[4]"):
        with pytest.raises(ValueError, match="malformed event rows"):
            load_rows(orjson.loads(bad))


def _dead_letter() -> DeadLetter:
    return DeadLetter("flotilla:work:{x}", "1-0", {b"g": b"g1"}, DELIVERIES, "abc", 4, at_ms=5)


def test_dead_letters_round_trip_and_decode_the_previous_release() -> None:
    letter = _dead_letter()
    assert DeadLetter.decode(b"2-0", _wire_any(letter.record())) == replace(letter, id="2-0")
    old = {b"stream": b"s", b"entry": b"1-0", b"why": b"engine", b"incident": b"i", b"deliveries": b"1", b"at": b"5"}
    assert DeadLetter.decode(b"3-0", old).why == ENGINE
    assert _wire_any(letter.record())[b"why"] == b"deliveries"  # `flotilla deadletter` of the previous release
    with pytest.raises(KeyError):
        DeadLetter.decode(b"3-0", {name: value for name, value in old.items() if name != b"why"})


def _wire_any(fields: dict[bytes | str, bytes | str | int]) -> dict[bytes, bytes]:
    return _wire({name.decode() if isinstance(name, bytes) else name: value for name, value in fields.items()})


def _names(record: str) -> set[str]:
    return set(FIELDS[record]) | {old for (name, old) in LEGACY if name == record}


def test_encoders_write_the_declared_names() -> None:
    written = {
        "WorkItem": WorkItem("g1", 1, "r1", b"[1]", "7.ab", "i", follows=True).fields().keys()
        | WorkItem("g1", 1, "r1", inbox="i", kind=LEAVE).fields().keys(),
        "InboxReply": InboxReply("g1", 1, "r1", b"{}").fields().keys(),
        "OutcomeRecord": orjson.loads(OutcomeRecord(True, 2, [], lineage="h").dumps()).keys()
        | orjson.loads(OutcomeRecord(False, reason="X", message="m").dumps()).keys(),
        "BotSeat": BotSeat("g1", 1, "u", "n", "p", 3).fields().keys(),
        "DeadLetter": {name if isinstance(name, str) else "w.<field>" for name in _dead_letter().record()},
        "finished": finished_fields("g1").keys(),
    }
    for record, names in written.items():
        assert set(names) == _names(record), record


def _xadd_fields(script: str, stream: str, first: str) -> set[str]:
    """The field names of a Lua script's XADD to `stream` (the fields from `first` on)."""
    source = resources.files("flotilla.store").joinpath(f"scripts/{script}").read_text()
    xadd = source[source.index(f"redis.call('XADD', {stream}") :].split(")", 1)[0]
    return set(re.findall(r"'(\w+)', (?:'[^']*'|[\w\[\]]+)", xadd[xadd.index(f"'{first}'") :]))


@pytest.mark.parametrize(
    ("script", "stream", "first", "record"),
    [
        ("commit_transition.lua", "k_events", "v", "Entry"),
        ("room_update.lua", "KEYS[2]", "room", "RoomChange"),
        ("ticket_create.lua", "KEYS[3]", "state", "TicketChange"),
        ("ticket_end.lua", "KEYS[3]", "state", "TicketChange"),
        ("match_done.lua", "changes", "state", "TicketChange"),
    ],
)
def test_the_scripts_write_the_declared_fields(script: str, stream: str, first: str, record: str) -> None:
    assert _xadd_fields(script, stream, first) == _names(record)


def test_the_key_rotation_writes_the_declared_signing_key_fields() -> None:
    source = resources.files("flotilla.store").joinpath("scripts/rotate_keys.lua").read_text()
    made = re.search(r"local made = \{(.*)\}", source)
    assert made is not None
    assert set(re.findall(r"(\w+) = ", made.group(1))) == _names("SigningKey")


def test_a_games_first_entry_has_the_declared_fields_but_its_request() -> None:
    assert _xadd_fields("create_game.lua", "k_events", "v") == set(FIELDS["Entry"]) - {"s", "r"}


def _reused(declared: dict[str, dict[str, str]]) -> set[str]:
    meanings: dict[str, set[str]] = {}
    for fields in declared.values():
        for name, meaning in fields.items():
            meanings.setdefault(name, set()).add(meaning)
    return {name for name, found in meanings.items() if len(found) > 1}


def test_a_field_name_means_one_thing_across_records() -> None:
    assert not _reused(FIELDS)  # issue 25: no letter reused with another meaning


def test_the_one_meaning_check_finds_a_reuse() -> None:
    assert _reused({**FIELDS, "Other": {"g": "game id", "e": "etag"}}) == {"e"}  # e: event rows in Entry
    assert _reused({**FIELDS, "Other": {"a": "action"}}) == {"a"}  # the reuse issue 25 renamed away


def test_every_renamed_field_is_declared_under_its_new_name_only() -> None:
    for (record, old), new in LEGACY.items():
        assert new in FIELDS[record], (record, new)
        assert old not in FIELDS[record], (record, old)  # a reader could not tell the two apart


def test_records_of_the_previous_release_still_decode() -> None:
    old_work = {b"g": b"g1", b"s": b"1", b"a": b"[1]", b"r": b"r1", b"e": b"7.ab", b"i": b"inbox"}
    assert WorkItem(**WorkItem.decode_fields(old_work)) == WorkItem("g1", 1, "r1", b"[1]", "7.ab", "inbox")
    old_refusal = b'{"ok":false,"r":"NOT_YOUR_TURN","m":"wait","d":{"seat":"1"}}'
    refused = OutcomeRecord(**OutcomeRecord.plain_args(old_refusal))
    assert (refused.reason, refused.metadata) == ("NOT_YOUR_TURN", {"seat": "1"})
    old_bot = {b"g": b"g1", b"s": b"2", b"u": b"bot:1", b"n": b"Bot", b"p": b"heuristic", b"d": b"2"}
    assert BotSeat.decode(old_bot) == BotSeat("g1", 2, "bot:1", "Bot", "heuristic", 2)
    assert RoomRow.of_change(b"0-3", {b"d": b'{"name":"r1"}'}) == RoomRow(3, {"name": "r1"})


def test_readers_of_the_previous_release_find_the_old_names() -> None:
    work = _wire(WorkItem("g1", 1, "r1", b"[1]", "8.cd", "i").fields())
    assert (work[b"a"], work[b"e"]) == (work[b"act"], work[b"t"]) == (b"[1]", b"8.cd")
    refusal = orjson.loads(OutcomeRecord(False, reason="X", message="m", metadata={"k": "v"}).dumps())
    assert (refusal["r"], refusal["d"]) == ("X", {"k": "v"})
    bot = _wire(BotSeat("g1", 1, "u", "n", "heuristic", 2).fields())
    assert (bot[b"p"], bot[b"d"]) == (b"heuristic", b"2")


def test_records_without_the_old_names_decode() -> None:
    # the release after the next stops writing the old names: the new ones alone must do
    new_work = {b"g": b"g1", b"s": b"1", b"act": b"[1]", b"r": b"r1", b"t": b"7.ab", b"i": b"inbox"}
    assert WorkItem(**WorkItem.decode_fields(new_work)) == WorkItem("g1", 1, "r1", b"[1]", "7.ab", "inbox")
    refusal = b'{"ok":false,"why":"X","m":"m","meta":{"k":"v"}}'
    assert OutcomeRecord(**OutcomeRecord.plain_args(refusal)).metadata == {"k": "v"}
    bot = {b"g": b"g1", b"s": b"2", b"u": b"u", b"n": b"n", b"policy": b"random", b"difficulty": b"1"}
    assert BotSeat.decode(bot) == BotSeat("g1", 2, "u", "n", "random", 1)
    assert RoomRow.of_change(b"0-4", {b"room": b"{}"}) == RoomRow(4, {})
    with pytest.raises(KeyError):
        RoomRow.of_change(b"0-4", {})


def test_no_reader_takes_a_row_apart_by_position() -> None:
    # issue 25: readers indexed event rows and room rows as row[2], row[1]; they read names now
    server = Path(records.__file__).parent
    found = [
        f"{path.relative_to(server)}:{n}"
        for path in server.rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\brow\[-?\d+\]", line)
    ]
    assert not found
