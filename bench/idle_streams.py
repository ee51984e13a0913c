"""Idle watch streams on one gateway: memory per stream, heartbeat lateness, GC pauses, active p99.

Starts a fresh redis-server, one gateway process and one worker, creates `--games` games that
never move, then for each N of `--streams`:

1. gateway RSS before; the active games' latency alone (bench/load.py, `--active` games, unary);
2. N WatchGame streams on the idle games (round robin), opened from `--processes` client
   processes (at most `--in-flight` opens under way per process, bounded in time);
3. with all N open: RSS, then for `--hold` seconds the active games play again while the idle
   clients time every message: a heartbeat is late when it comes more than `--late` seconds after
   the previous message + FLOTILLA_HEARTBEAT (a stream with no message for that long counts too);
4. all streams closed: RSS once the gateway reports none open (and settled).

Opens refused by admission control (and retried) are counted by limit (`refused`). GC pauses
come from the gateway's `flotilla_gc_pause_seconds` / `flotilla_gc_pause_max_seconds` (metrics
endpoint): the max over the whole run and the full (generation 2) collections.
Redis's time per XREAD during the hold (`feed_read_us`) is what a feed read costs there.
`--server PATH` runs the gateway and worker from another tree (a `git archive` of an older
commit) to measure before/after in the same run. Prints one JSON object per N.

    python bench/idle_streams.py --streams 10000 20000 50000
    python bench/idle_streams.py --streams 20000 --server /tmp/before/server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from array import array
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "clients" / "python"))

import grpc  # noqa: E402
import redis as redis_client  # noqa: E402

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc  # noqa: E402
from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.redis_server import RedisServer, free_port  # noqa: E402
from flotilla_client import FlotillaClient  # noqa: E402
from flotilla_client.client import retry_after, retry_pause_s  # noqa: E402

OPEN_TIMEOUT_S = 600.0  # every bound of a phase
OPEN_ATTEMPTS = 20  # per stream, when admission control refuses an open (RESOURCE_EXHAUSTED + RetryInfo)


# --- the idle clients (each in its own process) ---------------------------------------------
async def _idle(
    target: str, token: str, names: list[str], count: int, channels: int, in_flight: int, q: Any, release: Any
) -> None:
    chans = [
        grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(channels)
    ]
    stubs: list[Any] = [game_service_pb2_grpc.GameServiceStub(c) for c in chans]  # type: ignore[no-untyped-call]
    metadata = (("authorization", f"Bearer {token}"),)
    ends, gaps, last = array("d"), array("d"), array("d", [0.0] * count)
    opened, failed = 0, 0
    all_open = asyncio.Event()
    slots = asyncio.Semaphore(in_flight)

    async def one(i: int) -> None:
        nonlocal opened, failed
        for attempt in range(OPEN_ATTEMPTS):
            await slots.acquire()
            call = stubs[i % len(stubs)].WatchGame(
                game_service_pb2.WatchGameRequest(game=names[i % len(names)]), metadata=metadata
            )
            first = True
            try:
                async for _message in call:
                    now = time.monotonic()
                    if first:
                        first = False
                        slots.release()
                        opened += 1
                        if opened + failed == count:
                            all_open.set()
                    else:
                        ends.append(now)
                        gaps.append(now - last[i])
                    last[i] = now
                return
            except grpc.aio.AioRpcError as error:
                if not first:
                    return
                slots.release()
                delay = retry_after(error)  # refused by admission control: retry as the SDK does
                if delay is None or attempt == OPEN_ATTEMPTS - 1:
                    failed += 1
                    if opened + failed == count:
                        all_open.set()
                    return
                await asyncio.sleep(retry_pause_s(attempt + 1, delay))

    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_open.wait(), OPEN_TIMEOUT_S)
    q.put(("open", opened, failed))
    await asyncio.get_running_loop().run_in_executor(None, release.wait, OPEN_TIMEOUT_S)
    closed_at = time.monotonic()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for chan in chans:
        await chan.close()
    q.put(("done", ends.tobytes(), gaps.tobytes(), array("d", [closed_at - t for t in last if t]).tobytes()))


def _idle_process(*args: Any) -> None:
    asyncio.run(_idle(*args))


def start_idle_clients(
    args: argparse.Namespace, target: str, token: str, names: list[str], streams: int, clients: list[Any]
) -> tuple[Any, Any]:
    """`args.processes` idle client processes (appended to `clients`) opening `streams` in all;
    their queue of reports and the event that releases them."""
    context = multiprocessing.get_context("spawn")
    q, release = context.Queue(), context.Event()
    for _ in range(args.processes):
        proc = context.Process(
            target=_idle_process,
            args=(target, token, names, streams // args.processes, args.channels, args.in_flight, q, release),
        )
        proc.start()
        clients.append(proc)
    return q, release


def wait_opened(clients: list[Any], q: Any) -> tuple[int, int]:
    """Streams opened and failed, once every client process reported."""
    opened = failed = 0
    for _ in clients:
        _, ok, bad = q.get(timeout=OPEN_TIMEOUT_S)
        opened, failed = opened + ok, failed + bad
    return opened, failed


# --- the gateway, seen from outside ---------------------------------------------------------
def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def scrape(port: int) -> dict[str, float]:
    """The gateway's flotilla_* metrics (a collector pause stalls the endpoint too: wait it out)."""
    for attempt in range(6):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as reply:
                text = reply.read().decode()
            break
        except OSError:
            if attempt == 5:
                raise
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("flotilla_") and (m := re.match(r"^(\S+)\s+(\S+)$", line)):
            found[m.group(1)] = float(m.group(2))
    return found


