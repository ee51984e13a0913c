"""Reclaim benchmark: from a worker's SIGKILL, with a move in hand, to that move's commit.

Starts Redis, one gateway and W healthy workers (the `flotilla` processes, settings from the
environment, so FLOTILLA_WORKER_TTL_MS etc. can be varied), then N times: starts a worker that
takes moves and holds them (`tests/worker/holding_worker.py`, a real `Worker` whose batches
never finish), submits moves of a counter game through the gateway until that worker holds
one, SIGKILLs it and measures until the move is committed (the game's version in Redis, polled
every millisecond) and until the client's SubmitAction returns. Prints the median, p90, p99 and
max of both, and appends the raw samples to bench/results/reclaim.jsonl.

    python bench/reclaim.py --kills 100 [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "tests"))

from flotilla.redis_server import RedisServer  # noqa: E402
from flotilla.settings import Settings  # noqa: E402
from flotilla.store import keys  # noqa: E402
from flotilla.store.redis_store import RedisStore  # noqa: E402
from flotilla.worker.loop import work_streams  # noqa: E402
from flotilla_client import FlotillaClient  # noqa: E402
from support import Stack, start_stack  # noqa: E402

HOLDING_WORKER = ROOT / "tests" / "worker" / "holding_worker.py"


async def wait_for(what: str, timeout_s: float, check: Callable[[], Awaitable[bool]], every_s: float = 0.005) -> None:
    """Poll `check` every `every_s` until it holds."""
    deadline = time.monotonic() + timeout_s
    while not await check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(every_s)


def start_victim(stack: Stack, name: str, log_dir: Path) -> subprocess.Popen[bytes]:
    with (log_dir / f"{name}.log").open("ab") as log:
        return subprocess.Popen(
            [sys.executable, str(HOLDING_WORKER), name], env=stack.env, stdout=log, stderr=subprocess.STDOUT
        )


async def one_kill(stack: Stack, store: RedisStore, players: list[FlotillaClient], logs: Path) -> tuple[float, float]:
    """(kill -> commit, kill -> SubmitAction OK) in seconds, for one held move."""
    name = "victim-" + uuid.uuid4().hex[:8]
    victim = start_victim(stack, name, logs)
    try:
        await wait_for("the holding worker", 30, lambda: store.redis.exists(keys.worker(name)))
        game = await players[0].create_game("counter", 2, {"moves": "100000"})
        seats = [await p.join(game.name) for p in players]
        streams = work_streams(Settings.from_env().shards, ["counter"])
        version = 1
        for turn in range(1000):
            player, seat = players[turn % 2], seats[turn % 2]
            prompt = (await player.view(game.name, seat)).prompt
            submit = asyncio.create_task(player.submit(game.name, seat, prompt.legal_actions[0], etag=prompt.etag))
            version += 1

            async def settled(submit: asyncio.Task[object] = submit) -> bool:
                if submit.done():
                    return True
                for stream in streams:
                    for row in await store.redis.xinfo_consumers(stream, keys.WORKER_GROUP):
                        if row["name"].decode() == name and row["pending"]:
                            return True
                return False

            await wait_for("the move to be applied or held", 15, settled)
            if not submit.done():
                break
            await submit
        else:
            raise RuntimeError("the holding worker never got a move")
        killed = time.perf_counter()
        victim.send_signal(signal.SIGKILL)
        game_key = keys.game(game.name.removeprefix("games/"))

        async def applied() -> bool:
            return int(await store.redis.hget(game_key, "version")) >= version

        await wait_for("the held move's commit", 30, applied, every_s=0.001)
        committed = time.perf_counter() - killed
        await submit
        answered = time.perf_counter() - killed
        return committed, answered
    finally:
        if victim.poll() is None:
            victim.kill()
        victim.wait(10)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": at(0.90),
        "p99_ms": at(0.99),
        "max_ms": ordered[-1] * 1000,
    }


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, object]:
    redis = RedisServer(workdir / "redis", aof=True).start()
    stack = start_stack(redis.url, workdir, gateways=1, workers=args.workers)
    store = RedisStore.from_url(redis.url)
    players = [FlotillaClient(stack.gateways[0]) for _ in range(2)]
    commits: list[float] = []
    answers: list[float] = []
    try:
        for i, player in enumerate(players):
            await player.sign_in(f"p{i}")
        for i in range(args.kills):
            committed, answered = await one_kill(stack, store, players, workdir)
            commits.append(committed)
            answers.append(answered)
            print(f"kill {i + 1}/{args.kills}: commit {committed * 1000:.0f} ms, client OK {answered * 1000:.0f} ms")
    finally:
        for player in players:
            await player.close()
        await store.close()
        stack.stop()
        redis.stop()
    settings = Settings.from_env()
    return {
        "kills": args.kills,
        "workers": args.workers,
        "worker_ttl_ms": settings.worker_ttl_ms,
        "worker_refresh_ms": settings.worker_refresh_ms,
        "reclaim_sweep_ms": settings.reclaim_sweep_ms,
        "kill_to_commit": summary(commits),
        "kill_to_client_ok": summary(answers),
        "samples_commit_ms": [round(c * 1000, 1) for c in commits],
        "machine": f"{platform.node()} {os.cpu_count()} cpu, Python {platform.python_version()}",
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2, help="healthy workers beside the one killed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="flotilla-reclaim-") as tmp:
        result = asyncio.run(run(args, Path(tmp)))
    results = ROOT / "bench" / "results"
    results.mkdir(exist_ok=True)
    with (results / "reclaim.jsonl").open("a") as out:
        out.write(json.dumps(result) + "\n")
    print("\n| from SIGKILL to | median ms | p90 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|")
    for label, key in (("the move's commit", "kill_to_commit"), ("the client's OK", "kill_to_client_ok")):
        row = result[key]
        assert isinstance(row, dict)
        print(f"| {label} | {row['median_ms']:.0f} | {row['p90_ms']:.0f} | {row['p99_ms']:.0f} | {row['max_ms']:.0f} |")


if __name__ == "__main__":
    main()
