"""The code stays ruff-clean, ruff-formatted, mypy-strict-clean, and its layers one-way (the
settings and import contracts are in pyproject.toml)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_changes_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


def _contracts() -> list[dict[str, Any]]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        contracts: list[dict[str, Any]] = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    return contracts


def test_import_contracts_are_kept() -> None:
    """The layers (wire edge -> app -> store -> records -> games -> rules), rules and games pure, only the
    store importing redis, only the gateway the generated API, the SDK no server code, all kept with no
    ignored import beyond the listed known crossings (contracts: [tool.importlinter])."""
    done = subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert f"{len(_contracts())} kept, 0 broken" in done.stdout


def test_layers_contract_has_no_exceptions_and_can_fail(tmp_path: Path) -> None:
    """The layers contract ignores no import (issue 25: "holds with no exceptions"), and it can fail:
    the same layers in reverse order are reported broken (every layer imports the ones below it)."""
    (layers,) = (c for c in _contracts() if c.get("id") == "layers")
    assert "ignore_imports" not in layers, "fix a crossing in the code; do not list it"
    reversed_layers = {**layers, "layers": list(reversed(layers["layers"]))}
    config = tmp_path / "layers.toml"
    root = '[tool.importlinter]\nroot_packages = ["flotilla", "flotilla_client"]\n'
    body = "".join(f"{k} = {_toml(v)}\n" for k, v in reversed_layers.items())
    config.write_text(f"{root}\n[[tool.importlinter.contracts]]\n{body}")
    done = subprocess.run(
        [LINT_IMPORTS, "--no-cache", "--config", str(config)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1, done.stdout[-5000:] + done.stderr[-2000:]
    assert "BROKEN" in done.stdout, done.stdout[-3000:]
    assert "flotilla.rules" in done.stdout, done.stdout[-3000:]


def _toml(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)  # a JSON string or bool is a TOML one


@pytest.mark.slow
def test_mypy_strict_finds_nothing() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", "/dev/null"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
