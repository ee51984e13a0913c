"""The `flotilla` command: up | gateway | worker | matchmaker | bot | keys | apikey | deadletter | arena.

`flotilla --help` and `flotilla COMMAND --help` describe every command and flag; the settings come
from the environment (flotilla/settings.py, the README's table). Exit codes:

| code | meaning |
|---|---|
| 0 | done (a server process: stopped by SIGTERM or SIGINT) |
| 1 | the command failed: the server refused it, no such key, a game did not end |
| 2 | bad usage: an unknown command or flag, a bad flag value, a port already taken |
| 69 | unreachable: Redis (`REDIS_URL`) or the gateway (`--target`) did not answer within `REACH_S` |
| 75 | a worker ended itself: its event loop was held longer than `FLOTILLA_WORKER_STALL_S` |
| 78 | bad settings: one line per bad environment variable (which, what was wrong, what is allowed) |

Errors of codes 2, 69 and 78 are short lines on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from flotilla.cores import resolve
from flotilla.logs import configure
from flotilla.metrics import DEFAULT_PORTS
from flotilla.metrics import serve as serve_metrics
from flotilla.processes import stop_all
from flotilla.redis_acl import URL_FILE, masked, write_private
from flotilla.redis_server import APPENDFSYNC_CHOICES
from flotilla.settings import Settings, SettingsError
from flotilla.worker.deadletters import add_parser as add_deadletter_parser
from flotilla_client.tls import Tls

_T = TypeVar("_T")

EXIT_FAILED, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_CONFIG = 1, 2, 69, 78
"""Exit codes (the module docstring's table; 75 is store/liveness.py's `STALLED_EXIT`)."""

REACH_S = 5.0
"""How long a command waits for Redis or a gateway to answer at start before it gives up (exit 69)."""


class Unreachable(Exception):
    """Redis or a gateway did not answer at start: the message names which and where."""


def redis_unreachable(error: BaseException) -> bool:
    """Whether `error` (or every error of a group) means Redis could not be reached."""
    from flotilla.store.transient import REDIS_TRANSIENT  # noqa: PLC0415

    if isinstance(error, BaseExceptionGroup):
        return all(redis_unreachable(e) for e in error.exceptions)
    return isinstance(error, (*REDIS_TRANSIENT, ConnectionError, TimeoutError))


async def reach_redis(settings: Settings) -> None:
    """One PING to REDIS_URL within `REACH_S`; raises `Unreachable` when it is not answered."""
    from flotilla.store.redis_store import RedisStore  # noqa: PLC0415

    store = RedisStore.from_settings(settings)
    try:
        await asyncio.wait_for(store.redis.ping(), REACH_S)
    except Exception as error:
        if not redis_unreachable(error):
            raise
        raise Unreachable(f"cannot reach Redis at {masked(settings.redis_url)} (REDIS_URL): {error}") from None
    finally:
        await store.close()


def _wait_for_gateway(target: str, timeout_s: float = 30.0, tls: Tls | None = None) -> None:
    """Until the gateway at `target` reports SERVING (over TLS when given `tls`)."""
    import grpc  # noqa: PLC0415
    from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: PLC0415

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with tls.channel(target) if tls else grpc.insecure_channel(target) as channel:
                reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
        except grpc.RpcError:
            time.sleep(0.2)
    hint = " over TLS (is the CA of its certificate FLOTILLA_GATEWAY_CA / --ca?)" if tls else ""
    msg = f"the gateway at {target} did not become healthy{hint}"
    raise TimeoutError(msg)


def reach_gateway(target: str, tls: Tls | None) -> None:
    """The gateway at `target` serves within `REACH_S`, or `Unreachable`."""
    try:
        _wait_for_gateway(target, REACH_S, tls)
    except TimeoutError as error:
        raise Unreachable(f"{error} within {REACH_S:g} s (is it running? --target)") from None


def metrics_ports(base: int, workers: int, gateways: int = 1) -> list[int]:
    """`flotilla up`'s metrics ports: its gateway processes from `base`, the workers after them, then
    the matchmaker (FLOTILLA_METRICS_PORT is the base; 0: every process without metrics)."""
    return [base + i if base > 0 else 0 for i in range(gateways + workers + 1)]


def up_client_tls(settings: Settings) -> Tls | None:
    """How `flotilla up` (and its matchmaker, demo) reach its gateway: FLOTILLA_GATEWAY_*, or TLS
    with the system's roots when the gateway serves TLS and nothing else is said."""
    from flotilla.client_tls import client_tls  # noqa: PLC0415

    return client_tls(settings) or (Tls() if settings.tls_cert else None)


