"""create_game.lua's slots and result codes are declared once (store/create_script.py, with the
machinery of store/script_slots.py that the commit script's declaration uses too,
tests/records/test_commit_script.py): the script opens with the generated header and prelude, its
body names slots only through the prelude, uses every one, and returns only declared codes."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from flotilla.store.create_script import CreateArgs, CreateCode, CreateKeys, create_call, lua_prelude

SCRIPT = resources.files("flotilla.store").joinpath("scripts/create_game.lua").read_text()


def _body() -> str:
    return SCRIPT[len(lua_prelude()) :]


def test_the_script_opens_with_the_declared_header_and_slots() -> None:
    # On failure: write lua_prelude() (printed below) over the script's opening.
    assert SCRIPT.startswith(lua_prelude()), lua_prelude()


def test_the_body_names_slots_only_through_the_prelude() -> None:
    body = _body()
    assert not re.search(r"\b(KEYS|ARGV)\s*\[", body), "use the prelude's names, not KEYS[n] / ARGV[n]"
    words = set(re.findall(r"\b\w+\b", body))
    unused = [f"k_{name}" for name in CreateKeys.__dataclass_fields__ if f"k_{name}" not in words]
    unused += [name for name in CreateArgs.__dataclass_fields__ if name not in words]
    assert not unused, f"declared but unused slots: {unused}"


def test_the_body_returns_only_declared_codes() -> None:
    codes = {int(code) for code in re.findall(r"return (-?\d+)\b", _body())}
    assert codes == {int(code) for code in CreateCode}


def test_a_call_follows_the_declaration_order() -> None:
    args = CreateArgs(**{name: name for name in CreateArgs.__dataclass_fields__})
    call = create_call(CreateKeys("g", "e", "s"), args)
    assert call["keys"] == ["g", "e", "s"]
    assert call["args"] == list(CreateArgs.__dataclass_fields__)
    prelude = lua_prelude()
    slots = re.findall(r"^local (\w+) = ARGV\[(\d+)\]$", prelude, re.M)
    assert [(name, int(i)) for name, i in slots] == [(n, i + 1) for i, n in enumerate(CreateArgs.__dataclass_fields__)]


@pytest.mark.parametrize("missing", ["holders", "lineage"])
def test_a_slot_the_body_stops_using_fails(missing: str) -> None:
    """The unused-slot check can fail: a body without a slot's name is caught."""
    body = re.sub(rf"\b{missing}\b", "x", _body())
    words = set(re.findall(r"\b\w+\b", body))
    assert missing not in words