def gc_figures(metrics: dict[str, float]) -> dict[str, float]:
    """Collections and pauses by generation, and the share of full collections over 100 ms."""
    out: dict[str, float] = {"gc_pause_max_s": round(metrics.get("flotilla_gc_pause_max_seconds", 0.0), 4)}
    for gen in ("0", "1", "2"):
        out[f"gc{gen}_collections"] = metrics.get(f'flotilla_gc_pause_seconds_count{{generation="{gen}"}}', 0.0)
        within = metrics.get(f'flotilla_gc_pause_seconds_bucket{{generation="{gen}",le="0.1"}}', 0.0)
        out[f"gc{gen}_over_100ms"] = out[f"gc{gen}_collections"] - within
    return out


def refusals(metrics: dict[str, float]) -> dict[str, int]:
    """Calls admission control refused (then retried by the idle clients), by limit."""
    found: dict[str, int] = {}
    for name, value in metrics.items():
        if name.startswith("flotilla_gateway_calls_refused_total{") and (m := re.search(r'limit="([^"]+)"', name)):
            found[m.group(1)] = found.get(m.group(1), 0) + int(value)
    return found


def xread_stats(url: str) -> tuple[int, int]:
    """Redis XREAD calls and microseconds spent in them so far (the gateway's feed reads)."""
    stats = redis_client.Redis.from_url(url).info("commandstats").get("cmdstat_xread", {})
    return int(stats.get("calls", 0)), int(stats.get("usec", 0))


def load(target: str, games: int, seconds: float) -> dict[str, Any]:
    """bench/load.py against the gateway: `games` counter games as fast as they go."""
    cmd = [sys.executable, str(ROOT / "bench" / "load.py"), "--targets", target, "--games", str(games)]
    cmd += ["--mode", "unary", "--warmup", "2", "--duration", str(seconds)]
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'server'}:{ROOT / 'clients' / 'python'}")
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=seconds + 120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


async def create_idle_games(target: str, count: int) -> tuple[str, list[str]]:
    host, watcher = FlotillaClient(target), FlotillaClient(target)
    await host.sign_in("host")
    await watcher.sign_in("watcher")
    names: list[str] = []
    while len(names) < count:
        made = await asyncio.gather(*(host.create_game("counter", 2) for _ in range(min(50, count - len(names)))))
        names += [g.name for g in made]
    await host.close()
    await watcher.close()
    return watcher.session_token, names