def cmd_up(args: argparse.Namespace) -> int:
    """Embedded Redis (unless REDIS_URL) + G gateway processes on one port + W workers + a matchmaker,
    as separate processes; G and W sized from the cores unless given (flotilla/cores.py)."""
    from flotilla.redis_server import embedded_redis  # noqa: PLC0415

    settings = Settings.from_env()
    tls = up_client_tls(settings)
    gateways, workers = resolve(args.gateways, "gateway_processes"), resolve(args.workers, "workers")
    raw_base = os.environ.get("FLOTILLA_METRICS_PORT")
    base = int(raw_base) if raw_base else DEFAULT_PORTS["gateway"]
    ports = [str(p) for p in metrics_ports(base, workers, gateways)]
    state_dir = Path(args.state_dir).resolve()
    redis_server = None
    env = dict(os.environ)
    if env.get("REDIS_URL"):
        asyncio.run(reach_redis(settings))
    else:
        redis_server = embedded_redis(state_dir, args.redis_port, args.appendfsync).start()
        env["REDIS_URL"] = redis_server.url
        write_private(state_dir / URL_FILE, f"{redis_server.url}\n")
    env["FLOTILLA_BIND"] = f"{args.host}:{args.port}"
    browser_bind = env["FLOTILLA_BROWSER_BIND"] = os.environ.get("FLOTILLA_BROWSER_BIND") or settings.up_browser_bind
    if tls is not None:
        env["FLOTILLA_GATEWAY_TLS"] = "1"  # its matchmaker's bots
    children: list[subprocess.Popen[bytes]] = []
    exe = [sys.executable, "-m", "flotilla.cli"]
    try:
        # Metrics (FLOTILLA_METRICS_ADDR, loopback by default): the gateway processes from the base
        # port (FLOTILLA_METRICS_PORT, 9100), the workers on the next ones, then the matchmaker.
        gateway_env = dict(env, FLOTILLA_METRICS_PORT=ports[0], FLOTILLA_GATEWAY_PROCESSES=str(gateways))
        children.append(subprocess.Popen([*exe, "gateway"], env=gateway_env))
        children.extend(
            subprocess.Popen(
                [*exe, "worker"],
                env=dict(env, FLOTILLA_METRICS_PORT=ports[gateways + i], FLOTILLA_WORKER_PROCESSES="1"),
            )
            for i in range(workers)
        )
        children.append(  # rooms' bots, tickets, ratings
            subprocess.Popen([*exe, "matchmaker"], env=dict(env, FLOTILLA_METRICS_PORT=ports[-1]))
        )
        target = f"{args.host}:{args.port}"
        try:
            _wait_for_gateway(target, tls=tls)
        except TimeoutError as error:  # its own lines on stderr say why (a port taken, a bad certificate)
            raise Unreachable(str(error)) from None
        processes = f"{gateways} gateway process{'es' * (gateways > 1)}, {workers} worker{'s' * (workers > 1)}"
        print(f"Flotilla is up: gRPC on {target}, Redis at {masked(env['REDIS_URL'])}, {processes}.", flush=True)
        if redis_server is not None:  # its users' passwords: redis.passwords (flotilla/redis_acl.py)
            print(f"  operator commands: REDIS_URL=$(cat {state_dir / URL_FILE}) flotilla keys list", flush=True)
        if ports[0] != "0":
            print(f"  metrics: http://{settings.metrics_addr}:{ports[0]}-{ports[-1]}/metrics", flush=True)
        flag = "-plaintext " if tls is None else f"-cacert {tls.ca_file} " if tls.ca_file else ""
        print(f"  try: grpcurl {flag}{target} list", flush=True)
        if browser_bind != "off":  # FLOTILLA_BROWSER_BIND (docs/browser-transport.md): the web client + RPCs
            print(f"Play in your browser: {'http' if tls is None else 'https'}://{browser_bind}/", flush=True)
        if args.demo:
            return asyncio.run(_demo(target, args.game, args.seats, tls))
        stop = False

        def _stop(*_: object) -> None:
            nonlocal stop
            stop = True

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        while not stop and all(c.poll() is None for c in children):
            time.sleep(0.2)
        return 0
    finally:
        stop_all(children, grace_s=15)
        if redis_server is not None:
            redis_server.stop()
        print("Flotilla stopped.", flush=True)


