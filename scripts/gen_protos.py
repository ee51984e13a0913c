"""Generate Python code from proto/ into the SDK (committed; a test checks drift).

Every .proto under proto/flotilla/ lands in clients/python/flotilla_client/api/ (the one copy of
the generated Python: the server imports it from the SDK), and every google/* file it needs (the
google.rpc Status, ErrorInfo and RetryInfo, anything vendored under proto/third_party/google/ and what they
import) in flotilla_client/_google/, so the SDK needs no googleapis-common-protos. Their imports
are rewritten to those places. A google/* file not vendored is compiled from the
.proto sources googleapis-common-protos ships, so both register identical descriptors in a
process that loads both (the server) and share one message class.

Usage: python scripts/gen_protos.py [--out DIR]   (DIR is the SDK's import root)
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
THIRD_PARTY = PROTO / "third_party"  # vendored google/rpc and google/api protos, byte-identical to googleapis'
SDK = ROOT / "clients" / "python"
GOOGLE_RPC = ("google/rpc/status.proto", "google/rpc/error_details.proto")  # what the SDK itself reads
HEADER = '"""Generated from proto/ by scripts/gen_protos.py; do not edit."""\n'
IMPORT = re.compile(r'^import\s+(?:public\s+|weak\s+)?"([^"]+\.proto)";', re.M)
# (pattern, replacement) over generated .py/.pyi: the proto packages' Python homes inside the SDK
REWRITES = (
    (re.compile(r"^(from|import) flotilla\.api\b", re.M), r"\1 flotilla_client.api"),
    (re.compile(r"^(from|import) google\.(?!protobuf\b)", re.M), r"\1 flotilla_client._google."),
)


def _googleapis_root() -> Path | None:
    """googleapis-common-protos' .proto files (a dev-time dependency), for the google/* files
    that proto/ imports but does not vendor; None when it is not installed."""
    try:
        import google.rpc.status_pb2  # noqa: PLC0415 (only this fallback needs it)
    except ImportError:
        return None
    return Path(google.rpc.status_pb2.__file__).parent.parent.parent


def _google_protos(googleapis: Path | None) -> list[str]:
    """The google/* files (not the well-known google/protobuf ones, which protobuf ships) that
    the SDK needs: GOOGLE_RPC, those vendored under proto/third_party/google/, and all they and
    proto/ import, transitively. Each is read from proto/third_party/ first, then from googleapis."""
    vendored = {str(p.relative_to(THIRD_PARTY)) for p in (THIRD_PARTY / "google").rglob("*.proto")}
    wanted = set(GOOGLE_RPC) | vendored
    todo = [*wanted, *(str(p.relative_to(PROTO)) for p in (PROTO / "flotilla").rglob("*.proto"))]
    while todo:
        name = todo.pop()
        local = next((root / name for root in (PROTO, THIRD_PARTY) if (root / name).exists()), None)
        path = local or (googleapis or THIRD_PARTY) / name
        for dep in IMPORT.findall(path.read_text()):
            if dep.startswith("google/") and not dep.startswith("google/protobuf/") and dep not in wanted:
                wanted.add(dep)
                todo.append(dep)
    return sorted(wanted)


def _protoc(out: Path, files: list[str], googleapis: Path | None) -> None:
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    args = ["grpc_tools.protoc", f"-I{PROTO}", f"-I{THIRD_PARTY}", f"-I{include}"]
    args += [f"-I{googleapis}"] if googleapis else []
    args += [f"--python_out={out}", f"--pyi_out={out}", f"--grpc_python_out={out}", *files]
    if protoc.main(args) != 0:
        sys.exit("protoc failed")


def _place(generated: Path, source: Path, target: Path) -> None:
    """Move `generated/source` to `target` with imports rewritten and __init__.py in every folder."""
    for path in sorted(p for p in (generated / source).rglob("*") if p.is_file()):
        if path.name.endswith("_grpc.py") and "google" in source.parts:
            continue  # the SDK calls no google service
        text = path.read_text()
        for pattern, replacement in REWRITES:
            text = pattern.sub(replacement, text)
        dest = target / path.relative_to(generated / source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text)
    for directory in [target, *[p for p in target.rglob("*") if p.is_dir()]]:
        init = directory / "__init__.py"
        if not init.exists():
            init.write_text(HEADER)


def generate(out: Path) -> None:
    """Compile proto/ into `out` (the SDK's import root, e.g. clients/python/)."""
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "flotilla").rglob("*.proto"))
    googleapis = _googleapis_root()
    with tempfile.TemporaryDirectory() as tmp:
        generated = Path(tmp)
        _protoc(generated, [*files, *_google_protos(googleapis)], googleapis)
        _place(generated, Path("flotilla/api"), out / "flotilla_client" / "api")
        _place(generated, Path("google"), out / "flotilla_client" / "_google")


def generated_files(out: Path) -> dict[Path, bytes]:
    """Every generated file under `out` (relative path -> content), as `generate` writes them."""
    roots = [out / "flotilla_client" / "api", out / "flotilla_client" / "_google"]
    return {
        p.relative_to(out): p.read_bytes()
        for root in roots
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=SDK)
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
