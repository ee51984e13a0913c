"""`ismcts` against `heuristic`, one seat-rotated arena game at a time, each game recorded as one
JSON line as soon as it ends (so a long, loaded run loses at most the game in progress), and a
summary of such lines (win rate, Wilson 95% interval, decisions per game, playouts per search).

    python bench/ismcts_games.py play --kind navegador --games 6 --seconds 1 --out runs.jsonl
    python bench/ismcts_games.py summary runs.jsonl

Game `g` uses seed `seed + g`; `ismcts` sits at seat `g % 2`. A game that outlasts `--game-limit`
seconds is recorded as cut and not counted. `--policies` replaces `ismcts,heuristic` (the first
is the one searched; `--seconds`/`--budget` apply to it; one policy alone plays both seats, as in
co-op Port Royal, and a game counts as won when the seats won). `--backup mean|max` overrides the
game table's `chain` (a seat's consecutive prompts backed up as one decision), for before/after
runs; the label then says which.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from flotilla.bots.arena import Entrant, run, wilson
from flotilla.bots.ismcts import IsmctsPolicy
from flotilla.games import REGISTRY


def play(args: argparse.Namespace) -> None:
    rules = REGISTRY[args.kind]
    IsmctsPolicy.chain = None if args.backup == "table" else args.backup == "max"
    options = dict(o.split("=", 1) for o in args.option)
    first, *rest = args.policies.split(",")
    search = Entrant(first, args.difficulty, args.budget, args.seconds)
    other = Entrant(rest[0], 1) if rest else search  # one policy: it plays every seat (co-op)
    for g in range(args.games):
        order = [search, other] if g % 2 == 0 else [other, search]
        started = time.monotonic()
        report = run(
            rules, 2, order[: 1 + bool(rest)], 1, options=options, seed=args.seed + g, time_limit_s=args.game_limit
        )
        mine = report.standings[order.index(search) if rest else 0]
        theirs = report.standings[order.index(other) if rest else 0]
        line = {
            "kind": args.kind,
            "options": options,
            "search": search.label + ("" if args.backup == "table" else f" {args.backup}"),
            "seed": args.seed + g,
            "seat": g % 2,
            "cut": report.cut or bool(report.unfinished),
            "win": mine.wins,
            "score": [mine.mean_score, theirs.mean_score],
            "decisions": sum(report.decisions),
            "searches": mine.searches,
            "playouts": mine.playouts,
            "search_s": mine.seconds,
            "wall_s": round(time.monotonic() - started, 1),
        }
        with Path(args.out).open("a") as out:
            out.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)


def summary(args: argparse.Namespace) -> None:
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for name in args.files:
        for raw in Path(name).read_text().splitlines():
            line = json.loads(raw)
            opts = ",".join(f"{k}={v}" for k, v in sorted(line["options"].items()))
            groups[(line["kind"], opts, line["search"])].append(line)
    head = "| game / mode | search | games (cut) | win rate | 95% CI | mean score search / other | decisions/game"
    print(f"{head} | playouts/search |")
    print("|---|---|---:|---:|---|---|---:|---:|")
    for (kind, opts, search), lines in sorted(groups.items()):
        done = [x for x in lines if not x["cut"]]
        n = len(done)
        wins = sum(float(x["win"]) for x in done)
        low, high = wilson(wins, n)
        mine = sum(x["score"][0] for x in done) / max(1, n)
        theirs = sum(x["score"][1] for x in done) / max(1, n)
        decisions = sum(int(x["decisions"]) for x in done) / max(1, n)
        searches = sum(int(x["searches"]) for x in lines)
        playouts = sum(int(x["playouts"]) for x in lines) / max(1, searches)
        print(
            f"| {kind} {opts} | {search} | {n} ({len(lines) - n}) | {wins / max(1, n):.2f} | {low:.2f}-{high:.2f} "
            f"| {mine:.1f} / {theirs:.1f} | {decisions:.0f} | {playouts:.0f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(required=True)
    p = sub.add_parser("play")
    p.add_argument("--kind", required=True)
    p.add_argument("--option", action="append", default=[])
    p.add_argument("--policies", default="ismcts,heuristic")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--difficulty", type=int, default=1)
    p.add_argument("--budget", type=int, default=None)
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--game-limit", type=float, default=240.0)
    p.add_argument("--backup", choices=("table", "max", "mean"), default="table")
    p.add_argument("--out", required=True)
    p.set_defaults(func=play)
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    s.set_defaults(func=summary)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
