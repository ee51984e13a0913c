"""Every key family in store/keys.py's table is one the key functions make, and every key they
make is in the table (tests/e2e/test_counter_e2e.py checks the keys a played game leaves)."""

from __future__ import annotations

import inspect
import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from flotilla.records import FIELDS, LEGACY
from flotilla.store import keys
from key_families import families, matching

NOT_KEYS = {"game_of_events", "game_keys"}  # a key's parser, and a list of keys made by the others
SAMPLE = {str: "s1", int: 3}


def _made_keys() -> list[str]:
    made = [value for value in vars(keys).values() if isinstance(value, str) and value.startswith("flotilla:")]
    for name, function in inspect.getmembers(keys, inspect.isfunction):
        if function.__module__ != keys.__name__ or name in NOT_KEYS:
            continue
        signature = inspect.signature(function, eval_str=True)
        made.append(function(*(SAMPLE[p.annotation] for p in signature.parameters.values())))
    # quota names with rows of their own (app/limits.py)
    made += [keys.held("s1", "waiting_tickets"), keys.held("address:10.0.0.1", "new_queues")]
    return made


def test_every_key_a_function_makes_is_documented() -> None:
    documented = families()
    undocumented = [key for key in _made_keys() if not matching(key, documented)]
    assert not undocumented, f"add a row to store/keys.py's table for {undocumented}"


def test_every_documented_family_is_made_by_a_key_function() -> None:
    made = _made_keys()
    stale = [f.text for f in families() if not any(f.pattern.fullmatch(key) for key in made)]
    assert not stale, f"rows of store/keys.py's table no key function makes: {stale}"


def test_the_pattern_reading_tells_tags_values_and_optional_parts_apart() -> None:
    (listed,) = [f for f in families() if f.text.startswith("flotilla:rooms:listed")]
    assert listed.pattern.fullmatch("flotilla:rooms:listed")
    assert listed.pattern.fullmatch("flotilla:rooms:listed:go")
    (seats,) = [f for f in families() if f.text == "flotilla:game:{g}:seats"]
    assert seats.pattern.fullmatch(keys.game_seats("g1"))
    assert not seats.pattern.fullmatch("flotilla:game:g1:seats")
    (party,) = [f for f in families() if f.text == "flotilla:{party}:p:<p>"]
    assert party.pattern.fullmatch(keys.party("p1"))
    assert not party.pattern.fullmatch("flotilla:{x}:p:p1")


def test_keys_functions_take_only_sampled_types() -> None:
    functions: list[Callable[..., object]] = [
        f
        for n, f in inspect.getmembers(keys, inspect.isfunction)
        if f.__module__ == keys.__name__ and n not in NOT_KEYS
    ]
    for function in functions:
        for parameter in inspect.signature(function, eval_str=True).parameters.values():
            assert parameter.annotation in SAMPLE, (function.__name__, parameter)


RECORD_FAMILIES = {  # families whose entries (or values) are records.FIELDS' records
    "flotilla:game:{g}:events": "Entry",
    "flotilla:room:{r}:changes": "RoomChange",
    "flotilla:bots": "BotSeat",
    "flotilla:finished": "finished",
    "flotilla:mm:{q}:ticket:<t>:changes": "TicketChange",
    "flotilla:deadletter": "DeadLetter",
    "flotilla:keys": "SigningKey",
}


def _row_text(family: str) -> str:
    """A family's row in store/keys.py with its continuation rows (`| | | ...`)."""
    lines = Path(keys.__file__).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^(?:# )?\| {re.escape(family)} \|", line))
    rest = itertools.takewhile(lambda line: re.match(r"^(?:# )?\| \| \|", line), lines[start + 1 :])
    return " ".join([lines[start], *rest])


@pytest.mark.parametrize(("family", "record"), RECORD_FAMILIES.items())
def test_a_record_familys_row_names_its_fields(family: str, record: str) -> None:
    text = _row_text(family)
    names = set(FIELDS[record]) | {old for (named, old) in LEGACY if named == record}
    missing = [name for name in names if not re.search(rf"(?<![\w.<]){re.escape(name)}(?![\w>])", text)]
    assert not missing, f"store/keys.py's row of {family} does not name {missing}"
