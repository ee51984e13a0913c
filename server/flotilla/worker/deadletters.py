"""`flotilla deadletter list | retry`: the operator's view of the dead-letter stream (store/deadletter.py).

    flotilla deadletter list [--count N] [--after ID]   oldest first, one line each
    flotilla deadletter retry ID... | --all             queue them again on their work streams

Retry once the bug is fixed (a worker of the fixed rules runs): each entry is queued again as it
was, and its request id's outcome record still makes it apply at most once.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # `flotilla --help` builds this parser without the store (redis-py)
    from flotilla.store.deadletter import DeadLetter, DeadLetters

PAGE = 500  # dead letters read per XRANGE by `retry --all`


def describe(letter: DeadLetter) -> str:
    """One line: what was set aside, why, and where it came from (inputs clipped)."""

    def field(name: bytes) -> str:
        return letter.fields.get(name, b"").decode(errors="replace")[:64]

    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(letter.at_ms / 1000))
    return (
        f"{letter.id}  {letter.why}  deliveries={letter.deliveries}  incident={letter.incident}  "
        f"games/{field(b'g')} seat {field(b's')} request {field(b'r')!r}  "
        f"from {letter.stream} {letter.entry}  at {at}"
    )


async def run(args: argparse.Namespace, letters: DeadLetters) -> int:
    """The command on the dead letters `letters` (`DeadLetters.of(store)`); returns the exit status."""
    if args.action == "list":
        found = await letters.page(args.count, args.after or "-")
        for letter in found:
            print(describe(letter))
        print(f"{len(found)} dead letter(s) shown, {await letters.length()} kept")
        return 0
    ids = list(args.ids)
    if args.all:
        after = "-"
        while page := await letters.page(PAGE, after):
            ids += [letter.id for letter in page]
            after = page[-1].id
    if not ids:
        print("name the dead letters to retry (ids from `flotilla deadletter list`) or --all")
        return 2
    retried = await letters.retry(ids)
    for letter in retried:
        print(f"queued again: {letter.id} -> {letter.stream}")
    missing = len(ids) - len(retried)
    if missing:
        print(f"{missing} id(s) not found (retried already, or trimmed)")
    return 0 if not missing else 1


def add_parser(sub: Any) -> None:
    """`flotilla deadletter` on the cli's subcommands."""
    parser = sub.add_parser("deadletter", help="work entries the workers set aside: list, or retry them")
    parser.add_argument("action", choices=("list", "retry"), help="list the dead letters, or retry some")
    parser.add_argument("ids", nargs="*", default=[], help="retry: the dead letters' ids")
    parser.add_argument("--all", action="store_true", help="retry: every dead letter")
    parser.add_argument("--count", type=int, default=100, help="list: at most this many")
    parser.add_argument("--after", default="", help="list: after this id (the last one of the previous page)")
