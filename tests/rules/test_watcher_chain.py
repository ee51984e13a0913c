"""The watcher's lineage chain check (app/watching.py), on hand-made stream entries."""

from __future__ import annotations

import orjson

from flotilla.app.host import host_for
from flotilla.app.host_events import RULES_EVENT
from flotilla.app.pacing import Budget
from flotilla.app.watching import Batch, Watcher
from flotilla.records import Entry, EventRow
from flotilla.rules import Seat


def entry(version: int, lineage: str, previous: str, to_act: list[int]) -> Entry:
    prompts = {str(s): [{"Add": [1]}] for s in to_act}
    row = EventRow(version, 0, RULES_EVENT, {"Added": [0, 1, version]})
    return Entry(version, [row], orjson.dumps(prompts), to_act, lineage, previous)


async def no_view() -> Batch:
    raise AssertionError("not used")


def watcher(viewer: int | None) -> Watcher:
    host = host_for("counter")
    seat = None if viewer is None else Seat(viewer)
    return Watcher(None, host, "g", seat, no_view, 10.0, Budget())  # type: ignore[arg-type]


def test_entries_that_continue_the_chain_are_merged_and_carry_the_last_prompt() -> None:
    w = watcher(1)
    w.version, w.lineage = 1, "a"
    batches, broken = w.advance([entry(2, "b", "a", [1]), entry(3, "c", "b", [0]), entry(4, "d", "c", [1])])
    assert not broken
    assert len(batches) == 1
    only = batches[0]
    assert [row.event_id for row in only.events] == [2, 3, 4]
    assert only.lineages == ("b", "c", "d")
    assert only.version == 4
    assert only.lineage == "d"
    assert only.prompt is not None  # seat 1 acts at version 4
    assert w.unprompted() is None  # and was given that prompt


def test_a_break_in_the_chain_stops_at_the_last_entry_of_the_known_history() -> None:
    w = watcher(None)
    w.version, w.lineage = 1, "a"
    batches, broken = w.advance([entry(2, "b", "a", [1]), entry(3, "x", "z", [0])])
    assert broken
    assert [row.event_id for b in batches for row in b.events] == [2]
    assert w.version == 2  # nothing of the other history was taken


def test_entries_already_given_are_skipped_and_unknown_lineages_are_not_checked() -> None:
    w = watcher(0)
    w.version, w.lineage = 3, ""  # resumed mid-commit: the lineage at 3 is unknown
    batches, broken = w.advance([entry(3, "c", "b", [0]), entry(4, "d", "q", [0])])
    assert not broken
    assert [row.event_id for b in batches for row in b.events] == [4]
    assert w.lineage == "d"
