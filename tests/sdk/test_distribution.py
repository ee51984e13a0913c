"""The SDK is its own distribution: it builds, installs alone beside the generated API (flotilla-api,
api/python) and its dependencies (grpcio, protobuf, googleapis-common-protos), and imports nothing of
the server (nor grpcio-status)."""

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
API = ROOT / "api" / "python"
ALLOWED = ("flotilla_client", "flotilla.api", "grpc", "google.protobuf", "google.rpc")
PIP: list[str | Path] = [sys.executable, "-m", "pip"]
UV = shutil.which("uv", path=Path(sys.executable).parent)
"""uv, which scripts/bootstrap installs into the venv (a fifth of pip's CPU), builds and installs; else pip."""


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


def test_the_sdk_imports_only_the_generated_api_grpc_protobuf_and_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names
    for path in (SDK / "flotilla_client").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                allowed = name.split(".")[0] in stdlib or any(name == a or name.startswith(f"{a}.") for a in ALLOWED)
                assert allowed, f"{path.relative_to(ROOT)} imports {name}"


@pytest.mark.timeout(180)
def test_the_sdk_installs_alone_and_imports_without_the_server(tmp_path: Path) -> None:
    """Wheels of clients/python and api/python, installed with --no-deps into a fresh venv that holds
    only their dependencies (linked in from this venv), import and build requests."""
    wheels = tmp_path / "wheels"
    sources = [tmp_path / "sdk", tmp_path / "api"]  # built from copies: setuptools writes build/ next to the sources
    for tree, source in zip((SDK, API), sources, strict=True):
        shutil.copytree(tree, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    if UV is None:  # setuptools (their pyproject.toml's build backend) builds the wheels, under pip or uv
        _run([*PIP, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", wheels, *sources])
    for source in sources if UV is not None else ():
        _run([UV, "build", "-q", "--wheel", "--no-build-isolation", "--python", sys.executable, "-o", wheels, source])
    assert sorted(p.name.split("-")[0] for p in wheels.glob("*.whl")) == ["flotilla_api", "flotilla_client"]
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import site; print(site.getsitepackages()[0])"]).stdout.strip())
    for dist in ("grpcio", "protobuf", "googleapis-common-protos", "typing-extensions"):  # the dependencies
        _link(importlib.metadata.distribution(dist), site)
    install = [*PIP, "--python", python, "install"] if UV is None else [UV, "pip", "install", "--python", python]
    _run([*install, "-q", "--no-deps", "--no-index", *wheels.glob("*.whl")])
    probe = (
        "import sys, importlib, pkgutil, flotilla_client\n"
        "for m in pkgutil.walk_packages(flotilla_client.__path__, 'flotilla_client.'):\n"
        "    importlib.import_module(m.name)\n"
        "from flotilla_client import FlotillaSyncClient, FlotillaClient\n"
        "from flotilla.api.game.v1 import game_service_pb2\n"
        "from flotilla.api.game.v1 import game_service_pb2 as old_home\n"
        "assert old_home is game_service_pb2\n"
        "assert 'site-packages' in flotilla_client.__file__, flotilla_client.__file__\n"
        "assert 'site-packages' in game_service_pb2.__file__, game_service_pb2.__file__\n"
        "server = ('flotilla.', 'grpc_status')\n"
        "bad = sorted(m for m in sys.modules if m.startswith(server) and not m.startswith('flotilla.api'))\n"
        "assert not bad, bad\n"
        "print(game_service_pb2.CreateGameRequest(kind='sail_away').kind)\n"
    )
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONNOUSERSITE": "1"}
    done = _run([python, "-I", "-c", probe], env=env, cwd=tmp_path)
    assert done.stdout.strip() == "sail_away"
    server = subprocess.run(
        [python, "-I", "-c", "import flotilla.cli"], env=env, cwd=tmp_path, check=False, capture_output=True
    )
    assert server.returncode != 0  # the server is not there: what imported above needed none of it
