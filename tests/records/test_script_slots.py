"""Lua scripts whose slots and result codes are declared once (store/script_slots.py): the commit
script (store/commit_script.py) and create_game.lua (store/create_script.py). Each script opens
with the header and prelude generated from its declaration, its body names slots only through
the prelude and uses every one, and it returns only declared codes."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

import pytest

from flotilla.store import commit_script, create_script


@dataclass(frozen=True)
class Declared:
    script: str
    prelude: Callable[[], str]
    keys: type
    args: type
    codes: type[enum.IntEnum]
    returns: str  # how the body returns a code

    def text(self) -> str:
        return resources.files("flotilla.store").joinpath(f"scripts/{self.script}").read_text()

    def body(self) -> str:
        return self.text()[len(self.prelude()) :]


DECLARED = [
    Declared(
        "commit_transition.lua",
        commit_script.lua_prelude,
        commit_script.CommitKeys,
        commit_script.CommitArgs,
        commit_script.CommitCode,
        r"return \{(-?\d+),",
    ),
    Declared(
        "create_game.lua",
        create_script.lua_prelude,
        create_script.CreateKeys,
        create_script.CreateArgs,
        create_script.CreateCode,
        r"return (-?\d+)\b",
    ),
]
each = pytest.mark.parametrize("declared", DECLARED, ids=[d.script for d in DECLARED])


@each
def test_the_script_opens_with_the_declared_header_and_slots(declared: Declared) -> None:
    # On failure: write the declaration's lua_prelude() (printed below) over the script's opening.
    assert declared.text().startswith(declared.prelude()), declared.prelude()


@each
def test_the_body_names_slots_only_through_the_prelude(declared: Declared) -> None:
    body = declared.body()
    assert not re.search(r"\b(KEYS|ARGV)\s*\[", body), "use the prelude's names, not KEYS[n] / ARGV[n]"
    words = set(re.findall(r"\b\w+\b", body))
    unused = [f"k_{name}" for name in declared.keys.__dataclass_fields__ if f"k_{name}" not in words]
    unused += [name for name in declared.args.__dataclass_fields__ if name not in words]
    assert not unused, f"declared but unused slots: {unused}"


@each
def test_the_body_returns_only_declared_codes(declared: Declared) -> None:
    codes = {int(code) for code in re.findall(declared.returns, declared.body())}
    assert codes == {int(code) for code in declared.codes}


@each
def test_the_prelude_follows_the_declaration_order(declared: Declared) -> None:
    # Reordering the dataclass fields must change what the script is checked against.
    slots = re.findall(r"^local (\w+) = (KEYS|ARGV)\[(\d+)\]$", declared.prelude(), re.M)
    names = [f"k_{n}" for n in declared.keys.__dataclass_fields__] + list(declared.args.__dataclass_fields__)
    assert [name for name, _, _ in slots] == names
    argv = list(declared.args.__dataclass_fields__)
    assert [int(i) for _, array, i in slots if array == "ARGV"] == list(range(1, len(argv) + 1))


def test_a_create_call_sends_the_slots_in_the_declared_order() -> None:
    args = create_script.CreateArgs(**{name: name for name in create_script.CreateArgs.__dataclass_fields__})
    call = create_script.create_call(create_script.CreateKeys("g", "e", "s"), args)
    assert call == {"keys": ["g", "e", "s"], "args": list(create_script.CreateArgs.__dataclass_fields__)}
