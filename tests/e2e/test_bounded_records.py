"""Every record that grows has a bound: unstarted games, guests, inboxes and work entries go away.

A stack of its own (fresh Redis, one gateway, one worker) with short lifetimes.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
import redis

from flotilla.app.outcome import Outcome
from flotilla.games import REGISTRY
from flotilla.lobby.ratings import Rating
from flotilla.records import InboxReply
from flotilla.redis_server import RedisServer, free_port
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla.worker.janitor import janitor_pass
from flotilla.worker.loop import work_streams
from flotilla_client import FlotillaClient, FlotillaError
from forkserver import Proc, spawn
from support import FLOTILLA, Stack, start_stack, until, wait_for_gateway
from worker.counter_work import new_counter_game, work

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

UNSTARTED_TTL_S = 3
INBOX_TTL_S = 2


@pytest.fixture(scope="module")
def short_lived(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    tmp = tmp_path_factory.mktemp("bounded")
    redis = RedisServer(tmp / "redis", aof=False).start()
    env = {
        "FLOTILLA_UNSTARTED_TTL": str(UNSTARTED_TTL_S),
        "FLOTILLA_INBOX_TTL": str(INBOX_TTL_S),
        "FLOTILLA_JANITOR_INTERVAL": "0",  # the tests run the janitor pass themselves
    }
    stack = start_stack(redis.url, tmp, gateways=1, workers=1, extra_env=env)
    yield stack
    stack.stop()
    redis.stop()


@pytest.fixture(scope="module")
def home_inbox(short_lived: Stack) -> str:
    """The inbox of the stack's gateway (the only one when the stack starts)."""
    client = redis.Redis.from_url(short_lived.redis_url)
    (inbox,) = client.keys("flotilla:inbox:*")
    client.close()
    return str(inbox.decode())


@pytest.fixture
async def store(short_lived: Stack) -> AsyncIterator[RedisStore]:
    opened = RedisStore.from_url(short_lived.redis_url)
    yield opened
    await opened.close()


async def test_a_game_whose_seats_never_fill_expires_and_the_janitor_drops_its_listing(
    short_lived: Stack, store: RedisStore
) -> None:
    host, guest = FlotillaClient(short_lived.gateways[0]), FlotillaClient(short_lived.gateways[0])
    try:
        await host.sign_in("host")
        await guest.sign_in("guest")
        lonely = await host.create_game("counter", 2)
        seat = await host.join(lonely.name)
        prompt = (await host.view(lonely.name, seat)).prompt
        await host.submit(lonely.name, seat, prompt.legal_actions[0], etag=prompt.etag)  # writes an action log
        full = await host.create_game("counter", 2)
        await host.join(full.name)
        await guest.join(full.name)
        lonely_id, full_id = lonely.name.removeprefix("games/"), full.name.removeprefix("games/")
        for key in (keys.game(lonely_id), keys.game_events(lonely_id), keys.game_seats(lonely_id)):
            assert 0 < await store.redis.ttl(key) <= UNSTARTED_TTL_S
        for key in (keys.game(full_id), keys.game_events(full_id), keys.game_seats(full_id)):
            assert await store.redis.ttl(key) == -1  # started: kept

        async def lonely_gone() -> bool:
            try:
                await host.get_game(lonely.name)
            except FlotillaError as error:
                return error.code == grpc.StatusCode.NOT_FOUND
            return False

        # Redis's own expiry is not under test (the TTLs above are; tests/store/test_bounds.py holds
        # every key of a game to one): the unstarted game's keys expire now rather than in 3 s.
        for key in (keys.game(lonely_id), keys.game_events(lonely_id), keys.game_seats(lonely_id)):
            await store.redis.pexpire(key, 1)
        await until(lonely_gone, 10, "the unstarted game to expire")
        assert await store.redis.exists(keys.game_actions(lonely_id))  # left behind: the janitor's job
        assert await store.redis.zscore(keys.GAMES, lonely_id) is not None
        assert await janitor_pass(store) >= 2
        assert not await store.redis.exists(keys.game_actions(lonely_id))
        for index in (keys.GAMES, keys.games_of_kind("counter")):
            assert await store.redis.zscore(index, lonely_id) is None
            assert await store.redis.zscore(index, full_id) is not None
        assert (await host.get_game(full.name)).name == full.name
    finally:
        await host.close()
        await guest.close()


async def test_the_janitor_works_through_a_large_index_in_bounded_passes(store: RedisStore) -> None:
    kind = next(iter(REGISTRY))
    index = keys.rooms_listed(kind)
    gone = {f"gone-{uuid.uuid4().hex}": float(i) for i in range(600)}  # large: ZSCAN honours COUNT
    await store.redis.zadd(index, gone)
    looked, dropped = await store.sweep_listing(index, budget=100)
    assert 100 <= looked < 600  # one bounded pass...
    for _ in range(20):  # ...and the next ones resume where it stopped
        if not await store.redis.zcard(index):
            break
        looked, more = await store.sweep_listing(index, budget=100)
        dropped += more
    assert dropped == 600


