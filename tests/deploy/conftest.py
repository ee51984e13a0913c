"""Fixtures for the deployment tests; the helpers live in chart_support.py (uniquely named, importable
under importlib mode once this folder is on sys.path)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import helm_python as helm
import pytest

_HERE = os.path.dirname(__file__)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from chart_support import CHART, Manifest, Render, render_chart  # noqa: E402


@pytest.fixture(scope="session")
def chart() -> Iterator[helm.Chart]:
    with helm.Chart.load(CHART) as loaded:
        yield loaded


@pytest.fixture
def render(chart: helm.Chart) -> Render:
    def _render(values: dict[str, Any] | None = None, api_versions: Sequence[str] = ()) -> list[Manifest]:
        return render_chart(chart, values, api_versions)

    return _render
