"""One watcher's stream of a game: resume, paged catch-up, live updates, resyncs. No grpc here.

A watch starts with a full view (from 0) or resumes after a version the client names. Every
resume reads the game's event stream in pages of `PAGE_ENTRIES` commits, each page only when
the previous one has been taken by the transport (the generator is pulled by the gRPC
stream, which waits on HTTP/2 flow control), so a client that resumes from event 1 of a
40k-event game and stops reading costs the gateway one page and one message, not the history.
Commits of a page are merged into messages of up to `MAX_EVENTS_PER_MESSAGE` events.

Every commit carries its lineage token and its predecessor's (app/lineage.py); the watcher
checks that chain on every entry it passes on, so a history that changed under it (a Redis
that came back behind) is never streamed around: the watcher resyncs with a full view.

With replica waits on (FLOTILLA_WAIT_REPLICAS), what a watcher reads from the store (a full view,
a page) is passed on only once the replicas have it, like what the live feed hands on
(store/feeds.py): no watcher is shown a commit that a failover then rolls back.

Every resume, and every catch-up, ends with the seat's current prompt when it must act.
Live, a watcher that got nothing for `heartbeat_s` sends a checkpoint (the feeds' shared ticker
says when: store/feeds.py); a gateway that lost its Redis ends the stream UNAVAILABLE instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flotilla import metrics
from flotilla.app.errors import StoreUnavailable
from flotilla.app.host import GameHost
from flotilla.app.host_events import ENDING
from flotilla.app.pacing import Budget
from flotilla.records import Entry, EventRow
from flotilla.rules import Seat
from flotilla.store.feeds import Signal, Subscription
from flotilla.store.redis_store import RedisStore

PAGE_ENTRIES = 64  # commits read from the store at a time by a catch-up
MAX_EVENTS_PER_MESSAGE = 256  # a catch-up message carries whole commits up to this many events

UNREPLICATED = "the game's latest commits are not on its store's replicas yet; resume the stream"
REWOUND = "rewound"  # resync causes (metrics label; wire: WatchGameResponse.resync_reason)
RESUME_POINT_UNKNOWN = "resume"


@dataclass(frozen=True, slots=True)
class PlainPrompt:
    """A seat's legal actions as its commit stores them (the codec's plain form), converted to
    rules actions only when rendered (gateway/render.py, which caches them: `source`, the commit's
    stored prompts, names them with the rules and the seat)."""

    actions: list[Any]
    source: bytes


@dataclass(frozen=True, slots=True)
class Batch:
    """What one watcher receives at once: maybe a full view, events, maybe a prompt."""

    host: GameHost
    version: int
    view: Any | None = None
    events: tuple[EventRow, ...] = ()
    prompt: Sequence[Any] | PlainPrompt | None = None  # rules actions (a view's) or a commit's plain ones
    default: int | None = None  # the index in `prompt` of the game's default action (a timeout's)
    to_act: tuple[int, ...] = ()
    finished: bool = False
    lineage: str = ""  # of `version`
    lineages: tuple[str, ...] = ()  # the lineage of each event's commit (render cache keys)
    resync: str = ""  # with a view sent mid-stream or on a resume: REWOUND or RESUME_POINT_UNKNOWN
    catch_up: bool = False  # read from the store to catch up (the gateway paces these: gateway/pacing.py)
    answers: tuple[Answer, ...] = ()  # the requests whose commits this batch's events are


@dataclass(frozen=True, slots=True)
class Answer:
    """A seat's request that a commit applied: the mover's gateway answers it from the entry."""

    seat: int
    request_id: str
    version: int
    lineage: str


def _ends(entry: Entry) -> bool:
    return any(row.tag in ENDING for row in entry.events)


class Watcher:
    """The position of one watcher in a game's history and the batches that move it on."""

    __slots__ = (
        "at",
        "budget",
        "finished",
        "game_id",
        "heartbeat_s",
        "host",
        "lineage",
        "load_view",
        "prompted",
        "store",
        "to_act",
        "version",
        "viewer",
    )

    def __init__(
        self,
        store: RedisStore,
        host: GameHost,
        game_id: str,
        viewer: Seat | None,
        load_view: Callable[[], Awaitable[Batch]],
        heartbeat_s: float,
        budget: Budget,
    ) -> None:
        self.store = store
        self.host = host
        self.game_id = game_id
        self.viewer = viewer
        self.load_view = load_view
        self.heartbeat_s = heartbeat_s
        self.budget = budget
        self.version = 0  # what the watcher has been given up to
        self.lineage = ""  # the lineage of `version` ("" when unknown: a resume mid-commit)
        self.to_act: tuple[int, ...] = ()
        self.at: Entry | None = None  # the commit that ends at `version` (its prompts), if read
        self.prompted = -1  # the version whose prompt the watcher was given
        self.finished = False

    # --- the stream --------------------------------------------------------------------
    async def run(self, live: Subscription, after: int, after_lineage: str | None) -> AsyncIterator[Batch]:
        """From a full view (`after` 0) or a resume, then live until the game ends.

        `after_lineage`: the lineage the client holds for `after` (from an etag); None when it
        gave a bare event id.
        """
        if after == 0:
            yield await self.resync("")
        else:
            async for batch in self.resume(after, after_lineage):
                yield batch
        live.beat_every(self.heartbeat_s)
        while not self.finished:
            item = await live.get()
            if item is Signal.IDLE:
                yield self.checkpoint()
            elif item is Signal.LOST:
                raise StoreUnavailable("this gateway lost its game store; resume the stream on another gateway")
            elif item is Signal.REWOUND:
                yield await self.resync(REWOUND)
            elif item is Signal.BEHIND:  # the feed outran this watcher: read the gap from the store
                async for batch in self.catch_up():
                    yield batch
                if (prompt := self.unprompted()) is not None:
                    yield prompt
            else:
                batches, broken = self.advance(item)
                for batch in batches:
                    yield batch
                if broken:
                    yield await self.resync(REWOUND)

    async def resume(self, after: int, after_lineage: str | None) -> AsyncIterator[Batch]:
        """Everything after the client's resume point, then its prompt (or a checkpoint)."""
        page = await self.read_page(after)
        first = page[0] if page else None
        if first is None or (first.version != after and after_lineage is not None):
            yield await self.resync(RESUME_POINT_UNKNOWN)  # beyond the history, or not a version of it
            return
        if first.version == after and after_lineage and first.lineage and first.lineage != after_lineage:
            yield await self.resync(REWOUND)  # the client's version belongs to a history that was lost
            return
        self.version, self.lineage = after, first.lineage if first.version == after else ""
        sent = False
        async for batch in self.catch_up(page):
            sent = True
            yield batch
        if (prompt := self.unprompted()) is not None:
            yield prompt
        elif not sent:
            yield self.checkpoint()

    async def catch_up(self, page: Sequence[Entry] | None = None) -> AsyncIterator[Batch]:
        """Commits after `version` from the store, a page at a time, until the stored head."""
        while True:
            if page is None:
                page = await self.read_page(self.version)
            if page and page[0].version == self.version:  # the watcher's own version: still ours?
                head = page[0]
                if self.lineage and head.lineage and head.lineage != self.lineage:
                    yield await self.resync(REWOUND)
                    return
                self.at, self.to_act = head, tuple(head.to_act)
                self.finished = self.finished or _ends(head)
                entries = page[1:]
            elif not page:  # nothing at or after the watcher's version: the history is shorter now
                yield await self.resync(REWOUND)
                return
            else:
                entries = list(page)
            batches, broken = self.advance(entries, catch_up=True)
            for batch in batches:
                yield batch
            if broken:
                yield await self.resync(REWOUND)
                return
            if len(page) < PAGE_ENTRIES or self.finished:
                return
            page = None

    async def read_page(self, version: int) -> list[Entry]:
        """A page of commits from `version` on, read and decoded within the catch-up budget."""
        async with self.budget.slot():
            fields = await self.store.entry_fields_from(self.game_id, version, PAGE_ENTRIES)
            page = [Entry.decode(f) for f in fields]
        if page:
            await self.replicated(page[-1].version, page[-1].lineage)
        return page

    async def replicated(self, version: int, lineage: str) -> None:
        """With replica waits on, pass on a commit read from the store only once the replicas have
        it (`RedisStore.confirm_heads`), so that no watcher is shown one a failover rolls back;
        else the stream ends UNAVAILABLE (the client resumes, on this gateway or another)."""
        if self.store.wait_replicas and not await self.store.confirm_heads({self.game_id: (version, lineage)}):
            raise StoreUnavailable(UNREPLICATED)

    # --- moving on ---------------------------------------------------------------------
    def advance(self, entries: Sequence[Entry], *, catch_up: bool = False) -> tuple[list[Batch], bool]:
        """Batches for the entries after `version` (whole commits merged up to the message
        limit), and whether the lineage chain broke (the caller resyncs)."""
        out: list[Batch] = []
        rows: list[EventRow] = []
        lineages: list[str] = []
        answers: list[Answer] = []
        for entry in entries:
            if entry.version <= self.version:
                continue
            if self.lineage and entry.previous and entry.previous != self.lineage:
                if rows:
                    out.append(self._batch(rows, lineages, answers, catch_up))
                return out, True
            fresh = [row for row in entry.events if row.event_id > self.version]
            rows.extend(fresh)
            lineages.extend([entry.lineage] * len(fresh))
            if entry.request_id:
                answers.append(Answer(entry.seat, entry.request_id, entry.version, entry.lineage))
            self.version, self.lineage, self.to_act, self.at = entry.version, entry.lineage, tuple(entry.to_act), entry
            self.finished = self.finished or _ends(entry)
            if len(rows) >= MAX_EVENTS_PER_MESSAGE or self.finished:
                out.append(self._batch(rows, lineages, answers, catch_up))
                rows, lineages, answers = [], [], []
            if self.finished:
                break
        if rows:
            out.append(self._batch(rows, lineages, answers, catch_up))
        return out, False

    def _batch(self, rows: list[EventRow], lineages: list[str], answers: list[Answer], catch_up: bool) -> Batch:
        prompt, default = self._prompt() or (None, None)
        return Batch(
            self.host,
            self.version,
            events=tuple(rows),
            prompt=prompt,
            default=default,
            to_act=self.to_act,
            finished=self.finished,
            lineage=self.lineage,
            lineages=tuple(lineages),
            catch_up=catch_up,
            answers=tuple(answers),
        )

    def _prompt(self) -> tuple[PlainPrompt, int | None] | None:
        """The viewer's legal actions at `version` (from the commit that ends there) and the index
        of its default action among them, if it must act."""
        if self.viewer is None or self.at is None or self.at.version != self.version:
            return None
        found = self.at.prompt_default(self.viewer)
        if found is None:
            return None
        self.prompted = self.version
        plain, default = found
        return PlainPrompt(plain, self.at.raw_prompts), default

    def unprompted(self) -> Batch | None:
        """The viewer's prompt at its version, if it must act and was not given it yet."""
        if self.prompted == self.version or self.finished or (found := self._prompt()) is None:
            return None
        prompt, default = found
        return Batch(self.host, self.version, prompt=prompt, default=default, to_act=self.to_act, lineage=self.lineage)

    def checkpoint(self) -> Batch:
        return Batch(self.host, self.version, to_act=self.to_act, lineage=self.lineage, finished=self.finished)

    async def resync(self, cause: str) -> Batch:
        """A full view of the game now (with the viewer's prompt); the watcher starts over from it."""
        batch = await self.load_view()
        await self.replicated(batch.version, batch.lineage)
        if cause:
            metrics.WATCH_RESYNCS.labels(cause).inc()
            batch = Batch(
                batch.host,
                batch.version,
                view=batch.view,
                prompt=batch.prompt,
                default=batch.default,
                to_act=batch.to_act,
                finished=batch.finished,
                lineage=batch.lineage,
                resync=cause,
            )
        self.version, self.lineage, self.to_act = batch.version, batch.lineage, batch.to_act
        self.at = None
        self.prompted = batch.version if batch.prompt is not None else -1
        self.finished = batch.finished
        return batch