async def _demo(target: str, kind: str, seats: int, tls: Tls | None = None) -> int:
    """Bots play one game through the gateway; print its events and the final scores."""
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


def run_service(main: Coroutine[Any, Any, None]) -> None:
    """Run a long-lived process on uvloop when it is installed (a faster event loop), else asyncio's."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        asyncio.run(main)
    else:
        uvloop.run(main)


def serve_process(process: str, main: Callable[[Settings], Coroutine[Any, Any, None]]) -> int:
    """Settings from the environment, logs, metrics, then the process's main loop."""
    settings = Settings.from_env()
    configure(process, settings.log_format)
    serve_metrics(process, settings.metrics_addr)
    run_service(main(settings))
    return 0


def cmd_gateway(_args: argparse.Namespace) -> int:
    """One gateway, or FLOTILLA_GATEWAY_PROCESSES of them on one port (flotilla/processes.py)."""
    settings = Settings.from_env()
    asyncio.run(reach_redis(settings))
    count = resolve(settings.gateway_processes, "gateway_processes")
    if count > 1:
        from flotilla.processes import run_gateways  # noqa: PLC0415

        configure("gateway", settings.log_format)
        return run_gateways(settings, count)
    from flotilla.gateway.server import BindError, serve  # noqa: PLC0415

    try:
        return serve_process("gateway", serve)
    except BindError as error:
        print(f"flotilla gateway: {error}", file=sys.stderr)
        return EXIT_USAGE


def cmd_worker(_args: argparse.Namespace) -> int:
    """One worker, or FLOTILLA_WORKER_PROCESSES of them (flotilla/processes.py)."""
    settings = Settings.from_env()
    asyncio.run(reach_redis(settings))
    count = resolve(settings.worker_processes, "workers")
    if count > 1:
        from flotilla.processes import run_workers  # noqa: PLC0415

        configure("worker", settings.log_format)
        return run_workers(count)
    from flotilla.worker.main import run_worker  # noqa: PLC0415

    return serve_process("worker", run_worker)


