"""The worker loop: XREADGROUP -> apply the rules -> commit script -> outcome to the gateway -> XACK.

Stateless: the only thing kept between batches is a cache of committed states by game,
checked on every commit by the version compare-and-set, so a stale entry costs one retry.
A worker that dies leaves its messages pending; another reclaims them with XAUTOCLAIM and
the per-request outcome record makes the retry harmless (applied at most once).

Per batch, each game advances at most one action per round (rounds repeat until the
batch is done), so a commit is only ever computed from a committed state.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import structlog
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla.app.errors import AppError, GameNotFound, StaleVersion
from flotilla.app.host import GameHost, host_for, result_plain
from flotilla.app.outcome import Outcome
from flotilla.games import REGISTRY
from flotilla.rules import RulesError, Seat
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.worker")

CAS_RETRIES = 5


@dataclass(slots=True)
class Work:
    """One submitted action read from a work stream."""

    stream: str
    msg_id: bytes
    game_id: str
    seat: Seat
    action: bytes
    request_id: str
    etag: str
    inbox: str


@dataclass(slots=True)
class Loaded:
    """A committed game state held in the worker's cache."""

    host: GameHost
    version: int
    state: Any
    finished: bool


def parse_work(stream: str, msg_id: bytes, fields: dict[bytes, bytes]) -> Work:
    return Work(
        stream=stream,
        msg_id=msg_id,
        game_id=fields[b"g"].decode(),
        seat=Seat(int(fields[b"s"])),
        action=fields[b"a"],
        request_id=fields[b"r"].decode(),
        etag=fields.get(b"e", b"").decode(),
        inbox=fields[b"i"].decode(),
    )


def work_streams(shards: int, kinds: Sequence[str] | None = None) -> list[str]:
    """Every work stream this process's rules can serve."""
    names = kinds or list(REGISTRY)
    return [keys.work(name, REGISTRY[name].version, shard) for name in names for shard in range(shards)]


