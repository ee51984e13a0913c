"""End-to-end benchmark: Flotilla vs the boardgame.io peer on the same counter game, in one run.

Starts Redis (AOF, `appendfsync always` unless --appendfsync says otherwise), G gateways and
W workers (pinned to CPU 0 with --pin, like the peer's server), runs `bench/load.py` (pinned to
CPU 1) for each mode and M, then runs the peer's own runner (`shared/peers/bgio/run_bgio.py`,
copied to a scratch dir) for the same M, and prints one markdown table with ratios. Every
process is on 127.0.0.1 and stops by itself.

    python bench/run_e2e.py --pin --games 1,10,100 --duration 10 [--peer ../shared/peers]
        [--peer-storage memory,postgres]

`--peer-storage` runs the peer on each storage in the same run (boardgame.io's in-memory one and
its durable deployment on a throwaway PostgreSQL, `fsync=on`): rows are labelled with the storage,
the table has a "× peer" column per storage, and a PostgreSQL row's server CPU is Node plus every
PostgreSQL process, as Flotilla's counts gateway + worker + Redis.

Redis calls per committed move (INFO commandstats over the same moves, the calls a script makes
included) are in each row, by command, and their total in the table.

Server CPU per committed move: gateway, worker and Redis CPU from /proc (every thread and child
process of each, bench/proc_cpu.py) over `--cpu-moves` committed moves from the window's first
(load.py samples it at those moves), in µs per move, by process kind.

`--kind counter,sail_away` (or `all`) runs each game kind (`--seats 0`: 2 for counter, else 3).
`--gateway-processes 1,2` and `--workers 1,2` run the Flotilla part once per combination (fresh
servers each; `flotilla gateway` with FLOTILLA_GATEWAY_PROCESSES on one port) and add a table of
the ratios of each pair that differs in one of them. `--channels` connections per gateway
port (the same in every combination), so that several gateway processes all get some.

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

from proc_cpu import command_name, format_groups, sample  # noqa: E402

from flotilla.app.limits import LIMITS  # noqa: E402
from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.games import REGISTRY  # noqa: E402
from flotilla.redis_server import APPENDFSYNC_CHOICES, Appendfsync, RedisCluster, RedisServer, free_port  # noqa: E402


def idle_rates(groups: dict[str, list[int]], seconds: float) -> dict[str, float]:
    """CPU seconds per second each group spends with no load (liveness renewals, reclaim sweeps,
    feed and inbox reads, heartbeats), measured over `seconds` after a pause of as long."""
    if seconds <= 0:
        return {}
    time.sleep(seconds)
    before = sample(groups)
    time.sleep(seconds)
    after = sample(groups)
    return {name: (after[name] - before[name]) / seconds for name in groups}


def net_of_idle(row: dict[str, object], idle: dict[str, float]) -> None:
    """Add `server_us_per_move_net`: µs per move less what the servers burn idle over the same window,
    and `server_idle_cpu_pct`."""
    by, moves, window = row.get("server_us_per_move"), row.get("cpu_moves"), row.get("cpu_window_s")
    if not idle or not isinstance(by, dict) or not moves:
        return
    net = {n: by[n] - 1e6 * idle[n] * float(window) / int(moves) for n in idle}  # type: ignore[arg-type,call-overload]
    row["server_us_per_move_net"] = {**net, "total": sum(net.values())}
    row["server_idle_cpu_pct"] = 100 * sum(idle.values())


def old_cpu_seconds(groups: dict[str, list[int]]) -> float:
    """The former measure: fields 14 + 15 of each launched pid only (no reaped or live children)."""
    total = 0
    for pid in (p for pids in groups.values() for p in pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def host_ticks() -> list[int]:
    """The machine's CPU ticks so far (/proc/stat: user nice system idle iowait irq softirq steal)."""
    return [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]


