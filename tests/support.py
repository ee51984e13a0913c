"""Test support importable from any test module (`from support import ...`; pytest adds tests/ to sys.path)."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import redis.asyncio as aioredis
from prometheus_client.parser import text_string_to_metric_families

from flotilla.api.game.v1 import game_pb2
from flotilla.app.limits import ADDRESS, LIMITS
from flotilla.cli import _wait_for_gateway as _wait_for_serving
from flotilla.identity.keycache import KeyCache, KeySet
from flotilla.identity.tokens import Lifetimes, Tokens
from flotilla.redis_server import free_port, resp_command
from flotilla.store.auth_store import AuthStore
from flotilla_client import FlotillaClient, FlotillaError
from forkserver import Proc, spawn

FLOTILLA = [sys.executable, "-m", "flotilla.cli"]
"""The command line of a Flotilla process (`forkserver.spawn` forks it from a preloaded server)."""

START_TIMEOUT_S = 120.0
"""How long a test waits for a gateway it started to serve: a loaded machine imports slowly (the
wait ends as soon as the gateway serves, so a long bound costs nothing when all is well)."""


def wait_for_gateway(target: str) -> None:
    """Until the gateway at `target` serves (see START_TIMEOUT_S)."""
    _wait_for_serving(target, timeout_s=START_TIMEOUT_S)


# Every test client calls from 127.0.0.1 and the whole session shares one Redis, so per-address
# limits would add up over the session: test stacks raise them (test_limits.py drives them with
# forwarded addresses). Per-user limits keep their production defaults, since each test signs in
# users of its own: normal tests run with them on. Load tests add what they need (`stack_limits`).
LOOPBACK_LIMITS = ",".join(
    f"{limit.name}={'100000' if limit.is_quota else '1000/s:100000'}" for limit in LIMITS if limit.per == ADDRESS
)


def stack_limits(*changes: str) -> str:
    """FLOTILLA_LIMITS for a test stack: LOOPBACK_LIMITS, then `changes` (e.g. "streams_per_user=off")."""
    return ",".join((LOOPBACK_LIMITS, *changes))


UNPACED = {"FLOTILLA_LIMITS": stack_limits("submit_per_user=off")}
"""A stack's environment for random bots that submit as fast as the server answers: a seat of a
long game (Navegador: ~300 moves a seat) would otherwise spend most of the game waiting on
submit_per_user (20/s after a burst of 60; the SDK waits out each RetryInfo), which
tests/gateway/test_limits.py proves; set as a module's `STACK_ENV` (tests/conftest.py, `stack`)."""


