"""Resume from anywhere, paged catch-up, and a store that comes back behind (rewound history).

Real gateway and worker processes (the module `stack`: two of each on one Redis). A rewound
history is made by restoring a game's keys from an earlier DUMP, which is what a Redis
restarted from an older append-only file, or failed over to a lagging replica, looks like to
Flotilla for that game (tests/chaos restarts a real Redis from a truncated file).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
import pytest
import redis.asyncio as aioredis

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.store import keys
from flotilla_client import FlotillaClient, FlotillaError, Seat
from support import Stack, assert_stored_state_replays

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

REWOUND = game_service_pb2.RESYNC_REASON_HISTORY_REWOUND
UNKNOWN_POINT = game_service_pb2.RESYNC_REASON_RESUME_POINT_UNKNOWN


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


@dataclass
class Table:
    """A counter game with both seats taken, and the clients of its two players."""

    host: FlotillaClient
    other: FlotillaClient
    game: str
    seats: list[Seat]

    async def move(self, n: int = 1) -> game_service_pb2.SubmitActionResponse:
        """The seat to act adds `n` (counter seats alternate, seat 0 first)."""
        game = await self.host.get_game(self.game)
        seat = self.seats[game.to_act[0]]
        return await self.client_of(seat).submit(self.game, seat, add(n), etag=game.etag)

    async def moves(self, count: int) -> None:
        """`count` moves of 1, each submitted with the etag the previous one's reply named (one call
        a move: `move` asks the game first)."""
        game = await self.host.get_game(self.game)
        first, etag = game.to_act[0], game.etag
        for i in range(count):
            seat = self.seats[(first + i) % 2]
            etag = (await self.client_of(seat).submit(self.game, seat, add(1), etag=etag)).etag

    def client_of(self, seat: Seat) -> FlotillaClient:
        return self.host if seat.seat == 0 else self.other

    async def close(self) -> None:
        await self.host.close()
        await self.other.close()


async def table(stack: Stack, moves: int = 200) -> Table:
    host = FlotillaClient(stack.gateways[0])
    await host.sign_in("host")
    game = await host.create_game("counter", 2, {"moves": str(moves)})
    other = FlotillaClient(stack.gateways[1])
    await other.sign_in("other")
    return Table(host, other, game.name, [await host.join(game.name), await other.join(game.name)])


async def first_update(stream: AsyncIterator[game_service_pb2.WatchGameResponse]) -> game_service_pb2.WatchGameResponse:
    return await asyncio.wait_for(anext(aiter(stream)), 10)


@dataclass
class Recorder:
    """Collects one watcher's updates in the background."""

    updates: list[game_service_pb2.WatchGameResponse] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def start(self, stream: AsyncIterator[game_service_pb2.WatchGameResponse]) -> Recorder:
        async def run() -> None:
            async for update in stream:
                self.updates.append(update)
                self.changed.set()

        self.task = asyncio.create_task(run())
        return self

    async def until(self, check: object, within_s: float = 20) -> None:
        async def wait() -> None:
            while not check(self.updates):  # type: ignore[operator]
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), within_s)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, FlotillaError):
                await self.task


def last_id(updates: list[game_service_pb2.WatchGameResponse]) -> int:
    return updates[-1].through_event_id if updates else 0


# --- every resume ends with the prompt -------------------------------------------------
async def test_a_resume_at_the_current_version_gets_the_pending_prompt_at_once(stack: Stack) -> None:
    t = await table(stack)
    view = await first_update(t.host.watch(t.game, t.seats[0]))
    assert view.HasField("view")
    assert view.HasField("prompt")
    for after in ({"after_event_id": view.through_event_id}, {"after_etag": view.etag}):
        for target in stack.gateways:
            client = FlotillaClient(target)
            resumed = await first_update(client.watch(t.game, t.seats[0], **after))  # type: ignore[arg-type]
            assert not resumed.HasField("view")
            assert resumed.is_checkpoint
            assert resumed.HasField("prompt")
            assert resumed.prompt.etag == view.prompt.etag == resumed.etag
            await client.close()
    # The other seat, resuming at the same point, is told it is current (and gets no prompt).
    idle = await first_update(t.other.watch(t.game, t.seats[1], after_event_id=view.through_event_id))
    assert idle.is_checkpoint
    assert not idle.HasField("prompt")
    await t.close()


async def test_a_resume_with_events_to_catch_up_ends_with_the_prompt(stack: Stack) -> None:
    t = await table(stack)
    start = await first_update(t.host.watch(t.game, t.seats[1]))
    for _ in range(5):
        await t.move()  # seat 0, 1, 0, 1, 0: seat 1 must act now
    received: list[int] = []
    async for update in t.other.watch(t.game, t.seats[1], after_etag=start.etag):
        received.extend(e.event_id for e in update.events)
        if update.HasField("prompt"):
            break
    assert received == list(range(start.through_event_id + 1, start.through_event_id + 6))
    assert update.through_event_id == received[-1]
    assert update.prompt.etag == update.etag
    await t.close()


async def test_a_resumed_play_stream_gets_the_pending_prompt(stack: Stack) -> None:
    t = await table(stack)
    view = await first_update(t.host.watch(t.game, t.seats[0]))
    stream = t.host.play(t.seats[0], after_etag=view.etag)
    first = await asyncio.wait_for(anext(aiter(stream)), 10)
    assert first.update.HasField("prompt")
    assert first.update.is_checkpoint
    stream.send(first.update.prompt.legal_actions[0], etag=first.update.prompt.etag, request_id="r1")
    async for response in stream:
        assert not response.HasField("outcome"), response.outcome.status
        if response.update.events:
            break
    assert list(response.update.answered_request_ids) == ["r1"]
    stream.close()
    stream.call.cancel()
    await t.close()


