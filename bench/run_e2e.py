"""End-to-end benchmark: Flotilla vs the boardgame.io peer on the same counter game, in one run.

Starts Redis (AOF, `appendfsync always` unless --appendfsync says otherwise), G gateways and
W workers (pinned to CPU 0 with --pin, like the peer's server), runs `bench/load.py` (pinned to
CPU 1) for each mode and M, then runs the peer's own runner (`shared/peers/bgio/run_bgio.py`,
copied to a scratch dir) for the same M, and prints one markdown table with ratios. Every
process is on 127.0.0.1 and stops by itself.

    python bench/run_e2e.py --pin --games 1,10,100 --duration 10 [--peer ../shared/peers]

`--appendfsync always,everysec,everysec,always` runs the whole Flotilla part once per entry (a
fresh Redis and fresh servers each), in that order, and adds a table of always ÷ everysec
ratios (of repeated settings, the medians). `--limits on,off,on,off` does the same for the rate
limits and quotas: `on` checks every one of them (each with a rate and quota that two bench users
never reach, so the cost of the checks is measured, not their refusals), `off` checks none
(FLOTILLA_LIMITS=off); it adds a table of on ÷ off.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from flotilla.app.limits import LIMITS  # noqa: E402
from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.redis_server import APPENDFSYNC_CHOICES, Appendfsync, RedisCluster, RedisServer, free_port  # noqa: E402


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def taskset(cpu: str | None) -> list[str]:
    return ["taskset", "-c", cpu] if cpu is not None and shutil.which("taskset") else []


# Every limit checked, none binding for the bench's two users on loopback (rates of 10,000 calls/s).
LIMITS_ON = ",".join(f"{limit.name}={'1000000' if limit.is_quota else '10000/s:1000000'}" for limit in LIMITS)


def run_flotilla(
    args: argparse.Namespace, workdir: Path, appendfsync: Appendfsync, limits: str = "on"
) -> list[dict[str, object]]:
    server_cpu = "0" if args.pin else None
    driver_cpu = "1" if args.pin else None
    redis: RedisServer | RedisCluster
    if args.cluster:
        redis = RedisCluster(workdir / "cluster", appendfsync=appendfsync).start()
        redis_pids = [n.process.pid for n in redis.nodes if n.process is not None]
    else:
        redis = RedisServer(workdir / "redis", aof=True, appendfsync=appendfsync).start()
        redis_pids = [redis.process.pid] if redis.process is not None else []
    if server_cpu is not None and shutil.which("taskset"):
        for pid in redis_pids:
            subprocess.run(["taskset", "-pc", server_cpu, str(pid)], check=True, capture_output=True)
    env = dict(os.environ, REDIS_URL=redis.url, FLOTILLA_LOG_FORMAT="json", FLOTILLA_METRICS_PORT="0")
    env["FLOTILLA_LIMITS"] = LIMITS_ON if limits == "on" else "off"
    procs: list[subprocess.Popen[bytes]] = []
    targets = []
    log = (workdir / "servers.log").open("ab")
    try:
        for _ in range(args.gateways):
            port = free_port()
            targets.append(f"127.0.0.1:{port}")
            procs.append(
                subprocess.Popen(
                    [*taskset(server_cpu), sys.executable, "-m", "flotilla.cli", "gateway"],
                    env=dict(env, FLOTILLA_BIND=targets[-1]),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for _ in range(args.workers):
            procs.append(
                subprocess.Popen(
                    [*taskset(server_cpu), sys.executable, "-m", "flotilla.cli", "worker"],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for target in targets:
            _wait_for_gateway(target)
        rows = []
        pids = [p.pid for p in procs] + redis_pids
        for mode in args.modes.split(","):
            for games in [int(m) for m in args.games.split(",")]:
                before = cpu_seconds(pids)
                started = time.monotonic()
                out = subprocess.run(
                    [
                        *taskset(driver_cpu),
                        sys.executable,
                        str(ROOT / "bench" / "load.py"),
                        "--targets",
                        ",".join(targets),
                        "--games",
                        str(games),
                        "--mode",
                        mode,
                        "--warmup",
                        str(args.warmup),
                        "--duration",
                        str(args.duration),
                        "--kind",
                        args.kind,
                        "--seats",
                        str(args.seats),
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                    timeout=args.warmup + args.duration + 120,
                )
                elapsed = time.monotonic() - started
                row = json.loads(out.stdout.strip().splitlines()[-1])
                row["server_cpu_pct"] = 100 * (cpu_seconds(pids) - before) / elapsed
                where = "cluster 3+3" if args.cluster else "1 Redis"
                row["appendfsync"] = appendfsync
                row["limits"] = limits
                row["system"] = (
                    f"flotilla {args.kind} {mode} (G={args.gateways}, W={args.workers}, {where}, {appendfsync}, "
                    f"limits {limits})"
                )
                rows.append(row)
                print(json.dumps(row), flush=True)
        return rows
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        redis.stop()
        log.close()


def run_peer(args: argparse.Namespace, workdir: Path) -> list[dict[str, object]]:
    scratch = workdir / "peers"
    shutil.copytree(Path(args.peer), scratch, ignore=shutil.ignore_patterns("node_modules", "results"))
    (scratch / "bgio" / "results").mkdir(exist_ok=True)
    subprocess.run(
        ["npm", "ci", "--silent", "--no-audit", "--no-fund"],
        cwd=scratch / "bgio",
        check=True,
        capture_output=True,
        timeout=600,
    )
    out = scratch / "bgio" / "results" / "runs.jsonl"
    cmd = [
        sys.executable,
        "run_bgio.py",
        "--reps",
        "1",
        "--warmup",
        str(args.warmup),
        "--duration",
        str(args.duration),
        "--modes",
        "raw",
        "--storages",
        "memory",
        "--matches",
        args.games,
        "--out",
        str(out),
    ]
    if not args.pin:
        cmd.append("--no-pin")
    subprocess.run(cmd, cwd=scratch / "bgio", check=True, capture_output=True, timeout=1800)
    rows = []
    for line in out.read_text().splitlines():
        raw = json.loads(line)
        rows.append(
            {
                "system": "boardgame.io memory (raw)",
                "mode": "socket.io",
                "games": raw["matches"],
                "moves_per_s": raw["server_moves_per_s"],
                "mover_p50_ms": raw["latency_mover"]["p50_ms"],
                "mover_p99_ms": raw["latency_mover"]["p99_ms"],
                "opponent_p50_ms": raw["latency_opponent"]["p50_ms"],
                "opponent_p99_ms": raw["latency_opponent"]["p99_ms"],
                "server_cpu_pct": raw["server_cpu_pct"],
                "errors": raw["errors"],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def table(rows: list[dict[str, object]]) -> str:
    peer = {r["games"]: r for r in rows if str(r["system"]).startswith("boardgame.io")}
    lines = [
        "| system | M | moves/s | × peer | mover p50 / p99 ms | opponent p50 / p99 ms | p99 ÷ peer | server CPU % |",
        "|---|---:|---:|---:|---|---|---:|---:|",
    ]
    for r in rows:
        p = peer.get(r["games"])
        ratio = f"{float(r['moves_per_s']) / float(p['moves_per_s']):.2f}" if p else "–"  # type: ignore[arg-type]
        worst = max(float(r["mover_p99_ms"] or 0), float(r["opponent_p99_ms"] or 0))  # type: ignore[arg-type]
        peer_worst = max(float(p["mover_p99_ms"]), float(p["opponent_p99_ms"])) if p else 0  # type: ignore[arg-type]
        p99_ratio = f"{worst / peer_worst:.2f}" if p else "–"
        lines.append(
            f"| {r['system']} | {r['games']} | {float(r['moves_per_s']):,.0f} | {ratio} | "  # type: ignore[arg-type]
            f"{float(r['mover_p50_ms'] or 0):.2f} / {float(r['mover_p99_ms'] or 0):.2f} | "  # type: ignore[arg-type]
            f"{float(r['opponent_p50_ms'] or 0):.2f} / {float(r['opponent_p99_ms'] or 0):.2f} | {p99_ratio} | "  # type: ignore[arg-type]
            f"{float(r['server_cpu_pct']):.0f} |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


def fsync_table(
    rows: list[dict[str, object]], key: str = "appendfsync", pair: tuple[str, str] = ("always", "everysec")
) -> str:
    """always ÷ everysec (or, with key "limits", on ÷ off) for each (mode, M) measured with both
    settings; of a setting run several times (alternating, e.g. always,everysec,always,everysec,
    against the drift of a shared machine's load) the medians are compared."""
    slow_name, fast_name = pair
    runs: dict[tuple[object, object, object], list[tuple[float, float]]] = {}
    for r in rows:
        if r.get(key):
            p99 = max(float(r["mover_p99_ms"] or 0), float(r["opponent_p99_ms"] or 0))  # type: ignore[arg-type]
            runs.setdefault((r[key], r["mode"], r["games"]), []).append((float(r["moves_per_s"]), p99))  # type: ignore[arg-type]
    mean = {k: [statistics.median(v) for v in zip(*values, strict=True)] for k, values in runs.items()}
    lines = [
        f"| mode | M | runs | moves/s {slow_name} / {fast_name} | ratio "
        f"| worst p99 ms {slow_name} / {fast_name} | ratio |",
        "|---|---:|---:|---|---:|---|---:|",
    ]
    for (setting, mode, games), (fast_rate, fast_p99) in mean.items():
        if setting != fast_name or (slow_name, mode, games) not in mean:
            continue
        slow_rate, slow_p99 = mean[(slow_name, mode, games)]
        lines.append(
            f"| {mode} | {games} | {len(runs[(slow_name, mode, games)])} + {len(runs[(setting, mode, games)])} | "
            f"{slow_rate:,.0f} / {fast_rate:,.0f} | {slow_rate / fast_rate:.3f} | "
            f"{slow_p99:.2f} / {fast_p99:.2f} | {slow_p99 / fast_p99:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="1,10,100")
    parser.add_argument("--modes", default="unary,stream")
    parser.add_argument("--gateways", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--cluster", action="store_true", help="a 3-primary, 3-replica Redis Cluster")
    parser.add_argument("--kind", default="counter", help="game kind; the peer runs only for counter")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--pin", action="store_true", help="servers on CPU 0, load generators on CPU 1")
    parser.add_argument(
        "--appendfsync",
        default="always",
        help="Redis appendfsync setting(s), comma-separated, run in this order: always (the shipped default), everysec",
    )
    parser.add_argument(
        "--limits", default="on", help="rate limits and quotas, comma-separated, run in this order: on (checked), off"
    )
    parser.add_argument("--peer", default=str(ROOT.parent / "shared" / "peers"), help="shared/peers, or '' to skip")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "e2e.jsonl"))
    args = parser.parse_args()
    settings = [s for s in args.appendfsync.split(",") if s]
    for setting in settings:
        if setting not in APPENDFSYNC_CHOICES:
            parser.error(f"--appendfsync: {setting!r} is not one of {', '.join(APPENDFSYNC_CHOICES)}")
    limits = [s for s in args.limits.split(",") if s]
    if not set(limits) <= {"on", "off"}:
        parser.error("--limits: on or off")
    with tempfile.TemporaryDirectory(prefix="flotilla-bench-") as tmp:
        rows = []
        for i, setting in enumerate(settings):
            for j, limited in enumerate(limits):
                rows += run_flotilla(args, Path(tmp) / f"{i}-{j}-{setting}-{limited}", setting, limited)  # type: ignore[arg-type]
        if args.peer and args.kind == "counter":
            rows += run_peer(args, Path(tmp))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with Path(args.out).open("a") as f:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
        for row in rows:
            f.write(json.dumps({**row, "ts": stamp, "pinned": args.pin}) + "\n")
    print(table(rows))
    if len(set(settings)) > 1:
        print()
        print(fsync_table(rows))
    if len(set(limits)) > 1:
        print()
        print(fsync_table(rows, "limits", ("on", "off")))


if __name__ == "__main__":
    main()
