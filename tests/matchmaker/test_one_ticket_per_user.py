"""A user waits in one ticket per queue, stale tickets expire, and no match seats a user twice."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.lobby.tickets import parse_ticket_name
from flotilla.matchmaker.matcher import Policy, Ticket, propose_matches
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from inproc import InProcess
from lobby.mm_support import Player, form_party, reason_of, refusal, start_matchmaker, stop
from support import stack_limits

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


# The module's gateways and worker (`inproc`, tests/inproc.py): one user sends 50 CreateTicket calls
# at once here (past ticket_per_user).
INPROC_SETTINGS = {"limits": stack_limits("ticket_per_user=off")}


ALREADY_WAITING = "ERROR_REASON_TICKET_ALREADY_WAITING"


def ticket_request(moves: int, party: tuple[str, ...] = (), request_id: str = "") -> pb.CreateTicketRequest:
    return pb.CreateTicketRequest(
        kind="counter",
        options={"moves": str(moves)},
        seat_counts=[2],
        party=list(party),
        request_id=request_id or uuid.uuid4().hex,
    )


def fresh_queue() -> int:
    """A `moves` option no other test uses: a queue of its own."""
    return random.randint(1000, 99_999)


@pytest.fixture
async def players(inproc: InProcess) -> AsyncIterator[list[Player]]:
    made = [await Player.signed_in(inproc.gateways[i % 2], f"p{i}") for i in range(5)]
    yield made
    for player in made:
        await player.close()


async def test_a_user_waits_in_one_ticket_per_queue(players: list[Player]) -> None:
    ada, bob, cat, dan, _ = players
    moves = fresh_queue()
    first = (await ada.call(ada.mm, "CreateTicket", ticket_request(moves, request_id="t1-" + uuid.uuid4().hex))).ticket
    code, reason, meta = await refusal(ada.call(ada.mm, "CreateTicket", ticket_request(moves)))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, ALREADY_WAITING)
    assert meta == {"ticket": first.name, "user": ada.user}
    other_queue = (await ada.call(ada.mm, "CreateTicket", ticket_request(moves + 1))).ticket  # another queue: fine
    await ada.call(ada.mm, "CancelTicket", pb.CancelTicketRequest(ticket=other_queue.name))

    await form_party(bob, cat)
    party = (await bob.call(bob.mm, "CreateTicket", ticket_request(moves, party=(cat.user,)))).ticket
    code, reason, meta = await refusal(cat.call(cat.mm, "CreateTicket", ticket_request(moves)))
    assert (reason, meta) == (ALREADY_WAITING, {"ticket": party.name, "user": cat.user})  # cat waits in bob's
    await form_party(dan, ada)  # ada accepted dan's invitation; she still waits in her own ticket
    code, reason, meta = await refusal(dan.call(dan.mm, "CreateTicket", ticket_request(moves, party=(ada.user,))))
    assert (reason, meta) == (ALREADY_WAITING, {"ticket": "", "user": ada.user})  # not dan's ticket to name

    await ada.call(ada.mm, "CancelTicket", pb.CancelTicketRequest(ticket=first.name))
    again = (await ada.call(ada.mm, "CreateTicket", ticket_request(moves))).ticket
    assert again.name != first.name
    for ticket, owner in ((again, ada), (party, bob)):
        await owner.call(owner.mm, "CancelTicket", pb.CancelTicketRequest(ticket=ticket.name))


async def test_many_tickets_at_once_from_one_user_queue_one(players: list[Player], inproc: InProcess) -> None:
    eve = players[4]
    moves = fresh_queue()
    calls = [eve.call(eve.mm, "CreateTicket", ticket_request(moves)) for _ in range(50)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    queued = [r.ticket for r in results if isinstance(r, pb.CreateTicketResponse)]
    refused = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(queued) == 1
    assert len(refused) == 49
    # Each refused as already waiting, or, when it reached the per-user quota of waiting tickets
    # before the first ticket was stored (the quota is held before the ticket script runs: the
    # order of 50 concurrent calls decides), by that quota. Either way one ticket is queued.
    refusals = {(r.code(), reason_of(r)) for r in refused}
    assert refusals <= {
        (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_TICKET_ALREADY_WAITING"),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "ERROR_REASON_QUOTA_EXCEEDED"),
    }, refusals
    queue, _ticket_id = parse_ticket_name(queued[0].name)
    store = RedisStore.from_url(inproc.redis_url)
    try:
        assert await store.redis.zcard(keys.mm_waiting(queue)) == 1
    finally:
        await store.close()
    await eve.call(eve.mm, "CancelTicket", pb.CancelTicketRequest(ticket=queued[0].name))


@pytest.fixture
def expiring_matchmaker(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    proc = start_matchmaker(
        inproc,
        tmp_path_factory.mktemp("mm"),
        "expiring",
        FLOTILLA_MM_EXPIRE_AFTER="1",
        FLOTILLA_MM_BOT_FILL_AFTER="off",
        FLOTILLA_MM_ROLES="match",
    )
    yield
    stop(proc)


async def test_a_stale_ticket_expires_and_leaves_the_queue(
    expiring_matchmaker: None, players: list[Player], inproc: InProcess
) -> None:
    ada = players[0]
    moves = fresh_queue()
    ticket = (await ada.call(ada.mm, "CreateTicket", ticket_request(moves))).ticket
    watch = ada.mm.WatchTicket(pb.WatchTicketRequest(ticket=ticket.name), metadata=ada.md, timeout=30)
    states = [m.ticket.state async for m in watch if not m.is_checkpoint]
    assert states[-1] == pb.TICKET_STATE_EXPIRED
    queue, ticket_id = parse_ticket_name(ticket.name)
    store = RedisStore.from_url(inproc.redis_url)
    try:
        assert await store.redis.zscore(keys.mm_waiting(queue), ticket_id) is None
        assert await store.redis.ttl(keys.mm_ticket(queue, ticket_id)) > 0  # the record itself expires too
    finally:
        await store.close()
    renewed = (await ada.call(ada.mm, "CreateTicket", ticket_request(moves))).ticket  # no longer waiting: free
    await ada.call(ada.mm, "CancelTicket", pb.CancelTicketRequest(ticket=renewed.name))


def test_the_matcher_never_seats_one_user_twice() -> None:
    """Even with tickets that share users (as stored before one-ticket-per-user), no match holds a user twice."""
    now = 1_000_000
    shared = [Ticket(f"t{i}", 25.0, 1, (2,), now - i, frozenset({"eve"})) for i in range(100)]
    party = Ticket("party", 25.0, 2, (3,), now - 500, frozenset({"eve", "ann"}))
    others = [Ticket(f"o{i}", 25.0, 1, (2, 3), now - 200 - i, frozenset({f"u{i}"})) for i in range(3)]
    matches = propose_matches([*shared, party, *others], now, Policy(bots_allowed=False))
    by_id = {t.ticket_id: t for t in [*shared, party, *others]}
    assert matches
    for match in matches:
        users = [u for t in match.ticket_ids for u in by_id[t].users]
        assert len(users) == len(set(users)), match
    alone = propose_matches(shared, now, Policy(bots_allowed=False))
    assert alone == []  # one user's tickets are never matched against each other