def cmd_matchmaker(_args: argparse.Namespace) -> int:
    from flotilla.matchmaker.main import MatchmakerSettings, run_matchmaker  # noqa: PLC0415

    asyncio.run(reach_redis(Settings.from_env()))
    return serve_process("matchmaker", lambda s: run_matchmaker(s, MatchmakerSettings.from_env(s)))


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """How a client command (bot, arena --target) reaches a gateway: TLS and an API key. The TLS
    flags default to FLOTILLA_GATEWAY_* (docs/security.md), read when the command runs (`tls_of`)."""
    parser.add_argument(
        "--tls", action="store_true", default=None, help="TLS (implied by --ca/--cert; default: $FLOTILLA_GATEWAY_TLS)"
    )
    parser.add_argument("--ca", help="PEM CA bundle the gateway's certificate chains to ($FLOTILLA_GATEWAY_CA)")
    parser.add_argument("--cert", help="PEM client certificate, for gateways that require one ($FLOTILLA_GATEWAY_CERT)")
    parser.add_argument("--key", help="its PEM private key ($FLOTILLA_GATEWAY_KEY)")
    parser.add_argument("--server-name", help="name the gateway's certificate carries ($FLOTILLA_GATEWAY_SERVER_NAME)")
    parser.add_argument(
        "--api-key",
        default=os.environ.get("FLOTILLA_API_KEY", ""),
        help="sign in with this API key (default: $FLOTILLA_API_KEY) instead of as a guest",
    )


def tls_of(args: argparse.Namespace) -> Tls | None:
    """The TLS settings of `add_connection_arguments`' flags, else FLOTILLA_GATEWAY_*'s (None: plaintext)."""
    gw = Settings.from_env()

    def flag(given: str | None, default: str) -> str:
        return default if given is None else given

    ca, cert = flag(args.ca, gw.gateway_ca), flag(args.cert, gw.gateway_cert)
    key, name = flag(args.key, gw.gateway_key), flag(args.server_name, gw.gateway_server_name)
    if args.tls or gw.gateway_tls or ca or cert or key:
        return Tls(ca, cert, key, name)
    return None


def cmd_bot(args: argparse.Namespace) -> int:
    """Seat a bot policy in a game, a room or the matchmaking queue (flotilla/bots/command.py)."""
    from flotilla.bots.command import known_policy, run  # noqa: PLC0415

    if not known_policy(args.policy):  # a usage error first, before the gateway is asked
        return EXIT_USAGE
    reach_gateway(args.target, tls_of(args))
    return asyncio.run(run(args, tls_of(args)))


def _admin(work: Callable[[Any, Settings], Coroutine[Any, Any, int]]) -> int:
    """Run an operator command against the Redis of REDIS_URL."""
    from flotilla.store.auth_store import AuthStore  # noqa: PLC0415
    from flotilla.store.redis_store import RedisStore  # noqa: PLC0415

    settings = Settings.from_env()

    async def run() -> int:
        await reach_redis(settings)
        store = RedisStore.from_settings(settings)
        try:
            return await work(AuthStore(store.redis), settings)
        finally:
            await store.close()

    return asyncio.run(run())


def _ms(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms / 1000)) if ms else "-"


def cmd_keys(args: argparse.Namespace) -> int:
    """Rotate or list the token-signing keys kept in Redis."""
    from flotilla.identity.configure import lifetimes  # noqa: PLC0415

    async def work(auth: Any, settings: Settings) -> int:
        if settings.secret:
            print("keys are pinned by FLOTILLA_SECRET (kid:secret,...): rotate them there", file=sys.stderr)
            return 2
        if args.action == "rotate":
            await auth.key_set()  # the first key, if there is none yet
            kid, retired = await auth.rotate(lifetimes(settings).longest_s)
            print(f"signing with {kid} now (gateways pick it up within FLOTILLA_KEYS_REFRESH)")
            for old in retired:
                print(f"retired {old}")
            return 0
        for key in await auth.list_keys():
            role = "signs" if key.signing else f"verifies (superseded {_ms(key.superseded_ms)})"
            print(f"{key.kid}  created {_ms(key.created_ms)}  {role}")
        return 0

    return _admin(work)


