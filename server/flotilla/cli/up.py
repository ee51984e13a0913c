"""`flotilla up`: Redis (embedded unless REDIS_URL), gateway processes, workers and a matchmaker on one
machine, as separate processes; `--demo` has bots play one game through them."""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from flotilla.cli.reach import Unreachable, reach_redis, run_async, wait_for_gateway
from flotilla.cores import resolve
from flotilla.redis_acl import URL_FILE, masked, write_private
from flotilla.redis_server import APPENDFSYNC_CHOICES
from flotilla.settings import Settings

if TYPE_CHECKING:  # the SDK, metrics and process handling are imported by `up` when it runs
    from flotilla.redis_server import RedisServer
    from flotilla_client.tls import Tls


def add_up_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`flotilla up` and its flags."""
    up = sub.add_parser("up", help="run Redis (embedded unless REDIS_URL), a gateway and workers locally")
    up.add_argument("--host", default="127.0.0.1", help="the gateway's listen address (default: 127.0.0.1)")
    up.add_argument("--port", type=int, default=50051, help="the gateway's gRPC port (default: 50051)")
    up.add_argument("--workers", type=int, default=0, help="rules workers (default 0: sized from the cores)")
    up.add_argument(
        "--gateways", type=int, default=0, help="gateway processes on the one port (default 0: sized from the cores)"
    )
    up.add_argument("--redis-port", type=int, default=None, help="embedded Redis port (default: a free one)")
    up.add_argument("--state-dir", default=".state", help="where the embedded Redis keeps its AOF and passwords (0700)")
    up.add_argument(
        "--appendfsync",
        choices=APPENDFSYNC_CHOICES,
        default="always",
        help="embedded Redis: fsync every write before confirming it (always), or once a second (everysec: "
        "a host crash may lose the last second of confirmed moves); see docs/deploy.md",
    )
    up.add_argument("--demo", action="store_true", help="bots play one game, print it, then exit")
    up.add_argument("--game", default="sail_away", help="game kind for --demo")
    up.add_argument("--seats", type=int, default=3, help="seats for --demo")
    up.set_defaults(func=cmd_up)


def metrics_ports(base: int, workers: int, gateways: int = 1) -> list[int]:
    """`flotilla up`'s metrics ports: its gateway processes from `base`, the workers after them, then
    the matchmaker (FLOTILLA_METRICS_PORT is the base; 0: every process without metrics)."""
    return [base + i if base > 0 else 0 for i in range(gateways + workers + 1)]


def up_client_tls(settings: Settings) -> Tls | None:
    """How `flotilla up` (and its matchmaker, demo) reach its gateway: FLOTILLA_GATEWAY_*, or TLS
    with the system's roots when the gateway serves TLS and nothing else is said."""
    from flotilla.client_tls import client_tls  # noqa: PLC0415
    from flotilla_client.tls import Tls  # noqa: PLC0415

    return client_tls(settings) or (Tls() if settings.tls_cert else None)


def cmd_up(args: argparse.Namespace) -> int:
    """Embedded Redis (unless REDIS_URL) + G gateway processes on one port + W workers + a matchmaker,
    as separate processes; G and W sized from the cores unless given (flotilla/cores.py)."""
    settings = Settings.from_env()
    gateways, workers = resolve(args.gateways, "gateway_processes"), resolve(args.workers, "workers")
    state_dir = Path(args.state_dir).resolve()
    # Its children's environment: ours, and what up provides where a variable is not given (the
    # value of one given was validated by `from_env` above).
    env = dict(os.environ)
    redis_server = None if env.get("REDIS_URL") else _embedded_redis(args, state_dir, env)
    if redis_server is None:
        run_async(reach_redis(settings))  # before the imports below: an unreachable Redis is said at once
    from flotilla.metrics import DEFAULT_PORTS  # noqa: PLC0415
    from flotilla.processes import stop_all  # noqa: PLC0415

    tls = up_client_tls(settings)
    base = DEFAULT_PORTS["gateway"] if settings.metrics_port is None else settings.metrics_port
    ports = [str(p) for p in metrics_ports(base, workers, gateways)]
    env["FLOTILLA_BIND"] = target = f"{args.host}:{args.port}"
    env["FLOTILLA_BROWSER_BIND"] = env.get("FLOTILLA_BROWSER_BIND") or settings.up_browser_bind
    if tls is not None:
        env["FLOTILLA_GATEWAY_TLS"] = "1"  # its matchmaker's bots
    children: list[subprocess.Popen[bytes]] = []
    try:
        children.extend(_start(env, ports, gateways, workers))
        try:
            wait_for_gateway(target, tls=tls)
        except TimeoutError as error:  # its own lines on stderr say why (a port taken, a bad certificate)
            raise Unreachable(str(error)) from None
        _print_up(env, settings, tls, (gateways, workers), ports, state_dir if redis_server is not None else None)
        if args.demo:
            return run_async(_demo(target, args.game, args.seats, tls))
        _until_signal(children)
        return 0
    finally:
        stop_all(children, grace_s=15)
        if redis_server is not None:
            redis_server.stop()
        print("Flotilla stopped.", flush=True)


