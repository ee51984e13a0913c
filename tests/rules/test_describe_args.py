"""A text's arguments (rules/describe.py): sorted by name, a missing value a template needs is "?",
an id sent behind its name, an empty argument kept as sent, an unset optional one left out."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.rules.describe import Describer, Text


@dataclass(frozen=True)
class Hire:
    worker: int
    wage: int | None
    note: str | None = None


def test_arguments_are_sorted_and_a_missing_one_is_a_question_mark() -> None:
    names = {"worker": lambda w: ("Ann", "Bob")[w]}
    describer = Describer("g", {Hire: "Hire {worker_name} for {wage} {note}"}, {}, names=names)
    assert describer.describe(Hire(1, None)) == Text(
        "Hire Bob for ? ?", "g.action.hire", (("note", "?"), ("wage", "?"), ("worker", "1"), ("worker_name", "Bob"))
    )
    assert describer.describe(Hire(0, 3, "")).args == (
        ("note", ""),
        ("wage", "3"),
        ("worker", "0"),
        ("worker_name", "Ann"),
    )
    short = Describer("g", {Hire: "Hire {worker_name}"}, {}, names=names)
    assert short.describe(Hire(0, None, "x")).args == (("worker", "0"), ("worker_name", "Ann"))