def cmd_apikey(args: argparse.Namespace) -> int:
    """Mint, list or revoke API keys of bot accounts."""
    from flotilla.app.errors import InvalidRequest  # noqa: PLC0415
    from flotilla.app.inputs import display_name  # noqa: PLC0415

    async def work(auth: Any, _settings: Settings) -> int:
        if args.action == "create":
            try:
                name = display_name(args.name or "", "--name")
            except InvalidRequest as error:
                print(error.message, file=sys.stderr)
                return 2
            record, key = await auth.create_api_key(name)
            print(f"API key {record.key_id} for {name} (users/{record.user}); shown once, keep it secret:")
            print(key)
            return 0
        if args.action == "revoke":
            if not args.id or not await auth.revoke_api_key(args.id):
                print(f"no API key {args.id!r}", file=sys.stderr)
                return 1
            print(f"revoked {args.id}: its sessions end within FLOTILLA_API_KEY_SESSION_TTL")
            return 0
        for record in await auth.list_api_keys():
            print(f"{record.key_id}  {record.name}  users/{record.user}  created {_ms(record.created_ms)}")
        return 0

    return _admin(work)


def cmd_deadletter(args: argparse.Namespace) -> int:
    """List or retry the work entries the workers set aside (worker/deadletters.py)."""
    from flotilla.worker.deadletters import run  # noqa: PLC0415

    async def work(auth: Any, _settings: Settings) -> int:
        return await run(args, auth.redis)

    return _admin(work)


