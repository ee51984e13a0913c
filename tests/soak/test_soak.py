"""Soak: 300 short games through a real stack while workers and gateways are killed;
afterwards Redis holds only what it should (key families counted, memory compared, figures printed).

Hundreds of games is the claim; 300 of them (it was 600, and 1,200 before that): every per-game
key is counted after the run, so a leak that happens once in the run fails it; what a larger count
adds is the chance to meet a leak rarer than one game in a few hundred, at ~8 CPU-s per 300 games
(measured 22.8 -> 14.7 CPU-s) on the 2-core machine whose whole suite must fit 8 minutes.

Its own Redis, two gateways, two workers and a ratings consumer, with short lifetimes
(finished games and outcome records 15 s, inboxes 2 s, janitor every second), so that once the
games are over everything per game expires within seconds. A finished game and its outcomes
must outlive every retry of its last move (the gateway's 10 s submit deadline and the SDK's
backoff after it): a retry that found the game expired would get NOT_FOUND, not its outcome.
Checks: every game finished with every move applied once; work streams empty with nothing pending; every consumer of the
workers' group is a live worker; only the live gateways' inboxes exist; no per-game key is
left; every key without a TTL belongs to a known, bounded family; every family holds as many
keys and (outside the ratings, which grow with each user's games) as many bytes as before.
`used_memory` is printed too: its client-buffer part grows with the connections the
processes' Redis pools opened under load.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2
from flotilla.app.limits import LIMITS
from flotilla.redis_server import RedisServer
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient
from forkserver import spawn
from lobby.mm_support import start_matchmaker, stop
from support import FLOTILLA, Stack, stack_limits, start_stack, wait_for_gateway

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]

GAMES = 300  # in lanes of 24, with the 4 kills spread over them
LANES = 24  # games in flight at once
KILLS = ("worker", "gateway", "worker", "gateway")  # spread over the run
ADD = game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))
LIFETIMES = {
    "FLOTILLA_FINISHED_TTL": "15",
    "FLOTILLA_OUTCOME_TTL": "15",
    "FLOTILLA_INBOX_TTL": "2",
    "FLOTILLA_JANITOR_INTERVAL": "1",
    # Each lane's user creates and joins a game every few hundred ms: more than a user's defaults.
    "FLOTILLA_LIMITS": stack_limits("create_game_per_user=off", "join_per_user=off"),
}

# Key families: (name, pattern). The first match names a key.
FAMILIES = [
    ("game", r"flotilla:game:\{[^}]+\}$"),
    ("game seats/events/actions", r"flotilla:game:\{[^}]+\}:(seats|events|actions)$"),
    ("outcome record", r"flotilla:game:\{[^}]+\}:req:"),
    ("work stream", r"flotilla:work:"),
    ("worker liveness", r"flotilla:worker:"),
    ("worker registry", r"flotilla:workers$"),
    ("gateway inbox", r"flotilla:inbox:"),
    ("user", r"flotilla:user:"),
    ("game listing", r"flotilla:games"),
    ("rating guard", r"flotilla:\{rating:[^}]+\}:rated:"),
    ("ratings", r"flotilla:\{rating:"),
    ("finished stream", r"flotilla:finished$"),
    ("timers", r"flotilla:timers$"),
    ("janitor", r"flotilla:janitor:"),
    ("signing keys", r"flotilla:keys$"),
    ("api keys", r"flotilla:apikeys?(:|$)"),
    ("seat revocation", r"flotilla:game:\{[^}]+\}:revoked:"),
    ("rate limit bucket", r"flotilla:limit:"),
    ("held games/rooms", r"flotilla:held:"),
    ("stream leases", r"flotilla:streams:"),
]
PER_GAME = ("game", "game seats/events/actions", "outcome record")
# Families that may hold keys without a TTL: one key each, or one per live process / rated user.
UNEXPIRING = {
    "work stream",
    "game listing",
    "ratings",
    "finished stream",
    "timers",
    "janitor",
    "signing keys",
    "api keys",
    "user",
}


def family(key: str) -> str:
    return next((name for name, pattern in FAMILIES if re.match(pattern, key)), key)


class Soak:
    """The running processes, with kill-and-restart for workers and gateways."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.binds = list(stack.gateways)
        self.kills: list[str] = []

    def kill_worker(self) -> None:
        victim = next(p for p in self.stack.worker_procs if p.poll() is None)
        victim.kill()
        victim.wait(10)
        self.stack.start_worker()
        self.kills.append("worker")

    def kill_gateway(self, i: int) -> None:
        victim = self.stack.gateway_procs[i]
        victim.kill()
        victim.wait(10)
        env = dict(self.stack.env, FLOTILLA_BIND=self.binds[i])
        log = self.stack.log_dir / f"gateway-{i}-restarted.log"
        self.stack.gateway_procs[i] = spawn([*FLOTILLA, "gateway"], env, log)
        wait_for_gateway(self.binds[i])
        self.kills.append("gateway")