async def test_a_guest_user_record_expires_with_its_sessions_unless_the_user_is_rated(
    short_lived: Stack, store: RedisStore
) -> None:
    players = [FlotillaClient(short_lived.gateways[0]) for _ in range(2)]
    try:
        for i, player in enumerate(players):
            await player.sign_in(f"guest{i}")
        users = [player.user.removeprefix("users/") for player in players]
        for user in users:
            assert 7 * 24 * 3600 - 60 < await store.redis.ttl(keys.user(user)) <= 7 * 24 * 3600
        lobby = LobbyStore(store.redis)
        rated = [Rating(26.0, 8.0, 1).dumps(), Rating(24.0, 8.0, 1).dumps()]
        game_id = uuid.uuid4().hex
        assert await lobby.store_ratings("counter", game_id, users, [None, None], rated, [2.0, 0.0], [b"{}"] * 2) == 1
        for user in users:  # on the leaderboard: the name stays
            assert await store.redis.ttl(keys.user(user)) == -1
    finally:
        for player in players:
            await player.close()


def start_gateway(stack: Stack) -> tuple[Proc, str]:
    target = f"127.0.0.1:{free_port()}"
    proc = spawn([*FLOTILLA, "gateway"], dict(stack.env, FLOTILLA_BIND=target), stack.log_dir / "extra-gateway.log")
    wait_for_gateway(target)
    return proc, target


async def inboxes(store: RedisStore) -> set[str]:
    return {key.decode() async for key in store.redis.scan_iter(match="flotilla:inbox:*")}


async def test_a_dead_gateways_inbox_expires_and_no_late_reply_brings_it_back(
    short_lived: Stack, home_inbox: str, store: RedisStore
) -> None:
    before = await inboxes(store) | {home_inbox}
    proc, target = start_gateway(short_lived)
    try:
        (inbox,) = await inboxes(store) - before
        assert 0 < await store.redis.pttl(inbox) <= INBOX_TTL_S * 1000
        player = FlotillaClient(target)  # a move through this gateway: its outcome comes back via the inbox
        other = FlotillaClient(target)  # one user holds one seat
        await player.sign_in("p")
        await other.sign_in("q")
        game = await player.create_game("counter", 2)
        seat = await player.join(game.name)
        await other.join(game.name, 1)
        prompt = (await player.view(game.name, seat)).prompt
        assert (await player.submit(game.name, seat, prompt.legal_actions[0])).through_event_id == 2
        await player.close()
        await other.close()
        assert await store.redis.xlen(inbox) <= 1  # trimmed as read
        proc.kill()
        proc.wait(10)

        async def expired() -> bool:
            return not await store.redis.exists(inbox)

        await store.redis.pexpire(inbox, 1)  # its TTL, checked above, lapses now (Redis's expiry is not under test)
        await until(expired, 10, "the dead gateway's inbox to expire")
        outcome = Outcome.accepted(2, []).dumps()
        await store.finish_work(rejections=[], replies=[(inbox, InboxReply("g", 0, "late", outcome))], acks=[])
        assert not await store.redis.exists(inbox)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


async def test_a_vanished_inbox_is_recreated_by_its_gateway(home_inbox: str, store: RedisStore) -> None:
    await store.redis.delete(home_inbox)  # as if Redis had lost it

    async def back() -> bool:
        return bool(await store.redis.exists(home_inbox))

    await until(back, INBOX_TTL_S + 5, "the gateway to re-create its inbox")


async def test_work_entries_are_deleted_once_handled_even_huge_or_malformed_ones(
    short_lived: Stack, store: RedisStore
) -> None:
    game_id = "huge-" + uuid.uuid4().hex
    inbox = keys.inbox("test-" + game_id)
    await store.keep_inbox(inbox, 60_000)
    await new_counter_game(store, game_id)
    stream = work_streams(4, ["counter"])[0]
    huge = dict(work(game_id, 0, 1, "huge", inbox), act=b"x" * 3_000_000)
    await store.enqueue(stream, huge)
    await store.enqueue(stream, {"junk": "no game, no seat"})  # not written by a gateway
    await store.enqueue(stream, work(game_id, 0, 1, "fine", inbox))

    async def answered() -> bool:
        return await store.redis.xlen(inbox) >= 2

    await until(answered, 20, "the worker to answer")
    outcomes = {f[b"r"]: Outcome.loads(f[b"o"]) for _id, f in await store.read_inbox(inbox, "0-0", 10)}
    assert outcomes[b"huge"].reason == "INVALID_ACTION"
    assert outcomes[b"fine"].ok
    assert await store.redis.xlen(stream) == 0
    assert (await store.redis.xpending(stream, keys.WORKER_GROUP))["pending"] == 0
    assert all(proc.poll() is None for proc in short_lived.worker_procs)  # the junk did not kill the worker
