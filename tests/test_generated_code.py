"""Generated protobuf code is in step with proto/ (the error catalogue: tests/gateway/test_error_table.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_matches_the_proto_files(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--out", str(tmp_path)], check=True)
    fresh = {p.relative_to(tmp_path): p.read_bytes() for p in (tmp_path / "flotilla" / "api").rglob("*") if p.is_file()}
    committed = {
        p.relative_to(ROOT / "server"): p.read_bytes()
        for p in (ROOT / "server" / "flotilla" / "api").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    stale = sorted(str(p) for p in fresh.keys() | committed.keys() if fresh.get(p) != committed.get(p))
    assert not stale, f"run `python scripts/gen_protos.py`; out of date: {stale}"
    assert not (ROOT / "server" / "flotilla" / "api").exists(), "the generated API lives only in the SDK"
