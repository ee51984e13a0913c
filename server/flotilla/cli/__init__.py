"""The `flotilla` command: up | gateway | worker | matchmaker | bot | keys | apikey | deadletter | arena.

Here: the parser and the server processes (gateway, worker, matchmaker); the others by subject
beside it: `up` (up.py), the operator commands (admin.py), `arena` (arena.py), the connection flags of
client commands (connection.py), reaching Redis and a gateway at start and the exit codes (reach.py).

`flotilla --help` and `flotilla COMMAND --help` describe every command and flag; the settings come
from the environment (flotilla/settings.py, the README's table). Exit codes:

| code | meaning |
|---|---|
| 0 | done (a server process: stopped by SIGTERM or SIGINT) |
| 1 | the command failed: the server refused it, no such key, a game did not end |
| 2 | bad usage: an unknown command or flag, a bad flag value, a port already taken |
| 69 | unreachable: Redis (`REDIS_URL`) or the gateway (`--target`) did not answer within `REACH_S` |
| 75 | a worker ended itself: its event loop was held longer than `FLOTILLA_WORKER_STALL_S` |
| 78 | bad settings: one line per bad environment variable (which, what was wrong, what is allowed) |

Errors of codes 2, 69 and 78 are short lines on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from flotilla.cli.admin import add_admin_parsers
from flotilla.cli.arena import add_arena_parser
from flotilla.cli.bot import add_bot_parser
from flotilla.cli.connection import add_connection_arguments, tls_of
from flotilla.cli.reach import (
    EXIT_CONFIG,
    EXIT_FAILED,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
    REACH_S,
    Unreachable,
    reach_gateway,
    reach_redis,
    redis_unreachable,
    run_async,
    wait_for_gateway,
)
from flotilla.cli.up import _demo, add_up_parser, metrics_ports, up_client_tls
from flotilla.cores import resolve
from flotilla.settings import Settings, SettingsError

# Each command imports what it runs (the store, redis-py, grpc, the SDK, structlog, prometheus) when it
# runs: `flotilla --help`, `--version` and a usage error import none of them (tests/test_cli.py).

_wait_for_gateway = wait_for_gateway  # its older name (tests and benches use it)

__all__ = [
    "EXIT_CONFIG",
    "EXIT_FAILED",
    "EXIT_UNREACHABLE",
    "EXIT_USAGE",
    "REACH_S",
    "Unreachable",
    "_demo",
    "add_connection_arguments",
    "build_parser",
    "main",
    "metrics_ports",
    "reach_gateway",
    "reach_redis",
    "redis_unreachable",
    "tls_of",
    "up_client_tls",
    "wait_for_gateway",
]


def run_service(main: Coroutine[Any, Any, None]) -> None:
    """Run a long-lived process on uvloop when it is installed (a faster event loop), else asyncio's."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        run_async(main)
    else:
        uvloop.run(main)


def serve_process(process: str, main: Callable[[Settings], Coroutine[Any, Any, None]]) -> int:
    """Settings from the environment, logs, metrics, then the process's main loop."""
    from flotilla.logs import configure  # noqa: PLC0415
    from flotilla.metrics import serve as serve_metrics  # noqa: PLC0415

    settings = Settings.from_env()
    configure(process, settings.log_format)
    serve_metrics(process, settings.metrics_addr, settings.metrics_port)
    run_service(main(settings))
    return 0


def cmd_gateway(_args: argparse.Namespace) -> int:
    """One gateway, or FLOTILLA_GATEWAY_PROCESSES of them on one port (flotilla/processes.py)."""
    settings = Settings.from_env()
    run_async(reach_redis(settings))
    count = resolve(settings.gateway_processes, "gateway_processes")
    if count > 1:
        from flotilla.logs import configure  # noqa: PLC0415
        from flotilla.processes import run_gateways  # noqa: PLC0415

        configure("gateway", settings.log_format)
        return run_gateways(settings, count)
    from flotilla.gateway.server import BindError, serve  # noqa: PLC0415

    try:
        return serve_process("gateway", serve)
    except BindError as error:
        print(f"flotilla gateway: {error}", file=sys.stderr)
        return EXIT_USAGE


def cmd_worker(_args: argparse.Namespace) -> int:
    """One worker, or FLOTILLA_WORKER_PROCESSES of them (flotilla/processes.py)."""
    settings = Settings.from_env()
    run_async(reach_redis(settings))
    count = resolve(settings.worker_processes, "workers")
    if count > 1:
        from flotilla.logs import configure  # noqa: PLC0415
        from flotilla.processes import run_workers  # noqa: PLC0415

        configure("worker", settings.log_format)
        return run_workers(settings, count)
    from flotilla.worker.main import run_worker  # noqa: PLC0415

    return serve_process("worker", run_worker)


def cmd_matchmaker(_args: argparse.Namespace) -> int:
    run_async(reach_redis(Settings.from_env()))  # before the matchmaker's imports: an unreachable Redis is said at once
    from flotilla.matchmaker.main import MatchmakerSettings, run_matchmaker  # noqa: PLC0415

    return serve_process("matchmaker", lambda s: run_matchmaker(s, MatchmakerSettings.from_env(s)))


def installed_version() -> str:
    """The installed distribution's version (the package's own when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("flotilla")
    except PackageNotFoundError:
        from flotilla.version import __version__  # noqa: PLC0415

        return __version__


class _Version(argparse.Action):
    """argparse's `version` action, the version looked up only when asked (importlib.metadata costs a
    command's start ~50 ms)."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kwargs: object) -> None:
        print(f"{parser.prog} {installed_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """Every command and flag, each with its help."""
    parser = argparse.ArgumentParser(prog="flotilla", description="Flotilla game server")
    parser.add_argument("--version", action=_Version, help="show the installed version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    add_up_parser(sub)
    sub.add_parser("gateway", help="run a gRPC gateway (env: REDIS_URL, FLOTILLA_BIND, ...)").set_defaults(
        func=cmd_gateway
    )
    sub.add_parser("worker", help="run a rules worker (env: REDIS_URL, ...)").set_defaults(func=cmd_worker)
    sub.add_parser(
        "matchmaker", help="form games from tickets, play bot seats, rate games (env: FLOTILLA_GATEWAY, ...)"
    ).set_defaults(func=cmd_matchmaker)
    add_bot_parser(sub)
    add_admin_parsers(sub)
    add_arena_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its errors of setting and reach are short lines on stderr (exit codes above)."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except SettingsError as bad:
        for line in bad.problems:
            print(f"flotilla: {line}", file=sys.stderr)
        return EXIT_CONFIG
    except Unreachable as error:
        print(f"flotilla: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
