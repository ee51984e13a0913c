"""Game use cases for the gateway: create, join, list, read, submit, watch. No grpc here."""

from __future__ import annotations

import asyncio
import bisect
import re
import secrets
import time
import uuid
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, cast

import orjson
import structlog

from flotilla import metrics
from flotilla.app import clocks, listing
from flotilla.app.errors import GameFull, GameNotFinished, GameNotFound, InvalidRequest, NotSeated, SeatAbsent
from flotilla.app.host import GameHost, host_for, seed_commitment
from flotilla.app.inbox import Inbox
from flotilla.app.inputs import action_size, echo
from flotilla.app.limits import Gate
from flotilla.app.lineage import new_lineage, parse_etag
from flotilla.app.outcome import Outcome
from flotilla.app.pacing import Budget
from flotilla.app.replays import Replays
from flotilla.app.watching import Answer, Batch, Watcher
from flotilla.records import LEAVE, ActionRecord, WorkItem, dump_rows
from flotilla.rules import Seat
from flotilla.rules.options import explicit_options
from flotilla.store import keys
from flotilla.store.feeds import Feeds, Subscription
from flotilla.store.meta import GameMeta
from flotilla.store.protocol import Store
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.games")

_GAME_NAME = re.compile(r"^games/([A-Za-z0-9_-]{1,64})$")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
MAX_SEATS = 16
KNOWN_KINDS = 100_000  # games whose kind a gateway remembers


def game_id_of(name: str) -> str:
    """The id in `games/{id}`; InvalidRequest otherwise."""
    match = _GAME_NAME.match(name)
    if match is None:
        raise InvalidRequest(f"game must look like games/<id>, got {echo(name)}", field="game")
    return match.group(1)


def check_request_id(request_id: str) -> str:
    """A client's request id as given (a fresh one when empty); InvalidRequest when malformed.

    The alphabet leaves out `@` and `/`, which start the server's own ids (worker turn clocks,
    users' CreateGame keys), so a client can never name one of those.
    """
    if not request_id:
        return uuid.uuid4().hex
    if not _REQUEST_ID.match(request_id):
        raise InvalidRequest("request_id must be 1-128 of [A-Za-z0-9_.:-] (a UUID is best)", field="request_id")
    return request_id


def created_game_id(request_id: str, creator: str | None) -> str:
    """The id of the game a creator's request makes: the same pair, the same game.

    A user's key (`users/<id>:<request id>`) can never equal the server's own (`room:...`,
    `match:...`): client request ids have no `/`.
    """
    if not request_id:
        return uuid.uuid4().hex
    key = request_id if creator is None else f"users/{creator}:{request_id}"
    return uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:create:{key}").hex


async def still_seated(store: Store, game_id: str, seat: int, user: str) -> dict[int, dict[str, str]]:
    """Refuse unless `user` holds `seat` (NotSeated) and the seat is not absent (SeatAbsent: its
    player left, or it timed out too often; absence is for good). A seat token is given or
    refreshed only then, so no token of a seat outlives its player leaving. Returns the game's
    seats as read for the check (who holds each)."""
    seats = await store.seats(game_id)
    holder = seats.get(seat)
    if holder is None or holder.get("user") != user:
        raise NotSeated("you no longer hold this seat", game=f"games/{game_id}")
    meta = await store.game_meta(game_id)
    if meta is None:
        raise GameNotFound(f"no game games/{game_id}", game=f"games/{game_id}")
    seat_clocks = clocks.load(meta.seatclock, clocks.ClockConfig.from_plain(meta.clock), meta.seat_count)
    if seat_clocks[seat].absent:
        raise SeatAbsent(
            f"seat {seat} is absent (its player left, or it timed out too often): its absence policy plays it, "
            "and it gets no new token",
            game=f"games/{game_id}",
        )
    return seats