# --- paged catch-up ---------------------------------------------------------------------
async def test_a_long_catch_up_arrives_in_merged_pages_exactly_once(stack: Stack) -> None:
    t = await table(stack, moves=700)
    await t.moves(600)
    ids: list[int] = []
    messages = 0
    async for update in t.host.watch(t.game, after_event_id=1):
        messages += 1
        assert len(update.events) <= 256
        ids.extend(e.event_id for e in update.events)
        if update.through_event_id >= 601:
            break
    assert ids == list(range(2, 602))
    assert messages < 20  # merged commits, not one message per move
    await t.close()


# --- a store that comes back behind -----------------------------------------------------
GAME_KEYS = (keys.game, keys.game_events, keys.game_actions, keys.game_seats)


async def snapshot(redis: aioredis.Redis, game_id: str) -> dict[str, bytes]:
    """The game's keys as DUMP blobs, and the names of its request records now."""
    out = {k(game_id): await redis.dump(k(game_id)) for k in GAME_KEYS}
    replies = [key async for key in redis.scan_iter(match=f"flotilla:game:{{{game_id}}}:req:*")]
    out.update({key.decode(): b"" for key in replies})
    return out


async def rewind(redis: aioredis.Redis, game_id: str, saved: dict[str, bytes]) -> None:
    """Put the game back as it was (what a restart from an older AOF does to it)."""
    async for key in redis.scan_iter(match=f"flotilla:game:{{{game_id}}}:req:*"):
        if key.decode() not in saved:
            await redis.delete(key)
    for key, blob in saved.items():
        if blob:
            await redis.restore(key, 0, blob, replace=True)


async def test_watchers_are_resynced_when_the_store_comes_back_behind(stack: Stack) -> None:
    t = await table(stack)
    game_id = t.game.removeprefix("games/")
    spectator = FlotillaClient(stack.gateways[1])
    watchers = [
        Recorder().start(t.host.watch(t.game, t.seats[0])),
        Recorder().start(t.other.watch(t.game, t.seats[1])),
        Recorder().start(spectator.watch(t.game)),
    ]
    play = t.other.play(t.seats[1])
    play_updates = Recorder().start(
        r.update
        async for r in play
        if r.HasField("update")  # type: ignore[misc]
    )
    redis = aioredis.Redis.from_url(stack.redis_url)
    for _ in range(10):
        await t.move()
    saved = await snapshot(redis, game_id)
    lost = [await t.move(n=7) for _ in range(10)]  # confirmed, then lost with the tail
    for w in [*watchers, play_updates]:
        await w.until(lambda u: last_id(u) >= 21)
    await rewind(redis, game_id, saved)

    for w in [*watchers, play_updates]:
        await w.until(lambda u: any(x.resync_reason == REWOUND for x in u))
        resync = next(x for x in w.updates if x.resync_reason == REWOUND)
        assert resync.HasField("view")
        assert resync.through_event_id == 11
    seat0 = next(x for x in watchers[0].updates if x.resync_reason == REWOUND)
    assert seat0.HasField("prompt"), "the seat to act gets a fresh prompt with the resync"
    assert seat0.view.counter.total == 10

    # A prompt of the lost history is refused, even once the game is back at its version.
    stale = lost[4].etag
    with pytest.raises(FlotillaError) as caught:
        await t.host.submit(t.game, t.seats[0], add(1), etag=lost[0].etag)
    assert caught.value.code == grpc.StatusCode.ABORTED
    for _ in range(10):
        await t.move(n=3)
    with pytest.raises(FlotillaError) as caught:
        await t.host.submit(t.game, t.seats[0], add(1), etag=stale)
    assert caught.value.code == grpc.StatusCode.ABORTED

    # Watchers carry on from the resync with the new history, gapless.
    for w in [*watchers, play_updates]:
        await w.until(lambda u: last_id(u) >= 21)
        after = w.updates[next(i for i, x in enumerate(w.updates) if x.resync_reason == REWOUND) + 1 :]
        ids = [e.event_id for x in after for e in x.events]
        assert ids == list(range(12, 22))
        assert all(e.counter.added.n == 3 for x in after for e in x.events)

    # A new spectator is gapless; resuming from the lost history resyncs.
    fresh = await first_update(FlotillaClient(stack.gateways[0]).watch(t.game))
    assert fresh.through_event_id == 21
    assert fresh.view.counter.total == 10 + 30
    for target in stack.gateways:
        client = FlotillaClient(target)
        again = await first_update(client.watch(t.game, t.seats[0], after_etag=lost[-1].etag))
        assert again.HasField("view")
        assert again.resync_reason == REWOUND
        again = await first_update(client.watch(t.game, t.seats[0], after_etag=lost[4].etag))
        assert again.HasField("view")
        assert again.resync_reason == REWOUND
        await client.close()
    await assert_stored_state_replays(stack.redis_url, t.game)

    for w in [*watchers, play_updates]:
        await w.stop()
    play.close()
    play.call.cancel()
    await redis.aclose()
    await spectator.close()
    await t.close()


async def test_a_resume_beyond_the_history_starts_over_from_a_view(stack: Stack) -> None:
    t = await table(stack)
    update = await first_update(t.host.watch(t.game, t.seats[0], after_event_id=50))
    assert update.HasField("view")
    assert update.resync_reason == UNKNOWN_POINT
    assert update.HasField("prompt")
    with pytest.raises(FlotillaError) as caught:
        await first_update(t.host.watch(t.game, t.seats[0], after_etag="not an etag"))
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    await t.close()