@dataclass
class Stack:
    """Gateways and workers running as separate processes against one Redis."""

    redis_url: str
    gateways: list[str]
    gateway_procs: list[Proc]
    worker_procs: list[Proc]
    env: dict[str, str]
    log_dir: Path
    serve_metrics: bool = False
    metrics: list[tuple[str, int]] = field(default_factory=list)  # (process, port) when serve_metrics

    def start_worker(self) -> Proc:
        env = self.env
        if self.serve_metrics:
            env = dict(env, FLOTILLA_METRICS_PORT=str(port := free_port()))
            self.metrics.append(("worker", port))
        proc = spawn([*FLOTILLA, "worker"], env, self.log_dir / f"worker-{len(self.worker_procs)}.log")
        self.worker_procs.append(proc)
        return proc

    def wait_for_metrics(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Until every process started with `serve_metrics` answers on its /metrics port (a worker is
        not waited for otherwise: it serves no calls)."""
        deadline = time.monotonic() + timeout_s
        for process, port in self.metrics:
            while True:
                try:
                    scrape(port)
                    break
                except OSError as exc:  # urllib's URLError is one: refused, the process still starting
                    if time.monotonic() > deadline:
                        raise AssertionError(f"{process} /metrics on port {port}: {exc}") from None
                    time.sleep(0.05)

    def start_gateway(self, address: str) -> Proc:
        """A gateway process listening on `address` (not waited for: see `wait_for_gateway`)."""
        env = dict(self.env, FLOTILLA_BIND=address)
        if self.serve_metrics:
            env["FLOTILLA_METRICS_PORT"] = str(port := free_port())
            self.metrics.append(("gateway", port))
        n = len(list(self.log_dir.glob("gateway-*.log")))
        return spawn([*FLOTILLA, "gateway"], env, self.log_dir / f"gateway-{n}.log")

    def restart_gateway(self, index: int) -> None:
        """SIGKILL gateway `index`, as a crash would, and start a new one on the same address."""
        self.gateway_procs[index].kill()
        self.gateway_procs[index].wait()
        self.gateway_procs[index] = self.start_gateway(self.gateways[index])
        wait_for_gateway(self.gateways[index])

    def stop(self) -> None:
        for proc in [*self.gateway_procs, *self.worker_procs]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*self.gateway_procs, *self.worker_procs]:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)  # reaped: an unreaped child is a ResourceWarning in whatever test runs next


def stack_env(redis_url: str, extra_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a stack's processes (heartbeat 2 s, submit timeout 10 s, LOOPBACK_LIMITS,
    no trusted proxy, JSON logs), then `extra_env`."""
    env = dict(os.environ, FLOTILLA_METRICS_PORT="0")
    env.update(REDIS_URL=redis_url, FLOTILLA_LOG_FORMAT="json", FLOTILLA_HEARTBEAT="2", FLOTILLA_SUBMIT_TIMEOUT="10")
    env.update(FLOTILLA_LIMITS=stack_limits(), FLOTILLA_TRUSTED_PROXIES="")
    env.update(extra_env or {})
    return env


def start_stack(
    redis_url: str,
    log_dir: Path,
    *,
    gateways: int = 2,
    workers: int = 2,
    extra_env: dict[str, str] | None = None,
    metrics: bool = False,
) -> Stack:
    """Gateways and workers as subprocesses; with `metrics`, each serves /metrics on its own free port.
    `extra_env` is applied last (it may override the defaults)."""
    env = stack_env(redis_url, extra_env)
    stack = Stack(redis_url, [], [], [], env, log_dir, serve_metrics=metrics)
    try:
        for _ in range(gateways):
            stack.gateways.append(f"127.0.0.1:{free_port()}")
            stack.gateway_procs.append(stack.start_gateway(stack.gateways[-1]))
        for _ in range(workers):
            stack.start_worker()
        for target in stack.gateways:
            wait_for_gateway(target)
        stack.wait_for_metrics()
    except BaseException:
        stack.stop()  # a stack that failed to start must not outlive its test, burning CPU
        raise
    return stack


@dataclass
class PlayedGame:
    game: str
    kind: str
    seats: int
    seed_sha256: str
    event_ids_by_watcher: list[list[int]]
    final_version: int


def choose(rng: random.Random, legal: Sequence[game_pb2.Action]) -> game_pb2.Action:
    """A uniformly random legal action, but a Navegador knight whenever one is for sale (random
    play alone takes a Navegador game 1,000-3,000 decisions)."""
    knights = [a for a in legal if a.WhichOneof("game") == "navegador" and a.navegador.HasField("buy_knight")]
    if knights:
        return knights[0]
    return rng.choice(list(legal))


class Gateways(Protocol):
    """Where a test's clients connect: a `Stack`'s processes or an `inproc.InProcess`'s gateways."""

    @property
    def gateways(self) -> list[str]: ...


async def play_full_game(
    stack: Gateways, kind: str, seats: int, options: dict[str, str] | None = None, *, seed: int = 0
) -> PlayedGame:
    """Random bots (each on its own gateway, round robin; `choose`) play one game to the end; a
    spectator and every bot record the event ids they received."""
    targets = stack.gateways
    host = FlotillaClient(targets[0])
    await host.sign_in("host")
    game = await host.create_game(kind, seats, options)
    clients = [FlotillaClient(targets[i % len(targets)]) for i in range(seats)]
    seen: list[list[int]] = [[] for _ in range(seats + 1)]

    async def bot(i: int) -> None:
        client = clients[i]
        await client.sign_in(f"bot{i}")
        seat = await client.join(game.name)
        rng = random.Random(seed * 100 + i)
        async for update in client.watch(game.name, seat):
            seen[i].extend(e.event_id for e in update.events)
            if update.HasField("view"):
                seen[i].append(-update.view.through_event_id)  # a full view: the ids up to here are covered
            if update.HasField("prompt"):
                action = choose(rng, update.prompt.legal_actions)
                try:
                    await client.submit(game.name, seat, action, etag=update.prompt.etag)
                except FlotillaError as error:  # simultaneous seats: another seat moved first
                    if error.reason not in ("ERROR_REASON_STALE_GAME_VERSION", "ERROR_REASON_NOT_YOUR_TURN"):
                        raise

    async def spectator() -> None:
        async for update in host.watch(game.name):
            seen[seats].extend(e.event_id for e in update.events)
            if update.HasField("view"):
                seen[seats].append(-update.view.through_event_id)

    await asyncio.wait_for(asyncio.gather(*(bot(i) for i in range(seats)), spectator()), 300)
    final = await host.get_game(game.name)
    for client in [host, *clients]:
        await client.close()
    return PlayedGame(game.name, kind, seats, game.seed_sha256, seen, final.last_event_id)


def assert_gapless(ids: list[int], final_version: int) -> None:
    """A watcher's ids: one full view (negative marker: covers ids up to it), then every later
    event id exactly once, consecutive, up to the game's last."""
    assert ids, "the watcher received nothing"
    assert ids[0] < 0, "a watch from 0 starts with a full view"
    events = ids[1:]
    assert all(i > 0 for i in events), "only one full view was expected"
    assert events == list(range(-ids[0] + 1, final_version + 1)), f"not gapless: {events[:10]}..."


async def assert_stored_state_replays(redis_url: str, game: str) -> None:
    """The state stored in Redis equals a replay of the stored action log from the game's seed."""
    from flotilla.app.host import host_for
    from flotilla.rules import Seat
    from flotilla.rules.replay import replay
    from flotilla.store.redis_store import RedisStore

    store = RedisStore.from_url(redis_url)
    try:
        game_id = game.removeprefix("games/")
        row = await store.load(game_id)
        assert row is not None
        meta, raw = row
        host = host_for(meta.kind, meta.rules_version)
        stored = host.loads(raw)
        moves = [(Seat(row.seat), host.codec.from_plain(row.action)) for row in await store.actions_log(game_id)]
        state = replay(host.rules, host.config(meta.seat_count, meta.options), stored.rng.seed, moves)
        assert state == stored, "the stored state is not the replay of the action log"
    finally:
        await store.close()


async def until(condition: Callable[[], Awaitable[bool]], timeout_s: float, what: str, every_s: float = 0.01) -> None:
    """Poll `condition` every `every_s` until it holds; fail the test after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(every_s)


def listening_on(port: int) -> set[str]:
    """The local addresses of the sockets listening on TCP `port` (from /proc/net/tcp and tcp6)."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                local, state = line.split()[1], line.split()[3]
                address, hex_port = local.rsplit(":", 1)
                if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                    raw = bytes.fromhex(address)
                    words = [raw[i : i + 4][::-1] for i in range(0, len(raw), 4)]  # little-endian 32-bit words
                    found.add(str(ipaddress.ip_address(b"".join(words))))
    return found


def ask(port: int, *command: bytes, user: bytes = b"", password: bytes = b"") -> bytes:
    """One command to the Redis on 127.0.0.1:`port` on a fresh connection (after AUTH as `user` when
    given one), and its whole raw reply (RESP): the connection ends with QUIT, read to its close."""
    auth = resp_command(b"AUTH", user, password) if user else b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(auth + resp_command(*command) + resp_command(b"QUIT"))
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
    reply = reply.split(b"\r\n", 1)[1] if auth else reply  # AUTH's answer
    return reply.removesuffix(b"+OK\r\n")  # QUIT's


async def stored_tokens(redis_url: str, lifetimes: Lifetimes | None = None) -> Tokens:
    """Tokens that sign with the key set the stack's gateways keep in Redis (loaded once)."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        found = await AuthStore(client).key_set()
    finally:
        await client.aclose()
    return pinned_tokens(KeySet(found.keys, current=found.current), lifetimes)


def pinned_tokens(keys: KeySet[bytes], lifetimes: Lifetimes | None = None) -> Tokens:
    """Tokens over a fixed key set (no Redis): for tokens a test forges or lets expire."""

    async def load() -> KeySet[bytes]:
        return keys

    cache: KeyCache[bytes] = KeyCache(load, name="test", refresh_s=0)
    cache.keys = keys
    return Tokens(cache, lifetimes)


def scrape(port: int) -> dict[str, float]:
    """A process's /metrics on 127.0.0.1:`port`, as {"name{label=value,...}": value}."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    values: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            values[f"{sample.name}{{{labels}}}"] = sample.value
    return values