def installed_version() -> str:
    """The installed distribution's version (the package's own when it runs from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("flotilla")
    except PackageNotFoundError:
        from flotilla.version import __version__  # noqa: PLC0415

        return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="flotilla", description="Flotilla game server")
    parser.add_argument("--version", action="version", version=f"%(prog)s {installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
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
    sub.add_parser("gateway", help="run a gRPC gateway (env: REDIS_URL, FLOTILLA_BIND, ...)").set_defaults(
        func=cmd_gateway
    )
    sub.add_parser("worker", help="run a rules worker (env: REDIS_URL, ...)").set_defaults(func=cmd_worker)
    sub.add_parser(
        "matchmaker", help="form games from tickets, play bot seats, rate games (env: FLOTILLA_GATEWAY, ...)"
    ).set_defaults(func=cmd_matchmaker)
    bot = sub.add_parser("bot", help="seat a bot policy in a game, a room or the matchmaking queue")
    from flotilla.bots.command import add_arguments  # noqa: PLC0415

    add_arguments(bot)
    bot.add_argument("--target", default="127.0.0.1:50051", help="the gateway, HOST:PORT (default: 127.0.0.1:50051)")
    bot.add_argument("--name", default="bot", help="the guest's display name (default: bot)")
    bot.add_argument("--seat", type=int, default=None, help="--game-id: this seat (default: any open one)")
    bot.add_argument("--seed", type=int, default=None, help="seed of the bots' random choices (default: random)")
    add_connection_arguments(bot)
    bot.set_defaults(func=cmd_bot)
    keys = sub.add_parser("keys", help="token-signing keys in Redis: rotate (a new one signs) or list")
    keys.add_argument("action", choices=("rotate", "list"), help="rotate: a new key signs; list: the keys kept")
    keys.set_defaults(func=cmd_keys)
    apikey = sub.add_parser("apikey", help="API keys of bot accounts: create --name NAME, list, revoke ID")
    apikey.add_argument("action", choices=("create", "list", "revoke"), help="create --name NAME, list, or revoke ID")
    apikey.add_argument("id", nargs="?", default="", help="the key id to revoke")
    apikey.add_argument("--name", default="", help="the bot's display name (create)")
    apikey.set_defaults(func=cmd_apikey)
    add_deadletter_parser(sub)
    sub.choices["deadletter"].set_defaults(func=cmd_deadletter)
    add_arena_parser(sub)
    return parser


def add_arena_parser(sub: Any) -> None:
    """`flotilla arena`: seat-rotated games between bot policies, in process (bots/arena.py) or on a
    running server (`--target`, bots/remote_arena.py)."""
    arena = sub.add_parser(
        "arena", help="play bot policies against each other (in process or on a server) and rate them"
    )
    arena.add_argument("--kind", required=True, help="game kind, e.g. port_royal")
    arena.add_argument("--seats", type=int, default=2, help="seats per game (default: 2)")
    arena.add_argument("--policies", required=True, help="comma-separated policy names, rotated over the seats")
    arena.add_argument("--games", type=int, default=10, help="games to play (default: 10)")
    arena.add_argument("--difficulty", default="1", help="one difficulty, or one per policy (comma-separated)")
    arena.add_argument("--budget", default="", help="playouts per decision of search policies (one, or per policy)")
    arena.add_argument("--seconds", default="", help="seconds per decision of search policies, instead of playouts")
    arena.add_argument("--option", action="append", default=[], help="game option key=value (repeatable)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots' choices (default: 0)")
    arena.add_argument(
        "--time-limit", type=float, default=None, help="stop after this many seconds (the game in progress is dropped)"
    )
    arena.add_argument("--target", default="", help="play on the server at HOST:PORT over gRPC (default: in process)")
    arena.add_argument("--name", default="arena", help="--target: the guests' display names (NAME-0, NAME-1, ...)")
    arena.add_argument("--concurrency", type=int, default=1, help="--target: games at once")
    arena.add_argument("--think", type=float, default=None, help="--target: seconds a decision may take at most")
    add_connection_arguments(arena)
    arena.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    """Print the arena's report (win rates with Wilson 95% intervals, scores, openskill)."""
    from flotilla.bots.arena import Entrant, run  # noqa: PLC0415
    from flotilla.bots.remote_arena import run_remote  # noqa: PLC0415
    from flotilla.games import REGISTRY  # noqa: PLC0415
    from flotilla.rules import InvalidConfig  # noqa: PLC0415
    from flotilla_client import FlotillaError  # noqa: PLC0415

    names = [n.strip() for n in args.policies.split(",") if n.strip()]

    def per_policy(raw: str, kind: Callable[[str], _T]) -> list[_T | None]:
        values: list[_T | None] = [kind(v) if v.strip() else None for v in raw.split(",")] if raw else [None]
        return values * len(names) if len(values) == 1 else values

    try:
        difficulties, budgets = per_policy(args.difficulty, int), per_policy(args.budget, int)
        seconds = per_policy(args.seconds, float)
        counts = {len(difficulties), len(budgets), len(seconds)}
        if args.kind not in REGISTRY or not names or counts != {len(names)}:
            msg = "unknown --kind, or --difficulty/--budget/--seconds not one value or one per policy"
            raise ValueError(msg)
        entrants = [
            Entrant(n, 1 if d is None else d, b, s)
            for n, d, b, s in zip(names, difficulties, budgets, seconds, strict=True)
        ]
        options = dict(o.split("=", 1) for o in args.option if "=" in o)
        if args.target:
            reach_gateway(args.target, tls_of(args))
            report = asyncio.run(
                run_remote(
                    args.target,
                    args.kind,
                    args.seats,
                    entrants,
                    args.games,
                    tls=tls_of(args),
                    api_key=args.api_key,
                    name=args.name,
                    options=options,
                    seed=args.seed,
                    concurrency=args.concurrency,
                    think_s=args.think,
                    time_limit_s=args.time_limit,
                )
            )
        else:
            report = run(
                REGISTRY[args.kind],
                args.seats,
                entrants,
                args.games,
                options=options,
                seed=args.seed,
                time_limit_s=args.time_limit,
            )
    except (ValueError, InvalidConfig) as exc:  # a bad number, policy name or game option
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except FlotillaError as exc:  # the server refused (a bad option, a rate limit it did not lift)
        print(f"arena: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print("\n".join(report.lines()))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one command; its errors of setting and reach are short lines on stderr (exit codes above)."""
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except SettingsError as bad:
        for line in bad.problems:
            print(f"flotilla: {line}", file=sys.stderr)
        return EXIT_CONFIG
    except Unreachable as error:
        print(f"flotilla: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE


if __name__ == "__main__":
    sys.exit(main())
