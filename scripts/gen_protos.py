"""Generate Python code from proto/ into server/flotilla/api/ (committed; a test checks drift).

Usage: python scripts/gen_protos.py [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grpc_tools
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTO = ROOT / "proto"
THIRD_PARTY = PROTO / "third_party"  # vendored google/rpc, google/api protos (their Python is googleapis-common-protos)


def generate(out: Path) -> None:
    """Compile every .proto under proto/flotilla/ into `out` (the import root, e.g. server/)."""
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "flotilla").rglob("*.proto"))
    include = str(Path(grpc_tools.__file__).parent / "_proto")  # google/protobuf/*.proto
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO}",
        f"-I{THIRD_PARTY}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *files,
    ]
    if protoc.main(args) != 0:
        sys.exit("protoc failed")
    api = out / "flotilla" / "api"
    for directory in [api, *[p for p in api.rglob("*") if p.is_dir()]]:
        init = directory / "__init__.py"
        if not init.exists():
            init.write_text('"""Generated from proto/; do not edit."""\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "server")
    generate(parser.parse_args().out)


if __name__ == "__main__":
    main()
