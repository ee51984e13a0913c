"""Issue 23 (7), the part left: one address cannot fill the matchmaking queues.

The set of queues is bounded globally (FLOTILLA_MM_MAX_QUEUES, 256; test_bounded_queues.py), so
one address with many guests must not hold more than a small share of it, nor of the tickets:
through two real gateways and a real Redis, at default limits (sign-ins aside), guests of one
address are refused a ninth new setting (`new_queues_per_address`, 8) and a seventeenth waiting
ticket (`waiting_tickets_per_address`, 16), a user its ninth (`waiting_tickets_per_user`, 8),
each RESOURCE_EXHAUSTED / QUOTA_EXCEEDED naming the limit and storing nothing; another address
and a bot account behind the full one still queue; a cancelled or expired ticket frees its place.
Client addresses are sent as forwarded headers, which these gateways trust from 127.0.0.1.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.lobby.tickets import EXPIRED, parse_ticket_name, queue_of
from flotilla.store import keys
from flotilla.store.auth_store import AuthStore
from flotilla.store.lobby_store import LobbyStore
from gateway.test_limits import GENEROUS, Player, assert_quota_exceeded, fresh_address, gateways, refused

pytestmark = [pytest.mark.redis, pytest.mark.timeout(90)]

NEW_QUEUES_PER_ADDRESS, WAITING_PER_ADDRESS, WAITING_PER_USER = 8, 16, 8  # app/limits.py defaults


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def targets(redis_url: str) -> AsyncIterator[list[str]]:
    async with gateways(redis_url, GENEROUS) as started:
        yield [f"127.0.0.1:{g.port}" for g in started]


def _setting(moves: int) -> dict[str, str]:
    return {"moves": str(moves)}


async def _ticket(p: Player, options: dict[str, str]) -> str:
    request = pb.CreateTicketRequest(kind="counter", options=options, seat_counts=[2], request_id=uuid.uuid4().hex)
    return str((await p.tickets().CreateTicket(request, metadata=p.md())).ticket.name)


async def _cancel(p: Player, name: str) -> None:
    await p.tickets().CancelTicket(pb.CancelTicketRequest(ticket=name), metadata=p.md())


async def _guests(targets: list[str], address: str, count: int) -> list[Player]:
    return [await Player(targets, address).sign_in(f"g{i}") for i in range(count)]


def _subject(address: str) -> str:
    return "address:" + address.rsplit("::", 1)[0] + "::/64"  # an IPv6 address counts per /64


async def _stored_nothing(
    redis: aioredis.Redis, p: Player, options: dict[str, str], waiting: int, held: dict[str, int]
) -> None:
    """A refused ticket of `p` left no user key and no ticket in its queue (which holds `waiting`;
    none: the queue is not in the set of queues either), and no count changed."""
    queue = queue_of("counter", options)
    assert not await redis.exists(keys.mm_user(queue, p.user))
    assert await redis.zcard(keys.mm_waiting(queue)) == waiting
    if not waiting:
        assert not await redis.sismember(keys.MM_QUEUES, queue)
    assert {key: await redis.zcard(key) for key in held} == held


async def test_one_address_opens_at_most_its_share_of_new_queues(redis: aioredis.Redis, targets: list[str]) -> None:
    address, base = fresh_address(), random.randint(1_000, 99_000)
    opener, other = await _guests(targets, address, 2)
    opened = [await _ticket(opener, _setting(base + i)) for i in range(NEW_QUEUES_PER_ADDRESS)]
    held = {keys.held(_subject(address), "new_queues"): NEW_QUEUES_PER_ADDRESS}

    # Another guest of the same address: a ninth new setting is refused, whoever asks.
    ninth = _setting(base + NEW_QUEUES_PER_ADDRESS)
    assert_quota_exceeded(await refused(_ticket(other, ninth)), "new_queues_per_address")
    await _stored_nothing(redis, other, ninth, 0, held)
    # ...but it still queues in a setting that exists, and in the game's default one.
    joined = [await _ticket(other, _setting(base)), await _ticket(other, {})]

    # Another address opens that setting; then the first address may wait in it too.
    elsewhere = (await _guests(targets, fresh_address(), 1))[0]
    theirs = await _ticket(elsewhere, ninth)
    joined.append(await _ticket(other, ninth))

    # Cancelling the only ticket of a setting it opened frees the address's place.
    await _cancel(opener, opened[1])
    tenth = await _ticket(other, _setting(base + NEW_QUEUES_PER_ADDRESS + 1))
    assert parse_ticket_name(opened[1])[0] not in {q.decode() for q in await redis.smembers(keys.MM_QUEUES)}

    for p, names in ((opener, opened[:1] + opened[2:]), (other, [*joined, tenth]), (elsewhere, [theirs])):
        for name in names:
            await _cancel(p, name)


async def test_one_address_holds_at_most_its_share_of_waiting_tickets(
    redis: aioredis.Redis, targets: list[str]
) -> None:
    address, base = fresh_address(), random.randint(1_000, 99_000)
    settings = [_setting(base + i) for i in range(4)]
    guests = await _guests(targets, address, 5)
    made = [(g, await _ticket(g, s)) for g in guests[:4] for s in settings]  # 16 tickets, 4 queues
    late = guests[4]
    held = {
        keys.held(_subject(address), "waiting_tickets"): WAITING_PER_ADDRESS,
        keys.held(late.user, "waiting_tickets"): 0,
    }
    assert_quota_exceeded(await refused(_ticket(late, settings[0])), "waiting_tickets_per_address")
    await _stored_nothing(redis, late, settings[0], 4, held)

    # A bot account behind the same address has its own rows (waiting_tickets_per_bot).
    _record, key = await AuthStore(redis).create_api_key(f"bot-{base}")
    bot = Player(targets, address)
    auth = game_service_pb2_grpc.AuthServiceStub(bot.channel())
    reply = await auth.SignInWithApiKey(game_service_pb2.SignInWithApiKeyRequest(api_key=key), metadata=bot.md())
    bot.token, bot.user = reply.session_token, reply.user.removeprefix("users/")
    bots = await _ticket(bot, settings[0])

    # Another address is not affected.
    elsewhere = (await _guests(targets, fresh_address(), 1))[0]
    theirs = await _ticket(elsewhere, settings[0])

    # A ticket that ends frees its place: cancelled, or expired by a matchmaker.
    owner, cancelled = made.pop()
    await _cancel(owner, cancelled)
    made.append((late, await _ticket(late, settings[0])))
    owner, expired = made.pop(0)
    assert await LobbyStore(redis).end_ticket(*parse_ticket_name(expired), EXPIRED)  # as the matchmaker does
    made.append((late, await _ticket(late, settings[1])))
    assert_quota_exceeded(await refused(_ticket(late, settings[2])), "waiting_tickets_per_address")

    for p, name in [*made, (bot, bots), (elsewhere, theirs)]:
        await _cancel(p, name)


async def test_one_user_holds_at_most_its_share_of_waiting_tickets(redis: aioredis.Redis, targets: list[str]) -> None:
    base = random.randint(1_000, 99_000)
    p = (await _guests(targets, fresh_address(), 1))[0]
    made = [await _ticket(p, _setting(base + i)) for i in range(WAITING_PER_USER)]
    host = (await _guests(targets, fresh_address(), 1))[0]
    theirs = await _ticket(host, _setting(base - 1))  # a setting that exists: no new queue for `p`
    held = {keys.held(p.user, "waiting_tickets"): WAITING_PER_USER}
    assert_quota_exceeded(await refused(_ticket(p, _setting(base - 1))), "waiting_tickets_per_user")
    await _stored_nothing(redis, p, _setting(base - 1), 1, held)
    await _cancel(p, made.pop())
    made.append(await _ticket(p, _setting(base - 1)))
    for name in made:
        await _cancel(p, name)
    await _cancel(host, theirs)
