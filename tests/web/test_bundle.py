"""The web client's bundle shipped in the package (server/flotilla/web/static) is what its sources
build: `npm run build` in clients/web into a temporary directory gives the same files, byte for
byte (as tests/test_generated_code.py checks the generated protobuf code); and its sources are
strict-typed (`npm run check`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
WEB = ROOT / "clients" / "web"
SHIPPED = ROOT / "server" / "flotilla" / "web" / "static"


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def node(*args: str, env: dict[str, str] | None = None) -> None:
    """Runs `node args` in clients/web; fails the test with its output unless it exits 0."""
    binary = shutil.which("node")
    if binary is None:
        pytest.fail("node not found: the web client is built with Node.js >= 20 and npm")
    if not (WEB / "node_modules").is_dir():
        pytest.fail("clients/web/node_modules is missing: run ./scripts/bootstrap (npm ci)")
    done = subprocess.run(
        [binary, *args],
        cwd=WEB,
        env=dict(os.environ, **(env or {})),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_shipped_bundle_is_built_from_the_sources(tmp_path: Path) -> None:
    out = tmp_path / "static"
    # `npm run build`, without npm's start-up
    node("node_modules/vite/bin/vite.js", "build", "--logLevel", "warn", env={"FLOTILLA_WEB_OUT": str(out)})
    fresh, shipped = files(out), files(SHIPPED)
    assert "index.html" in shipped
    stale = sorted(name for name in fresh.keys() | shipped.keys() if fresh.get(name) != shipped.get(name))
    assert not stale, f"run `npm run build` in clients/web and commit server/flotilla/web/static; differs: {stale}"


def test_the_sources_are_strict_typed() -> None:
    node("node_modules/typescript/bin/tsc", "--noEmit", "-p", "tsconfig.json")  # `npm run check`
