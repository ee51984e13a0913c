"""Generate the Python API package (api/python, the `flotilla-api` distribution) from proto/.

protoc's output for every .proto under proto/flotilla/, as protoc writes it (no rewriting): the
module of `proto/flotilla/api/game/v1/game.proto` is `flotilla.api.game.v1.game_pb2`, next to its
.pyi stub and its _grpc.py. `flotilla` is a namespace package shared with the server (neither has
`flotilla/__init__.py`; docs/notes.md says why); `flotilla/api/` and its folders get an
`__init__.py` (HEADER) and `flotilla/api/py.typed`. `google.rpc` and `google.api` are not
generated: the code imports them from googleapis-common-protos, the package's dependency.
proto/third_party/ (byte-identical copies of those google files) is only an include path.
tests/test_generated_code.py checks the committed files against a fresh run.

Usage: python scripts/gen_protos.py [--out DIR]   (DIR is the package's import root)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
THIRD_PARTY = PROTO / "third_party"  # google/rpc and google/api protos, byte-identical to googleapis-common-protos'
API = ROOT / "api" / "python"  # the flotilla-api distribution's import root
PACKAGE = Path("flotilla") / "api"  # what protoc writes for proto/flotilla/api/, relative to the import root
HEADER = '"""Generated from proto/ by scripts/gen_protos.py; do not edit."""\n'
MARKER = "py.typed"  # PEP 561: the generated .pyi stubs are the package's types


def _protoc(out: Path, files: list[str]) -> None:
    include = str(Path(grpc_tools.__file__).parent / "_proto")  # google/protobuf/*
    args = ["grpc_tools.protoc", f"-I{PROTO}", f"-I{THIRD_PARTY}", f"-I{include}"]
    args += [f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}", *files]
    if protoc.main(args) != 0:
        sys.exit("protoc failed")


def fresh_files() -> dict[Path, bytes]:
    """What `generate` writes (path relative to the import root -> content): protoc's output for
    proto/flotilla/, an `__init__.py` in every folder under flotilla/api/ and the py.typed marker."""
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "flotilla").rglob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        generated = Path(tmp)
        _protoc(generated, files)
        out = {p.relative_to(generated): p.read_bytes() for p in generated.rglob("*") if p.is_file()}
    stray = sorted(str(p) for p in out if p.parts[:2] != PACKAGE.parts)
    if stray:
        sys.exit(f"protoc wrote outside {PACKAGE}: {stray}")
    folders = {folder for p in out for folder in p.parents if PACKAGE in (folder, *folder.parents)}
    out |= {folder / "__init__.py": HEADER.encode() for folder in folders}
    out[PACKAGE / MARKER] = b""
    return out


def committed_files(root: Path = API) -> dict[Path, bytes]:
    """The generated files under `root` (relative path -> content), __pycache__ left out."""
    return {
        p.relative_to(root): p.read_bytes()
        for p in (root / PACKAGE).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def generate(out: Path) -> None:
    """Write the package into `out` (its import root, e.g. api/python/): files no longer generated go."""
    fresh = fresh_files()
    for stale in committed_files(out).keys() - fresh.keys():
        (out / stale).unlink()
    for path, content in fresh.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_bytes(content)
    for folder in sorted((out / PACKAGE).rglob("*"), reverse=True):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=API, help="the package's import root (default: api/python)")
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