class Games:
    """The game use cases over one store; shared by every RPC of a gateway process."""

    def __init__(
        self,
        store: Store,
        inbox: Inbox,
        feeds: Feeds,
        *,
        shards: int,
        submit_timeout_s: float,
        heartbeat_s: float,
        catch_up: Budget | None = None,
    ) -> None:
        self.store = store
        self.inbox = inbox
        self.feeds = feeds
        self.shards = shards
        self.submit_timeout_s = submit_timeout_s
        self.heartbeat_s = heartbeat_s
        self.catch_up = catch_up or Budget()  # the share of the loop catch-ups may take (app/pacing.py)
        self._kinds: OrderedDict[str, tuple[str, str]] = OrderedDict()  # game id -> (kind, rules version)
        self.replays = Replays()

    def known_host(self, game_id: str) -> GameHost | None:
        """`host` when the game's kind is cached already (no await), else None."""
        known = self._kinds.get(game_id)
        return None if known is None else host_for(*known)

    async def host(self, game_id: str) -> GameHost:
        """The rules host of a game; its kind and rules version never change, so they are cached
        (RulesVersionUnavailable when this process runs other rules)."""
        known = self._kinds.get(game_id)
        if known is None:
            meta = await self.meta(game_id)
            known = (meta.kind, meta.rules_version)
            self._kinds[game_id] = known
            if len(self._kinds) > KNOWN_KINDS:
                self._kinds.popitem(last=False)
        return host_for(*known)

    async def meta(self, game_id: str) -> GameMeta:
        meta = await self.store.game_meta(game_id)
        if meta is None:
            raise GameNotFound(f"no game games/{game_id}", game=f"games/{game_id}")
        return meta

    async def create(
        self,
        kind: str,
        seats: int,
        options: Mapping[str, str],
        request_id: str,
        clock: clocks.ClockConfig | None = None,
        private_code: str = "",
        *,
        creator: str | None = None,
        hold: Callable[[str], Awaitable[None]] | None = None,
        seated: Sequence[tuple[str, str]] = (),
    ) -> GameMeta:
        """Create a game with open seats. The same creator and request id return the same game.

        `creator`: the user whose request this is (request ids are scoped to the user); None for
        the server's own requests, whose ids are unique already (`room:<id>`, `match:<id>`).
        `private_code`: the game of a private room; spectators must show that code.
        `hold`: called with the game id once the request is valid, before anything is stored (the
        creator's open-games quota; it raises to refuse).
        `seated`: every seat's (user, name) in seat order, distinct users (a room's or match's): the
        game starts with all seated and nobody else may join; the same id with others is GameFull.
        """
        host = host_for(kind)
        if not 1 <= seats <= MAX_SEATS:
            raise InvalidRequest(f"seat_count must be 1..{MAX_SEATS}, got {seats}", field="seat_count")
        if seated and (len(seated) != seats or len({user for user, _ in seated}) != seats):
            raise InvalidRequest(f"a seated game needs {seats} distinct players, one a seat", field="seats")
        config = host.config(seats, options)
        options = explicit_options(config, options)  # one spelling; named defaults kept (docs/games.md)
        game_id = created_game_id(request_id, creator)
        if hold is not None:
            await hold(game_id)
        seed = secrets.randbits(128)
        now_ms = int(time.time() * 1000)
        step = host.start(config, seed, options, now_ms)
        created = await self.store.create_game(
            game_id,
            kind=kind,
            rules_version=host.rules.version,
            seat_count=seats,
            options=options,
            created_ms=now_ms,
            version=step.version,
            state=host.dumps(step.state),
            events=dump_rows(step.events),
            prompts=orjson.dumps(step.prompts),
            to_act=orjson.dumps(step.to_act),
            seed_sha256=seed_commitment(seed),
            clock=orjson.dumps(clock.plain()) if clock is not None else b"",
            seatclock=clocks.dumps(clocks.initial(clock or clocks.ClockConfig(), seats)),
            private_code=private_code,
            lineage=new_lineage(),
            seated=seated,
        )
        if created is None:
            raise GameFull("a game with this id exists with other players", game=f"games/{game_id}")
        if seated:  # every seat is taken: a worker starts the clocks (again on a retry: harmless)
            await self.store.wake({game_id: now_ms})
        return await self.meta(game_id)

    async def still_open(self, game_ids: list[str]) -> list[bool]:
        """For each game: whether it still exists and has not ended."""
        metas = await self.store.metas(game_ids) if game_ids else []
        return [meta is not None and meta.status not in ("finished", "abandoned") for meta in metas]

    async def listed(
        self, kind: str, cursor: int | None, size: int, status: str | None
    ) -> tuple[list[GameMeta], int | None]:
        """A page of public games and the next page's cursor (app/listing.py)."""
        return await listing.list_games(self.store, kind, cursor, size, status)

    async def join(self, game_id: str, user: str, name: str, seat: int | None, kind: str = "") -> tuple[int, GameMeta]:
        """Seat `user` (of `kind`, identity/principal.py) in the game: (seat, the game after)."""
        taken, started = await self.store.join(game_id, user, name, seat, kind)
        if started:  # every seat is taken: a worker starts the clocks
            await self.store.wake({game_id: int(time.time() * 1000)})
        if taken == -1:
            raise GameNotFound(f"no game games/{game_id}", game=f"games/{game_id}")
        if taken == -2:
            raise GameFull("that seat is taken" if seat is not None else "every seat is taken", game=game_id)
        if taken == -3:
            raise InvalidRequest(f"no seat {seat} in this game", field="seat")
        if taken == -4:
            held = await self.seat_of(game_id, user)
            raise GameFull(
                f"you hold seat {held} of this game already: one user holds one seat (JoinGame without a seat "
                "answers it again)",
                game=f"games/{game_id}",
                seat=str(held),
            )
        if taken == -5:
            raise NotSeated(
                "this game's seats belong to the players of its room or match: join the room, not its game",
                game=f"games/{game_id}",
            )
        return taken, await self.meta(game_id)

    async def state(self, game_id: str) -> tuple[GameMeta, GameHost, Any]:
        row = await self.store.load(game_id)
        if row is None:
            raise GameNotFound(f"no game games/{game_id}", game=f"games/{game_id}")
        meta, raw = row
        host = host_for(meta.kind, meta.rules_version)
        return meta, host, host.loads(raw)

    async def view(self, game_id: str, viewer: Seat | None) -> Batch:
        meta, host, state = await self.state(game_id)
        prompt, default = None, None
        if viewer is not None and viewer in host.rules.to_act(state):
            prompt = host.rules.legal_actions(state, viewer)
            default = host.default_index(state, viewer, prompt)
        return Batch(
            host,
            meta.version,
            view=host.rules.view(state, viewer),
            prompt=prompt,
            default=default,
            to_act=tuple(meta.to_act),
            finished=meta.status in ("finished", "abandoned"),
            lineage=meta.head,
        )

    async def still_seated(self, game_id: str, seat: int, user: str) -> dict[int, dict[str, str]]:
        """`still_seated` for this store: the game's seats, or NotSeated, SeatAbsent."""
        return await still_seated(self.store, game_id, seat, user)

    async def seats(self, game_id: str) -> dict[int, dict[str, str]]:
        """Who holds each seat of the game (`user`, `name`, `kind`)."""
        return await self.store.seats(game_id)

    async def seat_of(self, game_id: str, user: str) -> Seat | None:
        for seat, holder in (await self.store.seats(game_id)).items():
            if holder.get("user") == user:
                return Seat(seat)
        return None

    async def submit(
        self,
        game_id: str,
        seat: Seat,
        action: Any,
        *,
        etag: str,
        request_id: str,
        timeout_s: float | None = None,
        gate: Gate | None = None,
        follows: bool = False,
    ) -> Outcome:
        """Queue an action for the workers and wait for its outcome; `gate`: the rate limits it
        passes first (taken in the same round trip as the queueing, see Store.enqueue).

        `follows`: the caller watches this game on this gateway (a Play stream) and resolves an
        accepted outcome from the committed entry itself (`answer`), so the worker sends no
        reply for it. Not with replica waits on: then only the worker knows when it is durable."""
        if etag:
            parse_etag(etag)
        host = await self.host(game_id)
        plain = host.dumps(action)
        action_size(len(plain))
        item = WorkItem(
            game_id,
            int(seat),
            request_id,
            action=plain,
            etag=etag.strip().strip('"'),
            follows=follows and not self.store.wait_replicas,
        )
        return await self._queue(host, item, timeout_s, gate)

    async def leave(self, game_id: str, seat: Seat, request_id: str, gate: Gate | None = None) -> Outcome:
        """The seat's player leaves for good; the game's absence policy applies (a worker decides)."""
        host = await self.host(game_id)
        return await self._queue(host, WorkItem(game_id, int(seat), request_id, kind=LEAVE), None, gate)

    async def _queue(
        self,
        host: GameHost,
        item: WorkItem,
        timeout_s: float | None,
        gate: Gate | None = None,
    ) -> Outcome:
        """Enqueue for the workers and wait for the outcome of this (game, seat, request id)."""
        game_id, seat = item.game_id, item.seat
        item.inbox = self.inbox.key
        stream = keys.work(host.rules.name, host.rules.version, zlib.crc32(game_id.encode()) % self.shards)
        request = (game_id, seat, item.request_id)
        fields = item.fields()
        wait_s = self.submit_timeout_s if timeout_s is None else min(timeout_s, self.submit_timeout_s)
        buckets = gate.buckets if gate is not None else ()
        waiter = self.inbox.expect(request)
        outcome: Outcome | None = None
        try:
            with metrics.SUBMIT_SECONDS.time():
                # One deadline for the queueing and the wait (a Redis cut off never answers the queueing).
                async with asyncio.timeout(max(wait_s, 0.001)):
                    while outcome is None:
                        refusal = await self.store.enqueue(stream, fields, buckets)
                        if refusal is not None and gate is not None:
                            raise gate.refused(refusal)
                        buckets = ()  # queued again after a Redis loss: the same call, not a new one
                        outcome = await waiter
                        if outcome is None:  # Redis was lost meanwhile and may have come back without the
                            # queued entry (an older file): queue it again; the same request id is applied once.
                            metrics.SUBMITS_REQUEUED.inc()
                            waiter = self.inbox.expect(request)
        except TimeoutError:
            outcome = waiter.result() if waiter.done() and not waiter.cancelled() else None
            if outcome is None:  # answered as a deadline (retried with the same request id: once)
                metrics.SUBMIT_DEADLINES.inc()
                log.warning("game.submit_deadline", game=game_id, seat=seat, request_id=item.request_id, stream=stream)
                raise
        finally:
            self.inbox.forget(request, waiter)
        # Nothing of another game or seat may ever reach this caller (nor the render cache).
        if (outcome.game, outcome.seat) != request[:2]:
            msg = f"outcome for {outcome.game}/{outcome.seat} answered {game_id}/{seat}"
            raise RuntimeError(msg)
        return outcome

    def answer(self, game_id: str, answers: Sequence[Answer]) -> None:
        """Resolve the waiting submissions that these commits applied (seen on a followed feed)."""
        for answer in answers:
            outcome = Outcome(
                True, answer.version, lineage=answer.lineage, game=game_id, seat=answer.seat, announced=True
            )
            self.inbox.resolve((game_id, answer.seat, answer.request_id), outcome)

    async def answer_from_store(self, game_id: str, seat: int, request_ids: Sequence[str]) -> None:
        """Resolve waiting submissions whose commits a full view covered (a resync skips entries)."""
        for request_id, raw in zip(request_ids, await self.store.outcomes(game_id, seat, request_ids), strict=True):
            if raw is not None:
                self.inbox.resolve((game_id, seat, request_id), Outcome.loads(raw, game=game_id, seat=seat))

    async def record(self, game_id: str) -> tuple[GameMeta, GameHost, int, list[ActionRecord]]:
        meta, host, state = await self.state(game_id)
        if meta.status != "finished":
            raise GameNotFinished("the seed and action log are given out once the game is over", game=game_id)
        return meta, host, state.rng.seed, await self.store.actions_log(game_id)

    async def view_at(self, game_id: str, event_id: int, viewer: Seat | None) -> Batch:
        """A finished game's view for `viewer` after the last recorded action through `event_id`
        (GameNotFinished before the end; InvalidRequest for an event id not in the game)."""
        if event_id < 1:
            raise InvalidRequest(f"event_id must be >= 1 (event 1 starts the game), got {event_id}", field="event_id")
        meta, host, seed, log = await self.record(game_id)
        if event_id > meta.version:
            raise InvalidRequest(f"event_id must be 1..{meta.version}: the game's events", field="event_id")
        count = bisect.bisect_right([row.version for row in log], event_id)
        config = host.config(meta.seat_count, meta.options)
        state = await self.replays.state_after(game_id, meta.head, host, config, seed, log, count)
        return Batch(
            host,
            log[count - 1].version if count else 1,
            view=host.rules.view(state, viewer),
            to_act=tuple(sorted(int(s) for s in host.rules.to_act(state))),
        )

    async def watch(self, game_id: str, viewer: Seat | None, after: int, after_etag: str = "") -> AsyncIterator[Batch]:
        """The viewer's batches from a full view (`after` 0) or after a resume point (an event id,
        or better an etag, which is checked against the game's history), live until the game
        ends. See app/watching.py. (WatchGame runs `watching`'s parts in its own frame.)"""
        watching = await self.watching(game_id, viewer, after, after_etag)
        async with watching.subscribe() as live:
            async for batch in watching.batches(live):
                yield batch

    async def watching(self, game_id: str, viewer: Seat | None, after: int, after_etag: str = "") -> Watching:
        """What `watch` runs, checked and set up: its subscription and its batches."""
        after_lineage: str | None = None
        if after_etag:
            after, after_lineage = parse_etag(after_etag, "after_etag")
        elif after < 0:
            raise InvalidRequest("after_event_id must be >= 0", field="after_event_id")
        meta = await self.meta(game_id)
        host = host_for(meta.kind, meta.rules_version)
        # app/watching.py still asks for a RedisStore (it reads only `entry_fields_from`, in Store):
        # the cast goes when its owner types it against Store.
        watcher = Watcher(
            cast("RedisStore", self.store),
            host,
            game_id,
            viewer,
            lambda: self.view(game_id, viewer),
            self.heartbeat_s,
            self.catch_up,
        )
        return Watching(watcher, lambda: self.feeds.subscribe(game_id, meta.version, meta.head), after, after_lineage)


class Watching:
    """One viewer's watch of one game, set up: `async with w.subscribe() as live: w.batches(live)`
    (a caller that runs them in its own frame saves a generator per open stream)."""

    __slots__ = ("after", "lineage", "subscribe", "watcher")

    def __init__(
        self,
        watcher: Watcher,
        subscribe: Callable[[], AbstractAsyncContextManager[Subscription]],
        after: int,
        lineage: str | None,
    ) -> None:
        self.watcher = watcher
        self.subscribe = subscribe
        self.after = after
        self.lineage = lineage

    def batches(self, live: Subscription) -> AsyncIterator[Batch]:
        return self.watcher.run(live, self.after, self.lineage)