def run_one(args: argparse.Namespace, streams: int) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="flotilla-idle-"))
    redis = RedisServer(tmp / "redis", aof=False).start()
    port, metrics_port = free_port(), free_port()
    target = f"127.0.0.1:{port}"
    server_path = Path(args.server).resolve()
    env = dict(
        os.environ,
        PYTHONPATH=str(server_path),
        REDIS_URL=redis.url,
        FLOTILLA_BIND=target,
        FLOTILLA_LOG_FORMAT="json",
        FLOTILLA_HEARTBEAT=str(args.heartbeat),
        FLOTILLA_LIMITS="off",  # one user opens all the streams here
        FLOTILLA_MAX_OPEN_STREAMS=str(streams + 1000),
        FLOTILLA_METRICS_PORT=str(metrics_port),
    )
    env.update(dict(kv.split("=", 1) for kv in args.env))
    procs: list[subprocess.Popen[bytes]] = []
    with (tmp / "gateway.log").open("ab") as log:
        gateway = subprocess.Popen([sys.executable, "-m", "flotilla.cli", "gateway"], env=env, stdout=log, stderr=log)
        procs.append(gateway)
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "flotilla.cli", "worker"],
                env=dict(env, FLOTILLA_METRICS_PORT="0"),
                stdout=log,
                stderr=log,
            )
        )
    clients: list[Any] = []
    try:
        _wait_for_gateway(target)
        token, names = asyncio.run(create_idle_games(target, args.games))
        result: dict[str, Any] = {"server": str(server_path), "streams": streams, "idle_games": len(names)}
        result["active_alone"] = _active(load(target, args.active, args.hold))
        time.sleep(1)
        result["rss_before_mb"] = round(rss_mb(gateway.pid), 1)
        t0 = time.monotonic()
        q, release = start_idle_clients(args, target, token, names, streams, clients)
        opened, failed = wait_opened(clients, q)
        result.update(opened=opened, failed=failed, open_s=round(time.monotonic() - t0, 1))
        result["refused"] = refusals(scrape(metrics_port))
        time.sleep(1)
        result["rss_open_mb"] = round(rss_mb(gateway.pid), 1)
        result["kb_per_stream"] = round((result["rss_open_mb"] - result["rss_before_mb"]) * 1024 / max(opened, 1), 1)
        xread0 = xread_stats(redis.url)
        window0 = time.monotonic()
        result["active_with_idle"] = _active(load(target, args.active, args.hold))
        window1 = time.monotonic()
        xread1 = xread_stats(redis.url)
        reads = xread1[0] - xread0[0]
        result["feed_reads"] = reads
        result["feed_read_us"] = round((xread1[1] - xread0[1]) / max(reads, 1), 1)  # Redis time per XREAD
        release.set()
        ends, gaps, silent = array("d"), array("d"), array("d")
        for _ in clients:
            _, e, g, s = q.get(timeout=OPEN_TIMEOUT_S)
            ends.frombytes(e)
            gaps.frombytes(g)
            silent.frombytes(s)
        for proc in clients:
            proc.join(60)
        beats = [g for t, g in zip(ends, gaps, strict=True) if window0 <= t <= window1]
        late_after = args.heartbeat + args.late
        missed = [s for s in silent if s > late_after]  # no message at all for that long before closing
        late = [g for g in beats if g > late_after]
        result["heartbeats"] = len(beats)
        result["heartbeat_gap_p50_s"] = round(sorted(beats)[len(beats) // 2], 3) if beats else None
        result["heartbeats_late_share"] = round((len(late) + len(missed)) / max(len(beats) + len(missed), 1), 4)
        result["heartbeat_late_max_s"] = round(max([*beats, *missed, args.heartbeat]) - args.heartbeat, 3)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            open_now = scrape(metrics_port).get('flotilla_gateway_open_streams{method="WatchGame"}', 0.0)
            if open_now == 0:
                break
            time.sleep(0.5)
        time.sleep(args.heartbeat / 2)  # whatever the gateway frees after the last stream closed
        result["rss_closed_mb"] = round(rss_mb(gateway.pid), 1)
        result.update(gc_figures(scrape(metrics_port)))
        return result
    finally:
        for proc in clients:
            if proc.is_alive():
                proc.kill()
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
        redis.stop()


def _active(report: dict[str, Any]) -> dict[str, Any]:
    keep = ("moves_per_s", "mover_p50_ms", "mover_p99_ms", "opponent_p50_ms", "opponent_p99_ms", "errors")
    return {k: round(v, 1) if isinstance(v, float) else v for k, v in report.items() if k in keep}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, nargs="+", default=[10_000])
    parser.add_argument("--games", type=int, default=1000, help="idle games the streams watch")
    parser.add_argument("--active", type=int, default=10, help="active games (bench/load.py)")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds the active games play with the streams open")
    parser.add_argument("--heartbeat", type=float, default=10.0, help="FLOTILLA_HEARTBEAT of the gateway")
    parser.add_argument("--late", type=float, default=1.0, help="seconds after due that make a heartbeat late")
    parser.add_argument("--processes", type=int, default=4, help="idle client processes")
    parser.add_argument("--channels", type=int, default=8, help="channels per idle client process")
    parser.add_argument("--in-flight", type=int, default=200, help="opens under way at once per process")
    parser.add_argument("--server", default=str(ROOT / "server"), help="the tree the gateway and worker run from")
    parser.add_argument("--env", action="append", default=[], help="extra gateway env VAR=VALUE")
    args = parser.parse_args()
    for streams in args.streams:
        print(json.dumps(run_one(args, streams)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
