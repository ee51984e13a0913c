"""The `flotilla` command line: help for every command and flag, `--version`, and one line on
stderr (not a traceback) within seconds when the settings are bad or Redis or a gateway does not
answer (exit codes in flotilla/cli.py's docstring)."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from flotilla.cli import EXIT_CONFIG, EXIT_UNREACHABLE, REACH_S, build_parser

BOUND_S = REACH_S + 25.0  # the wait itself plus an interpreter's start on a loaded machine


def parsers(parser: argparse.ArgumentParser, path: str = "flotilla") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, f"{path} {name}")


def test_every_command_and_flag_has_help() -> None:
    missing = []
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                missing += [f"{path} {c.dest}" for c in action._choices_actions if not (c.help or "").strip()]
            elif not (action.help or "").strip():
                missing.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections: bound, never listening."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


def flotilla(*args: str, **env: str) -> tuple[int, list[str], float]:
    """Run `flotilla ARGS` as a process; its exit code, stderr lines and how long it took."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "flotilla.cli", *args],
        env={**os.environ, "FLOTILLA_METRICS_PORT": "0", **env},
        capture_output=True,
        text=True,
        timeout=BOUND_S * 2,
        check=False,
    )
    return done.returncode, done.stderr.splitlines(), time.monotonic() - started


# What `flotilla --help` and `--version` must not import: each command imports what it runs (the store and
# redis-py, grpc and the generated API, the SDK, the games and bots, logging), so a quick command starts quickly.
NOT_FOR_HELP = (
    "asyncio", "grpc", "redis", "google.protobuf", "structlog", "flotilla_client",
    "flotilla.store", "flotilla.api", "flotilla.games", "flotilla.bots",
)  # fmt: skip


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_version_and_help_import_no_server_code(option: str) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "flotilla.cli", option],
        env={**os.environ, "FLOTILLA_METRICS_PORT": "0"},
        capture_output=True,
        text=True,
        timeout=BOUND_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("flotilla " if option == "--version" else "usage: flotilla"), done.stdout
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "flotilla.cli" in imported, done.stderr[-2000:]  # -X importtime reported the imports
    assert sorted(m for m in imported if any(m == n or m.startswith(f"{n}.") for n in NOT_FOR_HELP)) == []


@pytest.mark.parametrize("command", [["worker"], ["gateway"], ["matchmaker"], ["keys", "list"], ["up", "--port", "0"]])
def test_an_unreachable_redis_is_one_line(command: list[str], closed_port: int) -> None:
    url = f"redis://127.0.0.1:{closed_port}/0"
    code, err, took = flotilla(*command, REDIS_URL=url, FLOTILLA_BIND="127.0.0.1:0")
    assert (code, len(err)) == (EXIT_UNREACHABLE, 1), err
    assert f"cannot reach Redis at redis://127.0.0.1:{closed_port}/0 (REDIS_URL)" in err[0]
    assert took < BOUND_S


def test_an_unreachable_gateway_is_one_line(closed_port: int) -> None:
    code, err, took = flotilla("bot", "--kind", "counter", "--target", f"127.0.0.1:{closed_port}")
    assert (code, len(err)) == (EXIT_UNREACHABLE, 1), err
    assert f"the gateway at 127.0.0.1:{closed_port} did not become healthy" in err[0]
    assert took < BOUND_S


def test_bad_settings_are_one_line_each_and_help_still_works() -> None:
    code, err, _s = flotilla("worker", FLOTILLA_SHARDS="many", FLOTILLA_GUESTS="maybe")
    assert code == EXIT_CONFIG
    assert sorted(line.split("=", 1)[0] for line in err) == ["flotilla: FLOTILLA_GUESTS", "flotilla: FLOTILLA_SHARDS"]
    assert flotilla("bot", "--help", FLOTILLA_GATEWAY_TLS="maybe")[0] == 0