@pytest.fixture
def soak(tmp_path: Path) -> Iterator[Soak]:
    redis = RedisServer(tmp_path / "redis", aof=False).start()
    stack = start_stack(redis.url, tmp_path, gateways=2, workers=2, extra_env=LIFETIMES)
    ratings = start_matchmaker(stack, tmp_path, "ratings", FLOTILLA_MM_ROLES="ratings")
    yield Soak(stack)
    stop(ratings)
    stack.stop()
    redis.stop()


async def census(store: RedisStore) -> tuple[Counter[str], set[str], list[str]]:
    """(keys per family, keys, keys without a TTL outside the unexpiring families)."""
    found = [key.decode() async for key in store.redis.scan_iter(count=1000)]
    async with store.redis.pipeline(transaction=False) as pipe:
        for key in found:
            pipe.pttl(key)
        ttls = await pipe.execute()
    loose = [k for k, ttl in zip(found, ttls, strict=True) if ttl == -1 and family(k) not in UNEXPIRING]
    return Counter(family(k) for k in found), set(found), loose


async def play(clients: tuple[FlotillaClient, FlotillaClient]) -> int:
    """One counter game of two moves; returns its last event id."""
    one, two = clients
    game = await one.create_game("counter", 2, {"moves": "2"})
    seats = [await one.join(game.name), await two.join(game.name)]
    await one.submit(game.name, seats[0], ADD)
    return (await two.submit(game.name, seats[1], ADD)).through_event_id


async def settled(store: RedisStore, soak: Soak, timeout_s: float) -> tuple[Counter[str], list[str]]:
    """Wait until nothing per game is left and the listings are clean; the final census."""
    deadline = time.monotonic() + timeout_s
    while True:
        if await clean(store, soak) or time.monotonic() > deadline:
            counts, _found, loose = await census(store)
            return counts, loose
        await asyncio.sleep(0.25)


async def clean(store: RedisStore, soak: Soak) -> bool:
    """No per-game key and no listing index left, nothing on the finished stream, one inbox per
    live gateway. (Redis picks the keys out, `SCAN MATCH`: a census of every key, each polled for
    its TTL, is read once, when this holds.)"""
    if await store.redis.xlen(keys.FINISHED):
        return False
    for pattern in ("flotilla:game:*", "flotilla:games*"):  # PER_GAME's families, and the listings'
        async for key in store.redis.scan_iter(match=pattern, count=1000):
            if family(key.decode()) in (*PER_GAME, "game listing"):
                return False
    inboxes = [key async for key in store.redis.scan_iter(match="flotilla:inbox:*", count=1000)]
    return len(inboxes) == len(soak.binds)


async def memory(store: RedisStore) -> tuple[int, int, Counter[str]]:
    """(used_memory, client buffers, bytes held by each key family: MEMORY USAGE summed)."""
    stats = await store.redis.memory_stats()
    found = [key async for key in store.redis.scan_iter(count=1000)]
    async with store.redis.pipeline(transaction=False) as pipe:
        for key in found:
            pipe.memory_usage(key, samples=0)
        sizes = await pipe.execute()
    held: Counter[str] = Counter()
    for key, size in zip(found, sizes, strict=True):
        held[family(key.decode())] += size or 0
    return int(stats["total.allocated"]), int(stats["clients.normal"]), held


PER_USER_BOUNDED = ("ratings", "rating guard", "held games/rooms")


def outside_ratings(held: Counter[str]) -> int:
    """Bytes outside what each user holds, bounded, after its games: its rating history grows with
    its games (up to 1,000 entries), a rated guard lives a minute past its game, and the ids of
    the games it created stay in its open-games quota set until the quota fills (then the finished
    ones are dropped: 20 at most, `open_games_per_user`; so its size at the end depends on how many
    games each lane played, 13 here: ~11 kB more for 24 users, under no leak)."""
    return sum(n for name, n in held.items() if name not in PER_USER_BOUNDED)


