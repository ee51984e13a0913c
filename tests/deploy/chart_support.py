"""Render helm/flotilla with Helm's own engine (the helm-python-sdk package: Helm's Go SDK as a
shared library, no helm binary, no network), and small helpers to look into the manifests."""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import helm_python as helm
import yaml
from helm_python import _native

from flotilla.settings import variables

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "helm" / "flotilla"
RELEASE = "fl"
NAMESPACE = "games"
KEDA_API = "keda.sh/v1alpha1"

Manifest = dict[str, Any]
Render = Callable[..., list[Manifest]]


def render_chart(
    chart: helm.Chart, values: dict[str, Any] | None = None, api_versions: Sequence[str] = ()
) -> list[Manifest]:
    """Render like `helm template` and return the manifests (NOTES.txt left out).

    `api_versions` plays `helm template --api-versions`: what `.Capabilities.APIVersions.Has`
    sees. The SDK's Python `render` has no argument for it; its native render call takes the
    option, so it is passed there (the version is pinned in pyproject.toml for that reason).
    """
    if api_versions:
        opts = {"name": RELEASE, "namespace": NAMESPACE, "api_versions": list(api_versions)}
        raw = _native.call_string("helm_render", chart._raw(), json.dumps(values or {}), json.dumps(opts))
        files: dict[str, str] = json.loads(raw)
    else:
        files = chart.render(values or {}, name=RELEASE, namespace=NAMESPACE)
    manifests: list[Manifest] = []
    for name, text in sorted(files.items()):
        if name.endswith("NOTES.txt"):
            continue
        manifests.extend(doc for doc in yaml.safe_load_all(text) if doc)
    return manifests


def find(manifests: list[Manifest], kind: str, name: str | None = None) -> list[Manifest]:
    return [m for m in manifests if m["kind"] == kind and (name is None or m["metadata"]["name"] == name)]


def one(manifests: list[Manifest], kind: str, name: str) -> Manifest:
    found = find(manifests, kind, name)
    assert len(found) == 1, f"expected one {kind} {name}, found {len(found)}"
    return found[0]


def deployment(manifests: list[Manifest], component: str) -> Manifest:
    return one(manifests, "Deployment", f"{RELEASE}-flotilla-{component}")


def container(workload: Manifest) -> dict[str, Any]:
    containers: list[dict[str, Any]] = workload["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def env_of(workload: Manifest) -> dict[str, dict[str, Any]]:
    """A container's env by name (each entry keeps `value` or `valueFrom`)."""
    return {e["name"]: e for e in container(workload).get("env", [])}


@functools.cache
def _process_env_vars() -> frozenset[str]:
    """Every environment variable the server reads: Settings.from_env's (flotilla/settings.py) and the
    per-process ones, taken from the source: first arguments of `os.environ.get(...)` and of helpers."""
    names: set[str] = set(variables())
    for path in (ROOT / "server" / "flotilla").rglob("*.py"):
        if "api" in path.relative_to(ROOT / "server" / "flotilla").parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            func, first = node.func, node.args[0].value
            is_get = isinstance(func, ast.Attribute) and func.attr == "get"
            is_helper = isinstance(func, ast.Name) and func.id.startswith("_")
            if (is_get or is_helper) and isinstance(first, str) and re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", first):
                names.add(first)
    return frozenset(names)


def process_env_vars() -> set[str]:
    return set(_process_env_vars())
