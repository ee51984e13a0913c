"""`flotilla arena`: seat-rotated games between bot policies, in process (bots/arena.py) or on a
running server (`--target`, bots/remote_arena.py), and their report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from flotilla.cli.connection import add_connection_arguments, connection_of
from flotilla.cli.reach import EXIT_FAILED, EXIT_USAGE, reach_gateway, run_async

if TYPE_CHECKING:
    from flotilla.bots.arena import Entrant, Report

_T = TypeVar("_T")


def add_arena_parser(sub: Any) -> None:
    """`flotilla arena`: seat-rotated games between bot policies, in process (bots/arena.py) or on a
    running server (`--target`, bots/remote_arena.py)."""
    arena = sub.add_parser(
        "arena", help="play bot policies against each other (in process or on a server) and rate them"
    )
    arena.add_argument("--kind", required=True, help="game kind, e.g. port_royal")
    arena.add_argument("--seats", type=int, default=2, help="seats per game (default: 2)")
    arena.add_argument("--policies", required=True, help="comma-separated policy names, rotated over the seats")
    arena.add_argument("--games", type=int, default=10, help="games to play (default: 10)")
    arena.add_argument("--difficulty", default="1", help="one difficulty, or one per policy (comma-separated)")
    arena.add_argument("--budget", default="", help="playouts per decision of search policies (one, or per policy)")
    arena.add_argument("--seconds", default="", help="seconds per decision of search policies, instead of playouts")
    arena.add_argument("--option", action="append", default=[], help="game option key=value (repeatable)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots' choices (default: 0)")
    arena.add_argument(
        "--time-limit", type=float, default=None, help="stop after this many seconds (the game in progress is dropped)"
    )
    arena.add_argument("--target", default="", help="play on the server at HOST:PORT over gRPC (default: in process)")
    arena.add_argument("--name", default="arena", help="--target: the guests' display names (NAME-0, NAME-1, ...)")
    arena.add_argument("--concurrency", type=int, default=1, help="--target: games at once")
    arena.add_argument("--think", type=float, default=None, help="--target: seconds a decision may take at most")
    add_connection_arguments(arena)
    arena.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    """Print the arena's report (win rates with Wilson 95% intervals, scores, openskill)."""
    from flotilla.rules import InvalidConfig  # noqa: PLC0415
    from flotilla_client import FlotillaError  # noqa: PLC0415

    try:
        entrants = _entrants(args)
        options = dict(o.split("=", 1) for o in args.option if "=" in o)
        report = _remote(args, entrants, options) if args.target else _in_process(args, entrants, options)
    except (ValueError, InvalidConfig) as exc:  # a bad number, policy name or game option
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except FlotillaError as exc:  # the server refused (a bad option, a rate limit it did not lift)
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print("\n".join(report.lines()))
    return 0


def _entrants(args: argparse.Namespace) -> list[Entrant]:
    """The policies of `--policies` with their `--difficulty`, `--budget` and `--seconds` (one value, or
    one per policy); raises `ValueError` for a bad number or an unknown `--kind`."""
    from flotilla.bots.arena import Entrant  # noqa: PLC0415
    from flotilla.games import REGISTRY  # noqa: PLC0415

    names = [n.strip() for n in args.policies.split(",") if n.strip()]

    def per_policy(raw: str, kind: Callable[[str], _T]) -> list[_T | None]:
        values: list[_T | None] = [kind(v) if v.strip() else None for v in raw.split(",")] if raw else [None]
        return values * len(names) if len(values) == 1 else values

    difficulties, budgets = per_policy(args.difficulty, int), per_policy(args.budget, int)
    seconds = per_policy(args.seconds, float)
    counts = {len(difficulties), len(budgets), len(seconds)}
    if args.kind not in REGISTRY or not names or counts != {len(names)}:
        msg = "unknown --kind, or --difficulty/--budget/--seconds not one value or one per policy"
        raise ValueError(msg)
    return [
        Entrant(n, 1 if d is None else d, b, s)
        for n, d, b, s in zip(names, difficulties, budgets, seconds, strict=True)
    ]


def _remote(args: argparse.Namespace, entrants: list[Entrant], options: dict[str, str]) -> Report:
    """The arena on the server at `--target`, over gRPC."""
    from flotilla.bots.remote_arena import run_remote  # noqa: PLC0415

    tls = connection_of(args)
    reach_gateway(args.target, tls)
    return run_async(
        run_remote(
            args.target,
            args.kind,
            args.seats,
            entrants,
            args.games,
            tls=tls,
            api_key=args.api_key,
            name=args.name,
            options=options,
            seed=args.seed,
            concurrency=args.concurrency,
            think_s=args.think,
            time_limit_s=args.time_limit,
        )
    )


def _in_process(args: argparse.Namespace, entrants: list[Entrant], options: dict[str, str]) -> Report:
    """The arena in this process, on the rules directly."""
    from flotilla.bots.arena import run  # noqa: PLC0415
    from flotilla.games import REGISTRY  # noqa: PLC0415

    return run(
        REGISTRY[args.kind],
        args.seats,
        entrants,
        args.games,
        options=options,
        seed=args.seed,
        time_limit_s=args.time_limit,
    )