async def assert_quota_sets_bounded(store: RedisStore) -> None:
    """Each user's open-games quota set holds at most the quota's 20 ids (the bound of that family)."""
    quota = next(limit.burst for limit in LIMITS if limit.name == "open_games_per_user")
    async for key in store.redis.scan_iter(match=keys.held("*", "games"), count=1000):
        assert await store.redis.zcard(key) <= quota, f"{key!r} holds more than the quota"


async def test_hundreds_of_games_with_kills_leave_redis_as_they_found_it(soak: Soak) -> None:
    stack = soak.stack
    store = RedisStore.from_url(stack.redis_url)
    lanes = [(FlotillaClient(*stack.gateways), FlotillaClient(*reversed(stack.gateways))) for _ in range(LANES)]
    try:
        for i, (one, two) in enumerate(lanes):
            await one.sign_in(f"a{i}")
            await two.sign_in(f"b{i}")
        for lane in lanes:  # warm up: every script loaded, every stream and group made
            assert await play(lane) == 4
        await settled(store, soak, 45)
        before_counts, _, _ = await census(store)
        before = await memory(store)

        started = time.monotonic()
        finished: list[int] = []
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n in range(GAMES):
            queue.put_nowait(n)

        milestones = [(GAMES * (i + 1) // (len(KILLS) + 1), asyncio.Event()) for i in range(len(KILLS))]

        async def lane(clients: tuple[FlotillaClient, FlotillaClient]) -> None:
            while not queue.empty():
                queue.get_nowait()
                finished.append(await play(clients))
                for games, reached in milestones:
                    if len(finished) >= games:
                        reached.set()

        async def killer() -> None:
            for i, what in enumerate(KILLS):
                await milestones[i][1].wait()
                if what == "worker":
                    soak.kill_worker()
                else:
                    await asyncio.to_thread(soak.kill_gateway, i // 2 % len(soak.binds))

        await asyncio.wait_for(asyncio.gather(*(lane(c) for c in lanes), killer()), 200)
        played_s = time.monotonic() - started
        assert finished == [4] * GAMES  # every game ended, every move applied once

        counts, loose = await settled(store, soak, 55)
        after = await memory(store)
        live_workers = {
            key.decode().removeprefix("flotilla:worker:{").removesuffix("}")
            async for key in store.redis.scan_iter(match="flotilla:worker:*")
        }
        print(
            f"\n{GAMES} games in {played_s:.1f} s ({GAMES / played_s:.0f}/s), kills: {', '.join(soak.kills)}"
            f"\nused_memory {before[0] / 1e6:.2f} MB -> {after[0] / 1e6:.2f} MB, of which client buffers"
            f" {before[1] / 1e3:.0f} kB -> {after[1] / 1e3:.0f} kB; keys outside the ratings"
            f" {outside_ratings(before[2]) / 1e3:.1f} kB -> {outside_ratings(after[2]) / 1e3:.1f} kB"
            f"\nbytes before: {dict(sorted(before[2].items()))}\nbytes after:  {dict(sorted(after[2].items()))}"
            f"\nkeys before: {dict(sorted(before_counts.items()))}\nkeys after:  {dict(sorted(counts.items()))}"
        )
        assert not loose, f"keys that never expire: {loose[:10]}"
        assert not any(counts[f] for f in PER_GAME), "per-game keys are left"
        assert not await store.redis.zcard(keys.GAMES)  # the janitor dropped the expired games' ids
        assert await store.redis.xlen(keys.FINISHED) == 0  # rated and deleted
        assert counts["gateway inbox"] == len(soak.binds)  # the killed gateway's inbox is gone
        assert counts["worker liveness"] == len(live_workers) == 2
        registered = {name.decode() for name in await store.redis.zrange(keys.WORKERS, 0, -1)}
        assert registered == live_workers, "the worker registry names a dead worker (or misses a live one)"
        for stream in [k async for k in store.redis.scan_iter(match="flotilla:work:*")]:
            assert await store.redis.xlen(stream) == 0
            group = await store.redis.xinfo_consumers(stream, keys.WORKER_GROUP)
            assert {c["name"].decode() for c in group} <= live_workers, "a dead worker's consumer is left"
            assert all(c["pending"] == 0 for c in group)
        for name in set(counts) | set(before_counts):  # per live process, per user, per index: as before
            if name not in ("rating guard", "timers", "rate limit bucket"):  # guards expire a minute after their game
                assert counts[name] == before_counts[name], name
        assert outside_ratings(after[2]) - outside_ratings(before[2]) < 20_000, "Redis data grew"
        await assert_quota_sets_bounded(store)
    finally:
        for one, two in lanes:
            await one.close()
            await two.close()
        await store.close()
