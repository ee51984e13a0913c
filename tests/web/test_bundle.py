"""The web client's bundle shipped in the package (server/flotilla/web/static) is what its sources
build: `npm run build` in clients/web into a temporary directory gives the same files, byte for
byte (as tests/test_generated_code.py checks the generated protobuf code)."""

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


def test_the_shipped_bundle_is_built_from_the_sources(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found: the web client is built with Node.js >= 20 and npm")
    if not (WEB / "node_modules").is_dir():
        pytest.fail("clients/web/node_modules is missing: run ./scripts/bootstrap (npm ci)")
    out = tmp_path / "static"
    done = subprocess.run(
        [node, "node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"],  # `npm run build`, without npm
        cwd=WEB,
        env=dict(os.environ, FLOTILLA_WEB_OUT=str(out)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh, shipped = files(out), files(SHIPPED)
    assert "index.html" in shipped
    stale = sorted(name for name in fresh.keys() | shipped.keys() if fresh.get(name) != shipped.get(name))
    assert not stale, f"run `npm run build` in clients/web and commit server/flotilla/web/static; differs: {stale}"