def host_load(before: list[int], after: list[int]) -> dict[str, float]:
    """How busy the whole machine was meanwhile (other work included: a shared machine's noise),
    with the 1-minute load average at the end."""
    delta = [b - a for a, b in zip(before, after, strict=True)]
    total = sum(delta) or 1
    return {
        "busy_pct": 100 * (total - delta[3] - delta[4]) / total,
        "steal_pct": 100 * delta[7] / total,
        "loadavg_1m": os.getloadavg()[0],
    }


def kinds(spec: str) -> list[str]:
    """`all` or a comma-separated list of game kinds."""
    return sorted(REGISTRY) if spec == "all" else [k for k in spec.split(",") if k]


def wait_listeners(port: int, count: int, timeout_s: float = 60) -> None:
    """Until `count` sockets listen on `port` (several gateway processes sharing it)."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                found += fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port
        if found >= count:
            return
        if time.monotonic() > deadline:
            msg = f"{found} of {count} gateway processes listen on {port}"
            raise TimeoutError(msg)
        time.sleep(0.1)


def taskset(cpu: str | None) -> list[str]:
    return ["taskset", "-c", cpu] if cpu is not None and shutil.which("taskset") else []


# Every limit checked, none binding for the bench's two users on loopback (rates of 10,000 calls/s).
LIMITS_ON = ",".join(f"{limit.name}={'1000000' if limit.is_quota else '10000/s:1000000'}" for limit in LIMITS)


def run_flotilla(
    args: argparse.Namespace,
    workdir: Path,
    appendfsync: Appendfsync,
    limits: str = "on",
    processes: int = 1,
    workers: int = 2,
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
    for pid in redis_pids:  # the server itself, not a wrapper: its CPU is what we measure
        assert command_name(pid).startswith("redis-server"), f"pid {pid} is {command_name(pid)!r}"
    if server_cpu is not None and shutil.which("taskset"):
        for pid in redis_pids:
            subprocess.run(["taskset", "-pc", server_cpu, str(pid)], check=True, capture_output=True)
    env = dict(os.environ, REDIS_URL=redis.url, FLOTILLA_LOG_FORMAT="json", FLOTILLA_METRICS_PORT="0")
    env["FLOTILLA_LIMITS"] = LIMITS_ON if limits == "on" else "off"
    env["FLOTILLA_WAIT_REPLICAS"] = str(args.wait_replicas)
    procs: list[subprocess.Popen[bytes]] = []
    worker_procs: list[subprocess.Popen[bytes]] = []
    targets = []
    log = (workdir / "servers.log").open("ab")
    try:
        for _ in range(args.gateways):
            port = free_port()
            targets.append(f"127.0.0.1:{port}")
            procs.append(
                subprocess.Popen(
                    [*taskset(server_cpu), sys.executable, "-m", "flotilla.cli", "gateway"],
                    env=dict(env, FLOTILLA_BIND=targets[-1], FLOTILLA_GATEWAY_PROCESSES=str(processes)),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        for _ in range(workers):
            worker_procs.append(
                subprocess.Popen(
                    [*taskset(server_cpu), sys.executable, "-m", "flotilla.cli", "worker"],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        gateway_procs = list(procs)
        procs += worker_procs
        for target in targets:
            _wait_for_gateway(target)
        for target in targets:  # every gateway process listens, not only the first
            wait_listeners(int(target.rsplit(":", 1)[1]), processes)
        groups = {
            "gateway": [p.pid for p in gateway_procs],  # with processes > 1, the parent: its children count
            "worker": [p.pid for p in worker_procs],
            "redis": redis_pids,
        }
        rows = []
        for kind, mode, games in [
            (k, m, int(g)) for k in kinds(args.kind) for m in args.modes.split(",") for g in args.games.split(",")
        ]:
            seats = args.seats or (2 if kind == "counter" else 3)
            idle = idle_rates(groups, args.idle)
            host_before = host_ticks()
            old_before, started = old_cpu_seconds(groups), time.monotonic()
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
                    kind,
                    "--seats",
                    str(seats),
                    "--channels",
                    str(args.channels),
                    "--cpu-pids",
                    format_groups(groups),
                    "--cpu-moves",
                    str(args.cpu_moves),
                ],
                env=env,
                capture_output=True,
                text=True,
                check=True,
                timeout=args.warmup + args.duration + 180,
            )
            row = json.loads(out.stdout.strip().splitlines()[-1])
            net_of_idle(row, idle)
            row["host"] = host_load(host_before, host_ticks())
            # What the column read before issue 12 (kept to compare, same run): the launched pids' own
            # utime + stime over the whole subprocess, warm-up, start and end included, per moves/s.
            old_pct = 100 * (old_cpu_seconds(groups) - old_before) / (time.monotonic() - started)
            row["old_server_cpu_pct"] = old_pct
            row["old_us_per_move"] = 1e4 * old_pct / float(row["moves_per_s"]) if row["moves_per_s"] else None
            where = "cluster 3+3" if args.cluster else "1 Redis"
            if args.wait_replicas:
                where += f", WAIT {args.wait_replicas}"
            row["appendfsync"] = appendfsync
            row["limits"] = limits
            row["processes"] = processes
            row["workers"] = workers
            row["system"] = (
                f"flotilla {kind} {mode} (G={args.gateways}×{processes}, W={workers}, {where}, {appendfsync}, "
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


PEER_STORAGES = ("memory", "flatfile", "flatfile-nowq", "postgres")


def peer_storages(text: str) -> list[str]:
    """`--peer-storage`: a comma-separated list of the peer runner's storages."""
    chosen = [s for s in text.split(",") if s]
    unknown = [s for s in chosen if s not in PEER_STORAGES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(PEER_STORAGES)}; got {text[:40]!r}")
    return chosen


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
        ",".join(args.peer_storage),
        "--matches",
        args.games,
        "--out",
        str(out),
    ]
    if not args.pin:
        cmd.append("--no-pin")
    done = subprocess.run(cmd, check=False, cwd=scratch / "bgio", capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:  # 2: PostgreSQL or node_modules missing; 1: a run failed (run_bgio.py says which)
        sys.exit(f"the peer's runner failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    rows = []
    for line in out.read_text().splitlines():
        raw = json.loads(line)
        rows.append(
            {
                "system": f"boardgame.io {raw['storage']} (raw)",
                "peer_storage": raw["storage"],
                "mode": "socket.io",
                "games": raw["matches"],
                "moves_per_s": raw["server_moves_per_s"],
                "mover_p50_ms": raw["latency_mover"]["p50_ms"],
                "mover_p99_ms": raw["latency_mover"]["p99_ms"],
                "opponent_p50_ms": raw["latency_opponent"]["p50_ms"],
                "opponent_p99_ms": raw["latency_opponent"]["p99_ms"],
                # postgres: Node + every PostgreSQL process (both pinned to the server core), as
                # Flotilla's figure counts gateway + worker + Redis
                "server_cpu_pct": raw.get("server_plus_db_cpu_pct") or raw["server_cpu_pct"],
                "errors": raw["errors"],
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def us_per_move(r: dict[str, object], key: str = "server_us_per_move") -> str:
    """`gateway / worker / Redis = total` µs of server CPU per committed move (≈ total for the peer,
    from its CPU % over its time window)."""
    by = r.get(key)
    if key != "server_us_per_move" and not isinstance(by, dict):
        return "–"
    if isinstance(by, dict):
        return f"{by['gateway']:.0f} / {by['worker']:.0f} / {by['redis']:.0f} = **{by['total']:.0f}**"
    if r.get("server_cpu_pct") is not None and float(r["moves_per_s"] or 0) > 0:  # type: ignore[arg-type]
        return f"≈ {1e4 * float(r['server_cpu_pct']) / float(r['moves_per_s']):.0f}"  # type: ignore[arg-type]
    return "–"


def worst_p99(r: dict[str, object]) -> float:
    return max(float(r["mover_p99_ms"] or 0), float(r["opponent_p99_ms"] or 0))  # type: ignore[arg-type]


def old_text(r: dict[str, object]) -> str:
    pct, per_move = r.get("old_server_cpu_pct"), r.get("old_us_per_move")
    return f"{pct:.0f} / {per_move:.0f}" if isinstance(pct, float) and isinstance(per_move, float) else "–"


def host_text(r: dict[str, object]) -> str:
    host = r.get("host")
    return f"{host['busy_pct']:.0f} ({host['loadavg_1m']:.1f})" if isinstance(host, dict) else "–"


def calls_text(r: dict[str, object]) -> str:
    """Redis's calls per committed move, scripts' own calls included (load.py's INFO commandstats)."""
    calls = r.get("redis_calls_per_move")
    return f"{float(calls['total']):.1f}" if isinstance(calls, dict) and "total" in calls else "–"


def table(rows: list[dict[str, object]]) -> str:
    """One row per run; "× peer" and "p99 ÷ peer" per peer storage run beside (memory first)."""
    storages = sorted({str(r["peer_storage"]) for r in rows if "peer_storage" in r}, key=lambda s: s != "memory")
    peer = {(r["peer_storage"], r["games"]): r for r in rows if "peer_storage" in r}
    ratio_heads = "".join(f" × {s} peer |" for s in storages) or " × peer |"
    p99_heads = "".join(f" p99 ÷ {s} peer |" for s in storages) or " p99 ÷ peer |"
    columns = max(1, len(storages))
    lines = [
        f"| system | M | moves/s |{ratio_heads} mover p50 / p99 ms | opponent p50 / p99 ms |{p99_heads} server CPU % "
        "| server CPU µs/move gw / wk / Redis = total | same, net of idle | idle CPU % | moves measured "
        "| Redis calls/move | machine busy % (load avg) | former measure: CPU % / µs per move |",
        "|---|---:|---:|" + "---:|" * columns + "---|---|" + "---:|" * columns + "---:|---|---|---:|---:|---:|---|---|",
    ]
    for r in rows:
        peers = [peer.get((s, r["games"])) if r.get("kind", "counter") == "counter" else None for s in storages]
        ratio = (
            " | ".join(
                f"{float(r['moves_per_s']) / float(p['moves_per_s']):.2f}" if p else "–"  # type: ignore[arg-type]
                for p in peers
            )
            or "–"
        )
        p99_ratio = " | ".join(f"{worst_p99(r) / worst_p99(p):.2f}" if p else "–" for p in peers) or "–"
        pct = r.get("server_cpu_pct")
        pct_text = f"{float(pct):.0f}" if pct is not None else "–"  # type: ignore[arg-type]
        lines.append(
            f"| {r['system']} | {r['games']} | {float(r['moves_per_s']):,.0f} | {ratio} | "  # type: ignore[arg-type]
            f"{float(r['mover_p50_ms'] or 0):.2f} / {float(r['mover_p99_ms'] or 0):.2f} | "  # type: ignore[arg-type]
            f"{float(r['opponent_p50_ms'] or 0):.2f} / {float(r['opponent_p99_ms'] or 0):.2f} | {p99_ratio} | "  # type: ignore[arg-type]
            f"{pct_text} | {us_per_move(r)} | {us_per_move(r, 'server_us_per_move_net')} | "
            f"{float(r.get('server_idle_cpu_pct', 0)):.0f} | {r.get('cpu_moves', '–')} | {calls_text(r)} | "  # type: ignore[arg-type]
            f"{host_text(r)} | {old_text(r)} |"
        )
    return "\n".join(lines)


def config_table(rows: list[dict[str, object]]) -> str:
    """Ratios between runs that differ only in gateway processes or only in workers (same kind,
    mode, M, appendfsync and limits): moves/s, server µs per move and worst p99, the larger ÷ the smaller."""
    keyed = {
        (r["kind"], r["mode"], r["games"], r["appendfsync"], r["limits"], r["processes"], r["workers"]): r
        for r in rows
        if "processes" in r
    }
    lines = [
        "| kind | mode | M | compared | moves/s | ratio | µs/move | ratio | net of idle | ratio "
        "| worst p99 ms | ratio |",
        "|---|---|---:|---|---|---:|---|---:|---|---:|---|---:|",
    ]
    for key, big in keyed.items():
        *same, processes, workers = key
        for label, small_key in (
            (f"G×{processes} ÷ G×1 (W={workers})", (*same, 1, workers)),
            (f"W={workers} ÷ W=1 (G×{processes})", (*same, processes, 1)),
        ):
            small = keyed.get(small_key)  # type: ignore[arg-type]
            if small is None or small is big:
                continue
            cost = [r.get("server_us_per_move", {}).get("total", 0) for r in (big, small)]  # type: ignore[attr-defined]
            net = [r.get("server_us_per_move_net", {}).get("total", 0) for r in (big, small)]  # type: ignore[attr-defined]
            rate = [float(r["moves_per_s"]) for r in (big, small)]  # type: ignore[arg-type]
            p99 = [worst_p99(r) for r in (big, small)]
            cost_ratio, p99_ratio = cost[0] / cost[1] if cost[1] else 0, p99[0] / p99[1] if p99[1] else 0
            net_ratio = net[0] / net[1] if net[1] else 0
            lines.append(
                f"| {same[0]} | {same[1]} | {same[2]} | {label} | {rate[0]:,.0f} / {rate[1]:,.0f} | "
                f"{rate[0] / rate[1]:.2f} | {cost[0]:.0f} / {cost[1]:.0f} | {cost_ratio:.2f} | "
                f"{net[0]:.0f} / {net[1]:.0f} | {net_ratio:.2f} | "
                f"{p99[0]:.1f} / {p99[1]:.1f} | {p99_ratio:.2f} |"
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
    parser.add_argument("--workers", default="2", help="worker processes, comma-separated: one run each")
    parser.add_argument(
        "--gateway-processes", default="1", help="processes per gateway port (SO_REUSEPORT), comma-separated"
    )
    parser.add_argument("--channels", type=int, default=8, help="load connections per gateway port")
    parser.add_argument("--cpu-moves", type=int, default=1000, help="committed moves server CPU is measured over")
    parser.add_argument("--idle", type=float, default=1.0, help="seconds of idle servers measured before each run")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--cluster", action="store_true", help="a 3-primary, 3-replica Redis Cluster")
    parser.add_argument(
        "--wait-replicas", type=int, default=0, help="FLOTILLA_WAIT_REPLICAS (with --cluster: each primary has one)"
    )
    parser.add_argument("--kind", default="counter", help="game kinds, comma-separated, or all; the peer: counter")
    parser.add_argument("--seats", type=int, default=0, help="seats per game (0: 2 for counter, else 3)")
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
    parser.add_argument(
        "--peer-storage",
        default="memory",
        type=peer_storages,
        help="the peer's storages, comma-separated, run in one go (passed to its runner as --storages): "
        f"{', '.join(PEER_STORAGES)}; postgres makes a throwaway PostgreSQL (Debian's postgresql package)",
    )
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
        configs = [(int(p), int(w)) for p in args.gateway_processes.split(",") for w in args.workers.split(",")]
        for i, setting in enumerate(settings):
            for j, limited in enumerate(limits):
                for processes, workers in configs:
                    workdir = Path(tmp) / f"{i}-{j}-{setting}-{limited}-{processes}-{workers}"
                    rows += run_flotilla(args, workdir, setting, limited, processes, workers)  # type: ignore[arg-type]
        if args.peer and "counter" in kinds(args.kind):
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
    if len(configs) > 1:
        print()
        print(config_table(rows))


if __name__ == "__main__":
    main()
