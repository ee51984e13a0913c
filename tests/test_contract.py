"""The contract in proto/ builds on its own, passes `buf lint` (STANDARD and COMMENTS) and breaks
nothing a released client relies on (`buf breaking`, WIRE_JSON, against proto/baseline/)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
BUF = ROOT / "tools" / "node_modules" / ".bin" / "buf"
BASELINE = PROTO / "baseline" / "flotilla-v1.binpb"


def buf(*args: str) -> None:
    """Run buf on proto/ and fail with what it printed."""
    if not BUF.exists():
        pytest.fail("buf is missing: run ./scripts/bootstrap (npm ci --prefix tools)")
    done = subprocess.run([str(BUF), *args], cwd=PROTO, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        pytest.fail(f"buf {' '.join(args)} failed:\n{done.stdout}{done.stderr}", pytrace=False)


def test_buf_build_compiles_the_contract_with_only_what_it_ships() -> None:
    buf("build", "--output", "/dev/null")


def test_buf_lint_finds_nothing() -> None:
    buf("lint")


def test_buf_breaking_finds_no_change_that_breaks_released_clients() -> None:
    # Only our own files: the vendored Google protos are another module (a workspace of two
    # modules is compared module by module, and the baseline is one image).
    buf("breaking", "--against", str(BASELINE), "--path", "flotilla")