class Worker:
    """Applies submitted actions. Run any number side by side."""

    def __init__(
        self,
        store: RedisStore,
        *,
        shards: int = 4,
        consumer: str | None = None,
        batch: int = 128,
        block_ms: int = 1000,
        claim_idle_ms: int = 10_000,
        cache_size: int = 50_000,
        kinds: Sequence[str] | None = None,
    ) -> None:
        self.store = store
        self.streams = work_streams(shards, kinds)
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}"
        self.batch = batch
        self.block_ms = block_ms
        self.claim_idle_ms = claim_idle_ms
        self.cache: OrderedDict[str, Loaded] = OrderedDict()
        self.cache_size = cache_size
        self.applied = 0
        self.rejected = 0
        self._stopping = asyncio.Event()

    def stop(self) -> None:
        """Finish the batch in hand, then return from `run` (SIGTERM)."""
        self._stopping.set()

    async def run(self) -> None:
        """Serve the work streams until `stop()`."""
        self._stopping.clear()
        for stream in self.streams:
            await self.store.ensure_group(stream)
        log.info("worker.started", consumer=self.consumer, streams=len(self.streams))
        last_claim = 0.0
        while not self._stopping.is_set():
            try:
                messages = await self.store.read_work(self.streams, self.consumer, self.batch, self.block_ms)
                if time.monotonic() - last_claim > self.claim_idle_ms / 2000:
                    last_claim = time.monotonic()
                    for stream in self.streams:
                        messages += await self.store.reclaim_work(stream, self.consumer, self.claim_idle_ms, 100)
                if messages:
                    await self.handle([parse_work(*m) for m in messages])
            except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                log.warning("worker.redis_unavailable", error=str(exc))
                self.cache.clear()
                await asyncio.sleep(0.5)
            except ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                log.warning("worker.group_missing", error=str(exc))  # Redis lost its data: start over
                self.cache.clear()
                for stream in self.streams:
                    await self.store.ensure_group(stream)
        log.info("worker.stopped", consumer=self.consumer, applied=self.applied, rejected=self.rejected)

    # --- one batch ---------------------------------------------------------------------
    async def handle(self, batch: list[Work]) -> None:
        """Apply a batch: one action per game per round, until every message is answered."""
        pending: OrderedDict[str, list[Work]] = OrderedDict()
        for work in batch:
            pending.setdefault(work.game_id, []).append(work)
        attempts: dict[bytes, int] = {}
        while pending:
            round_ = [queue[0] for queue in pending.values()]
            retry = await self.round(round_, attempts)
            for work in round_:
                if work.msg_id in retry:
                    continue
                queue = pending[work.game_id]
                queue.pop(0)
                if not queue:
                    del pending[work.game_id]

    async def round(self, works: list[Work], attempts: dict[bytes, int]) -> set[bytes]:
        """Process one action of each game; returns the messages to retry (version moved)."""
        fresh = {w.game_id for w in works if w.game_id not in self.cache}
        cached = await self.prefetch(works)
        retry: set[bytes] = set()
        now_ms = int(time.time() * 1000)
        commits: list[tuple[list[str], list[Any]]] = []
        committing: list[tuple[Work, Loaded, Outcome]] = []
        replies: list[tuple[Work, Outcome, bool]] = []  # (work, outcome, cache the rejection)
        for work, earlier in zip(works, cached, strict=True):
            if earlier is not None:
                replies.append((work, Outcome.loads(earlier), False))
                continue
            loaded = self.cache.get(work.game_id)
            try:
                if loaded is None:
                    raise GameNotFound(f"no game games/{work.game_id}", game=work.game_id)
                if work.etag and work.etag != str(loaded.version):
                    raise StaleVersion(
                        f"etag {work.etag} is stale; the game is at {loaded.version}",
                        etag=work.etag,
                        current=str(loaded.version),
                    )
                action = loaded.host.loads(work.action)
                step = loaded.host.step(loaded.state, work.seat, action, loaded.version, now_ms)
            except (RulesError, AppError) as exc:
                if work.game_id not in fresh:  # judged on a cached state: check again on the stored one
                    self.cache.pop(work.game_id, None)
                    retry.add(work.msg_id)
                    continue
                replies.append((work, Outcome.rejected(exc), isinstance(exc, RulesError)))
                continue
            except (ValueError, TypeError, KeyError) as exc:  # an undecodable action in the stream
                log.warning("worker.bad_message", game=work.game_id, request_id=work.request_id, error=str(exc))
                replies.append((work, Outcome(False, reason="INVALID_ACTION", message="malformed action"), False))
                continue
            outcome = Outcome.accepted(step.version, step.events)
            host = loaded.host
            record = orjson.dumps([int(work.seat), orjson.Fragment(work.action), step.version])
            commits.append(
                self.store.commit_args(
                    work.game_id,
                    work.request_id,
                    expected=loaded.version,
                    version=step.version,
                    state=host.dumps(step.state),
                    events=orjson.dumps(step.events),
                    prompts=orjson.dumps(step.prompts),
                    to_act=orjson.dumps(step.to_act),
                    status="finished" if step.result is not None else "",
                    result=orjson.dumps(result_plain(step.result)) if step.result is not None else b"",
                    record=record,
                    outcome=outcome.dumps(),
                )
            )
            committing.append((work, Loaded(host, step.version, step.state, step.result is not None), outcome))
        for (work, after, outcome), done in zip(committing, await self.store.commit_many(commits), strict=True):
            if done.code == 1:
                self.remember(work.game_id, after)
                if after.finished:  # for the ratings consumer of the matchmakers (docs/lobbies.md)
                    await self.store.redis.xadd(keys.FINISHED, {"g": work.game_id}, maxlen=100_000, approximate=True)
                self.applied += 1
                replies.append((work, outcome, False))
                log.debug(
                    "worker.applied",
                    game=work.game_id,
                    seat=work.seat,
                    request_id=work.request_id,
                    version=after.version,
                )
            elif done.code == 0:
                self.cache.pop(work.game_id, None)
                replies.append((work, Outcome.loads(done.outcome or b""), False))
            else:
                self.cache.pop(work.game_id, None)
                attempts[work.msg_id] = attempts.get(work.msg_id, 0) + 1
                if attempts[work.msg_id] < CAS_RETRIES:
                    retry.add(work.msg_id)
                else:
                    error = StaleVersion("the game kept moving; retry", game=work.game_id)
                    replies.append((work, Outcome.rejected(error), False))
        for work, outcome, _ in replies:
            if not outcome.ok:
                self.rejected += 1
                log.info(
                    "worker.rejected",
                    game=work.game_id,
                    seat=work.seat,
                    request_id=work.request_id,
                    reason=outcome.reason,
                )
        await self.finish(replies)
        return retry

    async def prefetch(self, works: list[Work]) -> list[bytes | None]:
        """Earlier outcomes of these request ids, and the states of games not in the cache."""
        missing = [w.game_id for w in works if w.game_id not in self.cache]
        earlier = await self.store.earlier_outcomes([(w.game_id, w.request_id) for w in works])
        if missing:
            for game_id, row in zip(missing, await self.store.load_many(missing), strict=True):
                if row is None:
                    continue
                meta, state = row
                try:
                    host = host_for(meta.kind, meta.rules_version)
                except AppError as exc:  # routed to the wrong rules version: never apply other rules
                    log.error("worker.wrong_rules_version", game=game_id, error=exc.message)
                    continue
                self.remember(game_id, Loaded(host, meta.version, host.loads(state), meta.status == "finished"))
        return earlier

    def remember(self, game_id: str, loaded: Loaded) -> None:
        self.cache[game_id] = loaded
        self.cache.move_to_end(game_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    async def finish(self, replies: list[tuple[Work, Outcome, bool]]) -> None:
        await self.store.finish_work(
            rejections=[(w.game_id, w.request_id, o.dumps()) for w, o, cache_it in replies if cache_it],
            replies=[(w.inbox, {"r": w.request_id, "o": o.dumps()}) for w, o, _ in replies],
            acks=[(w.stream, w.msg_id) for w, _, _ in replies],
        )
