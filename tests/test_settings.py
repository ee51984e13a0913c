"""Settings (flotilla/settings.py): every knob declared once with its help, validated when read,
one line per bad value, and listed with its default in the README's table."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from flotilla.settings import Settings, SettingsError, variables

README = Path(__file__).parents[1] / "README.md"
ROW = re.compile(r"^\| ((?:`[A-Z_]+`[,/ ]*)+) \| ([^|]*) \|")


def documented() -> dict[str, str]:
    """The README's settings rows: each variable and its default cell."""
    rows: dict[str, str] = {}
    for line in README.read_text().splitlines():
        if match := ROW.match(line):
            for variable in re.findall(r"`([A-Z_]+)`", match[1]):
                rows[variable] = match[2].strip()
    return rows


def shown(default: object) -> str:
    """A default as the README writes it (`on`/`off`, `10` for 10.0)."""
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default)


def test_every_setting_has_help_and_its_variable_is_in_the_readme_with_its_default() -> None:
    rows = documented()
    for spec in fields(Settings):
        assert spec.metadata["doc"].strip(), f"{spec.name}: no help"
        variable = spec.metadata["env"]
        if variable is None:  # not read from the environment: its help says what sets it
            continue
        assert variable in rows, f"{variable} is missing from the README's settings table"
        cell, default = rows[variable], shown(spec.default)
        if spec.default in ("", None) or spec.default is False:  # the cell says what empty/unset means
            continue
        assert cell.lstrip("`").startswith(default), f"{variable}: README says {cell!r}, the default is {default!r}"


def test_the_readme_names_no_variable_the_settings_do_not_read() -> None:
    assert set(documented()) - variables() == set()


def test_the_environment_s_defaults_are_the_declared_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    for spec in fields(Settings):
        if spec.metadata["env"]:
            monkeypatch.delenv(spec.metadata["env"], raising=False)
    monkeypatch.setenv("FLOTILLA_BIND", "")  # empty counts as unset
    assert Settings.from_env() == Settings()


def test_values_are_parsed_by_type(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLOTILLA_SHARDS", "7")
    monkeypatch.setenv("FLOTILLA_HEARTBEAT", "2.5")
    monkeypatch.setenv("FLOTILLA_GUESTS", "off")
    monkeypatch.setenv("FLOTILLA_GATEWAY_TLS", "1")
    monkeypatch.setenv("FLOTILLA_LOG_FORMAT", "json")
    read = Settings.from_env()
    assert (read.shards, read.heartbeat_s, read.guests, read.gateway_tls, read.log_format) == (
        7,
        2.5,
        False,
        True,
        "json",
    )


def test_every_bad_value_is_one_line_naming_the_variable_and_what_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = {
        "FLOTILLA_SHARDS": "0",
        "FLOTILLA_HEARTBEAT": "soon",
        "FLOTILLA_GUESTS": "maybe",
        "FLOTILLA_LOG_FORMAT": "xml",
        "FLOTILLA_WORKER_TTL_MS": "x" * 500,
    }
    for variable, value in bad.items():
        monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as raised:
        Settings.from_env()
    problems = raised.value.problems
    assert sorted(line.split("=", 1)[0] for line in problems) == sorted(bad)
    lines = {line.split("=", 1)[0]: line for line in problems}
    assert "allowed: a whole number >= 1" in lines["FLOTILLA_SHARDS"]
    assert "allowed: a number >= 0" in lines["FLOTILLA_HEARTBEAT"]
    assert "on/off" in lines["FLOTILLA_GUESTS"]
    assert "one of auto, json, console" in lines["FLOTILLA_LOG_FORMAT"]
    assert len(lines["FLOTILLA_WORKER_TTL_MS"]) < 200  # the value is echoed truncated
    assert all("\n" not in line for line in problems)


def test_an_unset_only_none_is_not_off_and_takes_whole_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """FLOTILLA_METRICS_PORT: unset is None (the port by process kind), `0` is off, `off` is no port."""
    monkeypatch.delenv("FLOTILLA_METRICS_PORT", raising=False)
    assert Settings.from_env().metrics_port is None
    monkeypatch.setenv("FLOTILLA_METRICS_PORT", "0")
    assert Settings.from_env().metrics_port == 0
    monkeypatch.setenv("FLOTILLA_METRICS_PORT", "off")
    with pytest.raises(SettingsError) as raised:
        Settings.from_env()
    assert raised.value.problems[0].startswith("FLOTILLA_METRICS_PORT='off': ")
    assert raised.value.problems[0].endswith("allowed: a whole number >= 0")


def test_no_setting_is_read_by_hand() -> None:
    """Only flotilla/settings.py reads the environment (pydantic-settings); the rest copy it for
    child processes (`dict(os.environ)`) at most."""
    server = Path(__file__).parents[1] / "server" / "flotilla"
    reads = re.compile(r"os\.environ(?:\.get|\[)|os\.getenv|getenv\(")
    by_hand = [
        f"{path.relative_to(server)}:{number}"
        for path in sorted(server.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if reads.search(line)
    ]
    assert by_hand == []


def test_importing_the_settings_does_not_import_pydantic() -> None:
    """The tests fork many processes: only `from_env` pays for pydantic."""
    code = "import sys, flotilla.settings; print(any(m.startswith('pydantic') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_no_doc_gives_another_default() -> None:
    """Rows of other tables (docs/deploy.md, docs/security.md, ...) that name one variable and a default."""
    defaults = {  # an empty default's cell says what empty means (`FLOTILLA_BIND`, "(none)")
        spec.metadata["env"]: shown(spec.default)
        for spec in fields(Settings)
        if spec.metadata["env"] and spec.default not in ("", None)
    }
    wrong = []
    for doc in sorted((README.parent / "docs").glob("*.md")):
        for line in doc.read_text().splitlines():
            match = re.match(r"^\| `([A-Z_]+)` \| `([^`]*)`", line)
            if match and match[1] in defaults and match[2] != defaults[match[1]]:
                wrong.append(f"{doc.name}: {match[1]} = {match[2]!r}, the default is {defaults[match[1]]!r}")
    assert wrong == []
