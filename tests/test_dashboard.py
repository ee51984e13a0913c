"""The Grafana dashboard only charts metrics the processes export."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import REGISTRY

import flotilla.metrics  # noqa: F401 - registers the metrics

DASHBOARD = Path(__file__).resolve().parent.parent / "deploy" / "grafana" / "flotilla-dashboard.json"


def test_every_charted_metric_is_exported() -> None:
    exported = {family.name for family in REGISTRY.collect()}
    exported |= {f"{name}_total" for name in exported} | {f"{name}_bucket" for name in exported}
    panels = json.loads(DASHBOARD.read_text())["panels"]
    charted = {m for p in panels for t in p["targets"] for m in re.findall(r"flotilla_[a-z_]+", t["expr"])}
    assert charted, "the dashboard charts nothing"
    assert charted <= exported, f"not exported: {sorted(charted - exported)}"
