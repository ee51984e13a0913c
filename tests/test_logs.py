"""Logs never carry a traceback frame's locals (they could hold hidden game state)."""

from __future__ import annotations

import json

import structlog

from flotilla.logs import configure


def test_json_tracebacks_have_no_locals(capsys) -> None:  # type: ignore[no-untyped-def]
    configure("test", "json")
    secret_deck = ("SH01", "SH02")  # noqa: F841 - a local that must not reach the log
    try:
        raise ValueError("boom")
    except ValueError:
        structlog.get_logger("t").exception("failed")
    line = capsys.readouterr().err.strip().splitlines()[-1]
    record = json.loads(line)
    assert record["process"] == "test"
    assert "exception" in record
    assert "SH01" not in line
    frames = [frame for trace in record["exception"] for frame in trace["frames"]]
    assert frames
    assert not any("locals" in frame for frame in frames)
    structlog.reset_defaults()
    structlog.contextvars.clear_contextvars()
