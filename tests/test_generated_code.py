"""The generated API package (api/python, `flotilla-api`) is protoc's output for proto/, unchanged, and
the only copy of it (the error catalogue: tests/gateway/test_error_table.py)."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_protos", ROOT / "scripts" / "gen_protos.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_protos = _load_script()
ALLOWED = {"google.protobuf", "google.rpc", "google.api", "grpc", "warnings", "flotilla.api"}  # what the API needs


def test_committed_api_package_is_a_fresh_protoc_run() -> None:
    fresh = gen_protos.fresh_files()
    committed = gen_protos.committed_files()
    assert len(fresh) > 40, sorted(map(str, fresh))  # every proto file's three outputs, the __init__.py files
    stale = sorted(str(p) for p in fresh.keys() | committed.keys() if fresh.get(p) != committed.get(p))
    assert not stale, f"run `python scripts/gen_protos.py`; out of date: {stale}"


def test_the_generated_code_needs_only_protobuf_grpcio_and_googleapis_common_protos() -> None:
    """protoc's own import names (flotilla.api for proto/flotilla/api, google.rpc and google.api from
    googleapis-common-protos), nothing of the SDK or the server."""
    for path, content in gen_protos.fresh_files().items():
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(content)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            for name in names:
                assert any(name == a or name.startswith(a + ".") for a in ALLOWED), f"{path} imports {name}"


def test_the_script_writes_the_package_into_a_fresh_directory(tmp_path: Path) -> None:
    """The script, run as documented, writes what the committed package holds and removes a file
    that is no longer generated."""
    stray = tmp_path / "flotilla" / "api" / "gone" / "v1" / "gone_pb2.py"
    stray.parent.mkdir(parents=True)
    stray.write_text("")
    subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--out", str(tmp_path)], check=True)
    assert gen_protos.committed_files(tmp_path) == gen_protos.committed_files()
    assert not stray.parent.parent.exists()


def test_there_is_one_copy_of_the_generated_code() -> None:
    """No generated module outside api/python (the SDK and the server import flotilla.api)."""
    copies = [
        p.relative_to(ROOT)
        for top in ("server", "clients/python")
        for p in (ROOT / top).rglob("*_pb2*.py*")
        if "__pycache__" not in p.parts
    ]
    assert not copies, copies
    assert not (ROOT / "server" / "flotilla" / "__init__.py").exists(), "flotilla is a namespace package"