def _embedded_redis(args: argparse.Namespace, state_dir: Path, env: dict[str, str]) -> RedisServer:
    """Start the embedded Redis; its URL (with the app user's password) goes into `env` and a 0600 file."""
    from flotilla.redis_server import embedded_redis  # noqa: PLC0415

    redis_server = embedded_redis(state_dir, args.redis_port, args.appendfsync).start()
    env["REDIS_URL"] = redis_server.url
    write_private(state_dir / URL_FILE, f"{redis_server.url}\n")
    return redis_server


def _start(env: dict[str, str], ports: list[str], gateways: int, workers: int) -> list[subprocess.Popen[bytes]]:
    """The gateway processes, the workers and the matchmaker (rooms' bots, tickets, ratings).

    Metrics (FLOTILLA_METRICS_ADDR, loopback by default): the gateway processes from the base port
    (FLOTILLA_METRICS_PORT, 9100), the workers on the next ones, then the matchmaker."""
    exe = [sys.executable, "-m", "flotilla.cli"]
    gateway_env = dict(env, FLOTILLA_METRICS_PORT=ports[0], FLOTILLA_GATEWAY_PROCESSES=str(gateways))
    children = [subprocess.Popen([*exe, "gateway"], env=gateway_env)]
    for i in range(workers):
        worker_env = dict(env, FLOTILLA_METRICS_PORT=ports[gateways + i], FLOTILLA_WORKER_PROCESSES="1")
        children.append(subprocess.Popen([*exe, "worker"], env=worker_env))
    children.append(subprocess.Popen([*exe, "matchmaker"], env=dict(env, FLOTILLA_METRICS_PORT=ports[-1])))
    return children


def _print_up(
    env: dict[str, str],
    settings: Settings,
    tls: Tls | None,
    counts: tuple[int, int],
    ports: list[str],
    state_dir: Path | None,
) -> None:
    """What runs where, and how to try it; `state_dir` when Redis is the embedded one."""
    (gateways, workers), target = counts, env["FLOTILLA_BIND"]
    processes = f"{gateways} gateway process{'es' * (gateways > 1)}, {workers} worker{'s' * (workers > 1)}"
    print(f"Flotilla is up: gRPC on {target}, Redis at {masked(env['REDIS_URL'])}, {processes}.", flush=True)
    if state_dir is not None:  # its users' passwords: redis.passwords (flotilla/redis_acl.py)
        print(f"  operator commands: REDIS_URL=$(cat {state_dir / URL_FILE}) flotilla keys list", flush=True)
    if ports[0] != "0":
        print(f"  metrics: http://{settings.metrics_addr}:{ports[0]}-{ports[-1]}/metrics", flush=True)
    flag = "-plaintext " if tls is None else f"-cacert {tls.ca_file} " if tls.ca_file else ""
    print(f"  try: grpcurl {flag}{target} list", flush=True)
    browser_bind = env["FLOTILLA_BROWSER_BIND"]
    if browser_bind != "off":  # FLOTILLA_BROWSER_BIND (docs/browser-transport.md): the web client + RPCs
        print(f"Play in your browser: {'http' if tls is None else 'https'}://{browser_bind}/", flush=True)


def _until_signal(children: list[subprocess.Popen[bytes]]) -> None:
    """Until SIGTERM or SIGINT, or one of `children` exits."""
    from flotilla.processes import signalled  # noqa: PLC0415

    stopped = signalled()
    while not stopped() and all(c.poll() is None for c in children):
        time.sleep(0.2)


async def _demo(target: str, kind: str, seats: int, tls: Tls | None = None) -> int:
    """Bots play one game through the gateway; print its events and the final scores."""
    import asyncio  # noqa: PLC0415

    from flotilla.games import REGISTRY  # noqa: PLC0415
    from flotilla.verify import verify_game  # noqa: PLC0415
    from flotilla_client import FlotillaClient, play_random  # noqa: PLC0415

    if kind not in REGISTRY:
        kind = "counter"
    async with FlotillaClient(target, tls=tls) as host:
        await host.sign_in("demo-host")
        game = await host.create_game(kind, seats=seats if kind != "counter" else 2)
        print(f"demo: {game.name} ({kind}, {game.seat_count} seats), seed commitment {game.seed_sha256[:16]}...")
        bots = []
        for i in range(game.seat_count):
            client = FlotillaClient(target, tls=tls)
            await client.sign_in(f"bot-{i}")
            bots.append((client, await client.join(game.name)))
        tasks = [asyncio.create_task(play_random(c, s, random.Random(i))) for i, (c, s) in enumerate(bots)]
        async for update in host.watch(game.name):
            for event in update.events:
                print(f"  #{event.event_id:<4} {event.summary}")
        await asyncio.gather(*tasks)
        final = await host.get_game(game.name)
        await verify_game(host, game.name, game.seed_sha256)
        scores = ", ".join(f"seat {i} ({s.display_name}): {final.result.scores[i]}" for i, s in enumerate(final.seats))
        winners = ", ".join(str(w) for w in final.result.winners)
        print(f"demo: finished after {final.last_event_id} events. Scores: {scores}. Winner seat(s): {winners}.")
        print("demo: replayed the action log from the revealed seed: dealing verified.")
        for client, _seat in bots:
            await client.close()
    return 0
