"""Declaring a Lua script's interface once: its KEYS and ARGV as dataclasses (one field per slot, in
order, each with a description), and its result codes as an enum with a description each.

`prelude()` writes the opening such a script must have: a header naming every slot and code, then
one local per slot, so the script's body uses names, never KEYS[n] or ARGV[n]. A test per script
(tests/records/test_script_slots.py) fails when the script's opening and its declaration differ.
Declared so: the commit script (commit_script.py) and create_game.lua (create_script.py).
"""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, TypeVar

Code = TypeVar("Code", bound=enum.IntEnum)


def slot(text: str) -> Any:
    """A dataclass field (a script's slot) with no default whose description goes into the header."""
    return field(metadata={"doc": text})


def in_order(slots: Any) -> list[Any]:
    """A KEYS or ARGV dataclass's values, in the declared order."""
    return list(values_of(type(slots))(slots))


def values_of(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A getter of a KEYS or ARGV dataclass's values as a tuple, in the declared order (built
    once per class: the commit path packs them for every move)."""
    found = _GETTERS.get(cls)
    if found is None:
        names = [f.name for f in dataclasses.fields(cls)]
        getter = operator.attrgetter(*names)
        found = _GETTERS[cls] = getter if len(names) > 1 else lambda slots: (getter(slots),)
    return found


_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def prelude(title: str, source: str, keys: type, args: type, codes: Mapping[Code, str], returns: str) -> str:
    """The opening of a script: `title` and where it is declared (`source`), every KEYS and ARGV
    slot and every code (`returns` introduces them), then `local k_<key> = KEYS[i]` and
    `local <arg> = ARGV[i]` for each slot."""
    lines = [f"-- {title}", f"-- GENERATED from flotilla/store/{source}; the test checks it."]
    for array, cls in (("KEYS", keys), ("ARGV", args)):
        for i, f in enumerate(dataclasses.fields(cls), start=1):
            lines.append(f"-- {array}[{i}] {f.name}: {f.metadata['doc']}")
    lines.append(f"-- {returns}")
    for code, doc in codes.items():
        lines.append(f"--   {code.value:>2} {code.name}: {doc}")
    for array, cls in (("KEYS", keys), ("ARGV", args)):
        prefix = "k_" if array == "KEYS" else ""
        for i, f in enumerate(dataclasses.fields(cls), start=1):
            lines.append(f"local {prefix}{f.name} = {array}[{i}]")
    return "\n".join(lines) + "\n"
