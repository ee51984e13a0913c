"""Move latency over slow and lossy links (issue 24, item 5): `bench/load.py` against one gateway
and one worker, with a `tests/chaos/slowlink.py` proxy on the client <-> gateway path and another
on the worker <-> Redis path, each case shaping them differently (the gateway reaches Redis
directly). Prints one JSON row per case and mode, then a markdown table. Root only (the loss is
nftables' in a network namespace the script makes and deletes).

    python bench/slow_links.py --games 10 --duration 10 --modes unary,stream

Redis without AOF (the link's cost, not the disk's); every process on 127.0.0.1; all stop by
themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "tests")]

from chaos.slowlink import Netns, Shape, SlowLink  # noqa: E402
from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.processes import stop_all  # noqa: E402
from flotilla.redis_server import RedisServer, free_port  # noqa: E402

SLOW = Shape(delay_ms=50, jitter_ms=20)
LOSSY = Shape(loss_pct=2)
CASES: dict[str, tuple[Shape, Shape]] = {  # (client <-> gateway, worker <-> Redis), both directions
    "none": (Shape(), Shape()),
    "client<->gateway 50±20 ms": (SLOW, Shape()),
    "worker<->Redis 50±20 ms": (Shape(), SLOW),
    "both 50±20 ms": (SLOW, SLOW),
    "2 % loss on both": (LOSSY, LOSSY),
}


def load(target: str, mode: str, args: argparse.Namespace) -> dict[str, object]:
    command = [sys.executable, str(ROOT / "bench" / "load.py"), "--targets", target, "--mode", mode]
    command += ["--games", str(args.games), "--warmup", str(args.warmup), "--duration", str(args.duration)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=args.warmup + args.duration + 180)
    row: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--modes", default="unary,stream")
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated names of CASES")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="slow-links-"))
    redis = RedisServer(workdir / "redis", aof=False).start()
    netns = Netns()
    links: list[SlowLink] = []
    procs: list[subprocess.Popen[bytes]] = []
    log = (workdir / "servers.log").open("ab")
    try:
        env = dict(os.environ, REDIS_URL=redis.url, FLOTILLA_LOG_FORMAT="json", FLOTILLA_METRICS_PORT="0")
        env["FLOTILLA_LIMITS"] = "off"
        worker_link = SlowLink(redis.port, netns=netns)
        links.append(worker_link)
        gateway = f"127.0.0.1:{free_port()}"
        flotilla = [sys.executable, "-m", "flotilla.cli"]
        procs.append(
            subprocess.Popen([*flotilla, "gateway"], env=dict(env, FLOTILLA_BIND=gateway), stdout=log, stderr=log)
        )
        linked = redis.url.replace(f":{redis.port}/", f":{worker_link.port}/")
        procs.append(subprocess.Popen([*flotilla, "worker"], env=dict(env, REDIS_URL=linked), stdout=log, stderr=log))
        _wait_for_gateway(gateway)
        client_link = SlowLink(int(gateway.rsplit(":", 1)[1]), netns=netns)
        links.append(client_link)
        rows = []
        for case in args.cases.split(","):
            client_shape, worker_shape = CASES[case]
            client_link.shape(client_shape)
            worker_link.shape(worker_shape)
            for mode in args.modes.split(","):
                row = dict(load(f"127.0.0.1:{client_link.port}", mode, args), case=case)
                print(json.dumps(row), flush=True)
                rows.append(row)
        print("\n| case | mode | moves/s | mover p50 / p99 ms | errors |\n|---|---|---:|---|---:|")
        for r in rows:
            p50, p99 = r["mover_p50_ms"], r["mover_p99_ms"]
            print(f"| {r['case']} | {r['mode']} | {r['moves_per_s']:,.0f} | {p50:.1f} / {p99:.1f} | {r['errors']} |")
    finally:
        stop_all(procs, grace_s=15)
        for link in links:
            link.close()
        netns.close()
        redis.stop()
        log.close()


if __name__ == "__main__":
    main()
