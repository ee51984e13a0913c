"""The SDK is its own distribution: it builds, installs alone beside grpcio and protobuf, and
imports nothing of the server (nor googleapis-common-protos or grpcio-status)."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "python"
ALLOWED_TOP = {"flotilla_client", "grpc", "google"}  # google: google.protobuf only (checked below)


def _run(
    args: list[str | Path], env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=150, env=env, cwd=cwd)


def _link(dist: importlib.metadata.Distribution, site: Path) -> None:
    """Make `dist` (installed here) importable in `site` by linking its top-level files."""
    tops = {
        Path(str(f)).parts[:2] if str(f).startswith("google/") else Path(str(f)).parts[:1] for f in dist.files or ()
    }
    for top in sorted(tops):
        source = Path(str(dist.locate_file(Path(*top))))
        target = site.joinpath(*top)
        if ".." in top or "__pycache__" in top or not source.exists() or target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(source)


def test_the_sdk_imports_only_grpc_protobuf_and_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names
    for path in (SDK / "flotilla_client").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top in ALLOWED_TOP, f"{path.relative_to(ROOT)} imports {name}"
                assert top != "google" or name.startswith("google.protobuf"), f"{path.relative_to(ROOT)}: {name}"


@pytest.mark.timeout(180)
def test_the_sdk_installs_alone_and_imports_without_the_server(tmp_path: Path) -> None:
    """A wheel of clients/python, installed with --no-deps into a fresh venv that holds only grpcio
    and protobuf (linked in from this venv), imports and builds requests."""
    wheels = tmp_path / "wheels"
    source = tmp_path / "sdk"  # built from a copy: setuptools writes build/ next to the sources
    shutil.copytree(SDK, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(wheels),
            str(source),
        ]
    )
    (wheel,) = wheels.glob("flotilla_client-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import site; print(site.getsitepackages()[0])"]).stdout.strip())
    for dist in ("grpcio", "protobuf", "typing-extensions"):  # the SDK's dependencies and theirs
        _link(importlib.metadata.distribution(dist), site)
    pip: list[str | Path] = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "-q",
        "--no-deps",
        "--no-index",
    ]
    pip.append(wheel)
    _run(pip)
    probe = (
        "import sys, importlib, pkgutil, flotilla_client\n"
        "for m in pkgutil.walk_packages(flotilla_client.__path__, 'flotilla_client.'):\n"
        "    importlib.import_module(m.name)\n"
        "from flotilla_client import FlotillaSyncClient, FlotillaClient\n"
        "from flotilla.api.game.v1 import game_service_pb2\n"
        "assert 'site-packages' in flotilla_client.__file__, flotilla_client.__file__\n"
        "server = ('flotilla', 'grpc_status', 'google.rpc')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in server or m.startswith(server[-1]))\n"
        "assert not bad, bad\n"
        "print(game_service_pb2.CreateGameRequest(kind='sail_away').kind)\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONNOUSERSITE": "1"}
    done = _run([python, "-I", "-c", probe], env=env, cwd=tmp_path)
    assert done.stdout.strip() == "sail_away"
    server = subprocess.run(
        [python, "-I", "-c", "import flotilla"], env=env, cwd=tmp_path, check=False, capture_output=True
    )
    assert server.returncode != 0  # the server is not there: what imported above needed none of it
