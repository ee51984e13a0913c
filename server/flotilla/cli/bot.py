"""`flotilla bot`: its flags here (the parser imports nothing of the bots), the play in flotilla/bots/command.py."""

from __future__ import annotations

import argparse
from typing import Any

from flotilla.cli.connection import add_connection_arguments, connection_of
from flotilla.cli.reach import EXIT_USAGE, reach_gateway, run_async


def add_bot_parser(sub: Any) -> None:
    """`flotilla bot`: the policy, where it plays and how it reaches the gateway."""
    bot = sub.add_parser("bot", help="seat a bot policy in a game, a room or the matchmaking queue")
    bot.add_argument("--policy", default="random", help="bot policy (flotilla.bots.POLICIES)")
    bot.add_argument("--difficulty", type=int, default=1, help="policy difficulty (0: the weakest)")
    bot.add_argument("--games", type=int, default=1, help="games to play (--queue, --kind)")
    bot.add_argument("--concurrency", type=int, default=1, help="games at once (1: one after the other)")
    where = bot.add_mutually_exclusive_group(required=True)
    where.add_argument("--game-id", default="", help="take a seat in this game")
    where.add_argument("--room", default="", help="join this room (rooms/ID) and play its game")
    where.add_argument("--queue", default="", metavar="KIND", help="queue a matchmaking ticket per game")
    where.add_argument("--kind", default="", help="create each game and play every seat of it")
    bot.add_argument("--seats", type=int, default=2, help="seats per game (--kind; --queue: the seat count wanted)")
    bot.add_argument("--option", action="append", default=[], metavar="K=V", help="game option (--kind, --queue)")
    bot.add_argument("--join-code", default="", help="a private room's join code")
    bot.add_argument("--think", type=float, default=None, help="seconds a decision may take at most")
    bot.add_argument("--target", default="127.0.0.1:50051", help="the gateway, HOST:PORT (default: 127.0.0.1:50051)")
    bot.add_argument("--name", default="bot", help="the guest's display name (default: bot)")
    bot.add_argument("--seat", type=int, default=None, help="--game-id: this seat (default: any open one)")
    bot.add_argument("--seed", type=int, default=None, help="seed of the bots' random choices (default: random)")
    add_connection_arguments(bot)
    bot.set_defaults(func=cmd_bot)


def cmd_bot(args: argparse.Namespace) -> int:
    """Seat a bot policy in a game, a room or the matchmaking queue (flotilla/bots/command.py)."""
    from flotilla.bots.command import known_policy, run  # noqa: PLC0415

    if not known_policy(args.policy):  # a usage error first, before the gateway is asked
        return EXIT_USAGE
    tls = connection_of(args)
    reach_gateway(args.target, tls)
    return run_async(run(args, tls))
