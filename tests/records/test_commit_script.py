"""The commit script's slots and result codes are declared once (store/commit_script.py): the
script's opening is generated from the declaration, and its body uses the declared names only."""

from __future__ import annotations

import re
from importlib import resources

from flotilla.store.commit_script import CommitArgs, CommitCode, CommitKeys, lua_prelude

SCRIPT = resources.files("flotilla.store").joinpath("scripts/commit_transition.lua").read_text()


def _body() -> str:
    return SCRIPT[len(lua_prelude()) :]


def test_the_script_opens_with_the_declared_header_and_slots() -> None:
    # On failure: write lua_prelude() (printed below) over the script's opening.
    assert SCRIPT.startswith(lua_prelude()), lua_prelude()


def test_the_body_names_slots_only_through_the_prelude() -> None:
    body = _body()
    assert not re.search(r"\b(KEYS|ARGV)\s*\[", body), "use the prelude's names, not KEYS[n] / ARGV[n]"
    words = set(re.findall(r"\b\w+\b", body))
    unused = [f"k_{name}" for name in CommitKeys.__dataclass_fields__ if f"k_{name}" not in words]
    unused += [name for name in CommitArgs.__dataclass_fields__ if name not in words]
    assert not unused, f"declared but unused slots: {unused}"


def test_the_body_returns_only_declared_codes() -> None:
    codes = {int(code) for code in re.findall(r"return \{(-?\d+),", _body())}
    assert codes == {int(code) for code in CommitCode}


def test_the_prelude_follows_the_declaration_order() -> None:
    # Reordering the dataclass fields must change what the script is checked against.
    prelude = lua_prelude()
    slots = re.findall(r"^local (\w+) = (KEYS|ARGV)\[(\d+)\]$", prelude, re.M)
    names = [f"k_{n}" for n in CommitKeys.__dataclass_fields__] + list(CommitArgs.__dataclass_fields__)
    assert [name for name, _, _ in slots] == names
    assert [int(i) for _, array, i in slots if array == "ARGV"] == list(
        range(1, len(CommitArgs.__dataclass_fields__) + 1)
    )
