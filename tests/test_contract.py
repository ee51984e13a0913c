"""The contract in proto/ builds on its own, passes `buf lint` (STANDARD and COMMENTS) and `buf
format`, and breaks nothing a released client relies on (`buf breaking`, WIRE_JSON, against
proto/baseline/)."""

from __future__ import annotations

import importlib
import shutil
import subprocess
from pathlib import Path

import pytest
from google.api import field_behavior_pb2
from google.protobuf.descriptor import Descriptor

import flotilla.api

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
BUF = ROOT / "tools" / "node_modules" / ".bin" / "buf"
BASELINE = PROTO / "baseline" / "flotilla-v1.binpb"


def run_buf(*args: str, cwd: Path = PROTO) -> subprocess.CompletedProcess[str]:
    """buf's answer on a proto tree (proto/ unless told)."""
    if not BUF.exists():
        pytest.fail("buf is missing: run ./scripts/bootstrap (npm ci --prefix tools)")
    return subprocess.run([str(BUF), *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


def buf(*args: str) -> None:
    """Run buf on proto/ and fail with what it printed."""
    done = run_buf(*args)
    if done.returncode != 0:
        pytest.fail(f"buf {' '.join(args)} failed:\n{done.stdout}{done.stderr}", pytrace=False)


def test_buf_build_compiles_the_contract_with_only_what_it_ships() -> None:
    buf("build", "--output", "/dev/null")


def test_buf_lint_finds_nothing() -> None:
    buf("lint")


def test_buf_format_leaves_the_contract_as_it_is() -> None:
    buf("format", "--diff", "--exit-code")


def test_buf_breaking_finds_no_change_that_breaks_released_clients() -> None:
    # Only our own files: the vendored Google protos are another module (a workspace of two
    # modules is compared module by module, and the baseline is one image).
    buf("breaking", "--against", str(BASELINE), "--path", "flotilla")


def test_buf_breaking_and_lint_catch_a_renamed_field_and_a_missing_comment(tmp_path: Path) -> None:
    """The checks above can fail: a copy of proto/ with Game.kind renamed (its JSON name changes) and
    its comment dropped is refused by both."""
    tree = tmp_path / "proto"
    shutil.copytree(PROTO, tree)
    game = tree / "flotilla" / "api" / "game" / "v1" / "game.proto"
    text = game.read_text()
    field = text.index("  string kind = 2;")
    comment = text.rindex("  // ", 0, field)
    game.write_text(text[:comment] + "  string game_kind = 2;" + text[field + len("  string kind = 2;") :])
    broken = run_buf("breaking", "--against", str(BASELINE), "--path", "flotilla", cwd=tree)
    assert broken.returncode != 0, broken.stderr
    assert '"kind"' in broken.stdout, broken.stdout
    linted = run_buf("lint", cwd=tree)
    assert linted.returncode != 0, linted.stderr
    assert '"game_kind"' in linted.stdout, linted.stdout


def request_messages() -> list[Descriptor]:
    """The request message of every RPC of every service in flotilla.api (the generated code, api/python)."""
    api = Path(flotilla.api.__file__).parent
    found: dict[str, Descriptor] = {}
    for path in sorted(api.rglob("*_pb2.py")):
        name = "flotilla.api." + ".".join(path.relative_to(api).with_suffix("").parts)
        for service in importlib.import_module(name).DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                found[method.input_type.full_name] = method.input_type
    return list(found.values())


def test_every_request_field_says_whether_it_is_required() -> None:
    """AIP-203: every field of every request carries google.api.field_behavior (docs/wire.md)."""
    messages = request_messages()
    assert len(messages) >= 38, [m.full_name for m in messages]  # every RPC of today at least
    bare = [
        f.full_name
        for m in messages
        for f in m.fields
        if not f.GetOptions().Extensions[field_behavior_pb2.field_behavior]
    ]
    assert not bare, f"add [(google.api.field_behavior) = REQUIRED or OPTIONAL] to {bare}"


def test_every_action_case_says_it_is_optional() -> None:
    """AIP-203 for the oneofs of requests: every case of the `Action` envelope and of each game's
    `Action` carries field_behavior, OPTIONAL (a oneof member is never REQUIRED on its own)."""
    api = Path(flotilla.api.__file__).parent
    actions = []
    for path in sorted(api.rglob("*_pb2.py")):
        module = importlib.import_module("flotilla.api." + ".".join(path.relative_to(api).with_suffix("").parts))
        if "Action" in module.DESCRIPTOR.message_types_by_name:
            actions.append(module.DESCRIPTOR.message_types_by_name["Action"])
    assert len(actions) == 6, [m.full_name for m in actions]  # the envelope and five games
    behaviours = {
        f.full_name: list(f.GetOptions().Extensions[field_behavior_pb2.field_behavior])
        for m in actions
        for oneof in m.oneofs
        for f in oneof.fields
    }
    assert len(behaviours) > 80
    wrong = [name for name, b in behaviours.items() if b != [field_behavior_pb2.OPTIONAL]]
    assert not wrong, f"mark these oneof cases [(google.api.field_behavior) = OPTIONAL]: {wrong}"
