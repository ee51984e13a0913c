"""Admission benchmark: a burst of stream opens against one gateway, and many idle room watchers.

Starts a fresh redis-server and one gateway process (unless --target is given), then:

* `watch-game`: N spectators open WatchGame on one game at once (raw stubs: what a client without
  retries sees; `--sdk`: FlotillaClient.watch, which retries refusals with backoff and jitter).
* `watch-room`: N WatchRoom streams over R rooms; once all are open, one heartbeat period is
  watched for Redis commands (INFO commandstats) and Redis clients (INFO clients).

Reported: streams opened, refusals by status, streams dropped after they opened, time from the
burst's start to a stream's first message (p50/p99/max), Redis connected_clients (peak while the
streams open) and the Redis commands made during one idle heartbeat period.

    python bench/admission.py watch-game --streams 5000 [--sdk] [--processes 4]
    python bench/admission.py watch-room --streams 15000 --rooms 500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "clients" / "python"))
sys.path.insert(0, str(ROOT / "tests"))

import grpc  # noqa: E402
import redis  # noqa: E402

from burst import Burst, prepare, run_burst  # noqa: E402
from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc  # noqa: E402
from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.redis_server import RedisServer, free_port  # noqa: E402


class RedisWatch:
    """Samples Redis connected_clients in the background; counts commands over a window."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.peak_clients = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.peak_clients = max(self.peak_clients, int(self.client.info("clients")["connected_clients"]))

    def clients(self) -> int:
        return int(self.client.info("clients")["connected_clients"])

    def calls(self) -> dict[str, int]:
        return {k: int(v["calls"]) for k, v in self.client.info("commandstats").items()}

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def commands_during(watch: RedisWatch, seconds: float) -> dict[str, int]:
    """Redis commands (by name, INFO/ commandstats itself excluded) run during `seconds`."""
    before = watch.calls()
    time.sleep(seconds)
    after = watch.calls()
    return {
        k.removeprefix("cmdstat_"): n - before.get(k, 0)
        for k, n in after.items()
        if n > before.get(k, 0) and k not in ("cmdstat_info",)
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=("watch-game", "watch-room"))
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--processes", type=int, default=4, help="client processes")
    parser.add_argument("--channels", type=int, default=4, help="channels per client process")
    parser.add_argument("--sdk", action="store_true", help="open with FlotillaClient.watch (retries)")
    parser.add_argument("--retry", action="store_true", help="raw stubs retry OVERLOADED after RetryInfo")
    parser.add_argument("--in-flight", type=int, default=0, help="raw stubs: opens under way at once per process")
    parser.add_argument("--heartbeat", type=float, default=2.0, help="FLOTILLA_HEARTBEAT of the gateway")
    parser.add_argument("--env", action="append", default=[], help="extra gateway env VAR=VALUE")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="flotilla-admission-"))
    server = RedisServer(tmp / "redis", aof=False).start()
    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=server.url,
        FLOTILLA_BIND=f"127.0.0.1:{port}",
        FLOTILLA_METRICS_PORT="0",
        FLOTILLA_LOG_FORMAT="json",
        FLOTILLA_HEARTBEAT=str(args.heartbeat),
        FLOTILLA_LIMITS="off",  # one user opens thousands of streams here; the limits' cost: bench/limits_cost.py
    )
    env.update(dict(kv.split("=", 1) for kv in args.env))
    target = f"127.0.0.1:{port}"
    with (tmp / "gateway.log").open("ab") as log:
        gateway = subprocess.Popen(
            [sys.executable, "-m", "flotilla.cli", "gateway"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
    watch = None
    try:
        _wait_for_gateway(target)
        method = "sdk" if args.sdk else ("WatchGame" if args.scenario == "watch-game" else "WatchRoom")
        token, names = asyncio.run(prepare(target, method, args.rooms))
        watch = RedisWatch(server.url)
        burst = Burst(
            target,
            method,
            names,
            token,
            args.streams // args.processes,
            channels=args.channels,
            retry=args.retry,
            in_flight=args.in_flight,
        )
        found: dict[str, Any] = {}

        def while_open(opened: int) -> None:
            found["clients_while_open"] = watch.clients() if watch else 0
            found["idle_heartbeat_commands"] = commands_during(watch, args.heartbeat * 1.5) if watch else {}
            started = time.perf_counter()
            with grpc.insecure_channel(target) as channel:
                auth = game_service_pb2_grpc.AuthServiceStub(channel)  # type: ignore[no-untyped-call]
                try:
                    auth.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="probe"), timeout=10)
                    found["unary_while_open_s"] = round(time.perf_counter() - started, 4)
                except grpc.RpcError as error:
                    found["unary_while_open_s"] = f"{error.code().name}: {error.details()}"  # type: ignore[attr-defined]

        t0 = time.perf_counter()
        report = run_burst(burst, args.processes, while_open)
        result = {
            "scenario": args.scenario + (" (sdk)" if args.sdk else " (retrying)" if args.retry else ""),
            "streams": burst.count * args.processes,
            "rooms": len(names) if args.scenario == "watch-room" else 0,
            "opened": report.opened,
            "failed": dict(report.failed),
            "dropped_after_open": dict(report.dropped_after_open),
            "unsettled": report.unsettled,
            "retries": report.retries,
            "later_messages": report.later_messages,
            "open_p50_s": round(report.percentile(0.5), 3),
            "open_p99_s": round(report.percentile(0.99), 3),
            "open_max_s": round(max(report.open_s, default=float("nan")), 3),
            "redis_clients_peak": watch.peak_clients,
            "wall_s": round(time.perf_counter() - t0, 1),
            **found,
        }
        print(json.dumps(result, indent=1))
    finally:
        if watch is not None:
            watch.stop()
        gateway.terminate()
        try:
            gateway.wait(15)
        except subprocess.TimeoutExpired:
            gateway.kill()
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
