"""Generated protobuf code is in step with proto/, and the wire error catalogue is complete."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from flotilla.app.outcome import ERROR_CLASSES
from flotilla_client.api.game.v1 import error_reason_pb2

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


def test_every_error_reason_has_a_wire_name() -> None:
    wire = set(error_reason_pb2.ErrorReason.keys())
    missing = sorted(r for r in ERROR_CLASSES if f"ERROR_REASON_{r}" not in wire)
    assert not missing, f"add these to error_reason.proto: {missing}"
