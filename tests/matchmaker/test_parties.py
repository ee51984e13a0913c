"""Parties over real gateways, workers and a matchmaker: formed by invitation and acceptance only,
bounded, expiring; a ticket seats together only members who accepted, and the party plays at one table.
(The gateways and a worker in the test process, tests/inproc.py; the matchmaker a process.)

Every test signs in fresh users and queues under its own options (a queue of its own)."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.app.errors import PartyInviteNotFound
from flotilla.clock import ManualClock
from flotilla.lobby.parties import MAX_INVITES_PER_USER, Parties, largest_table
from flotilla.lobby.tickets import queue_of
from flotilla.store import keys
from flotilla.store.party_store import PartyStore
from flotilla.store.redis_store import RedisStore
from inproc import InProcess
from lobby.mm_support import Player, form_party, refusal, start_matchmaker, stop

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
NOT_FOUND = grpc.StatusCode.NOT_FOUND
NOT_ACCEPTED = "ERROR_REASON_PARTY_MEMBER_NOT_ACCEPTED"


@pytest.fixture(scope="module")
def matchmaker(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Matches tickets, never with bots: a table fills only with the tickets queued for it."""
    proc = start_matchmaker(inproc, tmp_path_factory.mktemp("mm"), "parties", FLOTILLA_MM_BOT_FILL_AFTER="off")
    yield
    stop(proc)


@pytest.fixture
async def players(inproc: InProcess) -> AsyncIterator[list[Player]]:
    made = [await Player.signed_in(inproc.gateways[i % 2], f"p{i}") for i in range(8)]
    yield made
    for player in made:
        await player.close()


def sail_away(seats: int = 4, **fields: object) -> pb.CreateTicketRequest:
    """A Sail Away ticket in a queue of its own (its own `max_rounds`): it waits until its table fills."""
    options = {"max_rounds": str(random.randint(100, 999))}
    return pb.CreateTicketRequest(
        kind="sail_away", options=options, seat_counts=[seats], request_id=uuid.uuid4().hex, **fields
    )


async def get_party(player: Player, name: str = "") -> pb.Party:
    return (await player.call(player.mm, "GetParty", pb.GetPartyRequest(party=name))).party


def invite(leader: Player, party: str, user: str) -> object:
    return leader.call(leader.mm, "InviteToParty", pb.InviteToPartyRequest(party=party, user=user))


def accept(player: Player, party: str) -> object:
    return player.call(player.mm, "AcceptPartyInvite", pb.AcceptPartyInviteRequest(party=party))


async def nothing_queued(inproc: InProcess, request: pb.CreateTicketRequest, users: list[str]) -> None:
    store = RedisStore.from_url(inproc.redis_url)
    try:
        queue = queue_of(request.kind, dict(request.options))
        assert await store.redis.zcard(keys.mm_waiting(queue)) == 0
        for user in users:
            assert not await store.redis.exists(keys.mm_user(queue, user.removeprefix("users/")))
    finally:
        await store.close()


async def test_a_ticket_naming_a_user_who_did_not_accept_is_refused_and_nothing_is_queued(
    players: list[Player], inproc: InProcess
) -> None:
    ada, bob, cat = players[:3]
    request = sail_away(party=[bob.user])
    assert await refusal(ada.call(ada.mm, "CreateTicket", request)) == (PRECONDITION, NOT_ACCEPTED, {"user": bob.user})
    party = (await ada.call(ada.mm, "CreateParty", pb.CreatePartyRequest(request_id=uuid.uuid4().hex))).party
    await invite(ada, party.name, bob.user)  # invited, not yet accepted
    assert await refusal(ada.call(ada.mm, "CreateTicket", request)) == (PRECONDITION, NOT_ACCEPTED, {"user": bob.user})
    await invite(ada, party.name, cat.user)
    await accept(cat, party.name)  # cat accepted; bob still did not
    both = sail_away(party=[cat.user, bob.user])
    assert await refusal(ada.call(ada.mm, "CreateTicket", both)) == (PRECONDITION, NOT_ACCEPTED, {"user": bob.user})
    await nothing_queued(inproc, request, [ada.user, bob.user])
    await nothing_queued(inproc, both, [ada.user, bob.user, cat.user])


async def test_invite_accept_decline_and_leave(players: list[Player], inproc: InProcess) -> None:
    ada, bob, cat, dan = players[:4]
    request_id = uuid.uuid4().hex
    made = (await ada.call(ada.mm, "CreateParty", pb.CreatePartyRequest(request_id=request_id))).party
    again = (await ada.call(ada.mm, "CreateParty", pb.CreatePartyRequest(request_id=request_id))).party
    assert again.name == made.name  # a retry returns the same party
    assert (made.leader, [m.user for m in made.members]) == (ada.user, [ada.user])
    assert (await get_party(ada)).name == made.name  # "" is the caller's own party
    for user in (bob.user, cat.user):
        sent = (await invite(ada, made.name, user)).invite
        assert (sent.party, sent.user, sent.leader) == (made.name, user, ada.user)
    listed = (await bob.call(bob.mm, "ListPartyInvites", pb.ListPartyInvitesRequest())).invites
    assert [(i.party, i.leader) for i in listed] == [(made.name, ada.user)]
    seen_by_bob = await get_party(bob, made.name)  # an invitee may look at the party
    assert [m.user for m in seen_by_bob.members] == [ada.user]
    assert not seen_by_bob.invites  # who else is invited is for members only
    assert {i.user for i in (await get_party(ada)).invites} == {bob.user, cat.user}
    assert await refusal(get_party(dan, made.name)) == (NOT_FOUND, "ERROR_REASON_PARTY_NOT_FOUND", {"party": made.name})

    joined = (await accept(bob, made.name)).party
    assert [m.user for m in joined.members] == [ada.user, bob.user]
    assert [m.display_name for m in joined.members] == ["p0", "p1"]
    assert (await get_party(bob)).name == made.name
    await cat.call(cat.mm, "DeclinePartyInvite", pb.DeclinePartyInviteRequest(party=made.name))
    assert (await get_party(ada)).invites == []
    code, reason, _ = await refusal(accept(cat, made.name))  # declined: nothing left to accept
    assert (code, reason) == (NOT_FOUND, "ERROR_REASON_PARTY_INVITE_NOT_FOUND")
    assert (await cat.call(cat.mm, "ListPartyInvites", pb.ListPartyInvitesRequest())).invites == []

    await ada.call(ada.mm, "LeaveParty", pb.LeavePartyRequest(party=made.name))
    after = await get_party(bob)
    assert (after.leader, [m.user for m in after.members]) == (bob.user, [bob.user])  # the next member leads
    assert await refusal(get_party(ada)) == (NOT_FOUND, "ERROR_REASON_PARTY_NOT_FOUND", {})
    await bob.call(bob.mm, "LeaveParty", pb.LeavePartyRequest(party=made.name))  # the last one out ends it
    store = RedisStore.from_url(inproc.redis_url)
    try:
        party_id = made.name.removeprefix("parties/")
        gone = [keys.party(party_id), keys.party_invites(party_id), keys.party_of_user(bob.user.removeprefix("users/"))]
        assert await store.redis.exists(*gone) == 0
    finally:
        await store.close()


async def test_hostile_requests_are_refused_and_change_nothing(players: list[Player]) -> None:
    ada, bob, cat, dan, eve, fay, gus, hal = players
    name = await form_party(ada, bob)
    code, _, meta = await refusal(invite(ada, name, ada.user))
    assert (code, meta) == (INVALID, {"field": "user"})  # inviting yourself
    await invite(ada, name, cat.user)
    code, reason, _ = await refusal(accept(dan, name))  # an invitation meant for cat
    assert (code, reason) == (NOT_FOUND, "ERROR_REASON_PARTY_INVITE_NOT_FOUND")
    code, reason, _ = await refusal(invite(bob, name, dan.user))  # a member, not the leader
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_NOT_PARTY_LEADER")
    code, reason, _ = await refusal(invite(dan, name, eve.user))  # a stranger
    assert (code, reason) == (NOT_FOUND, "ERROR_REASON_PARTY_NOT_FOUND")
    assert (await refusal(invite(ada, name, bob.user)))[1] == "ERROR_REASON_ALREADY_IN_PARTY"  # a member already
    assert (await refusal(invite(ada, name, "users/" + uuid.uuid4().hex)))[0] == INVALID  # no such user
    for bad in ("parties/x", "users/" + uuid.uuid4().hex, ""):
        assert (await refusal(accept(dan, bad)))[0] == INVALID

    # A party holds at most the largest table's seats, members and invitations together.
    limit = largest_table()
    for other in (dan, eve, fay, gus, hal)[: limit - 3]:
        await invite(ada, name, other.user)
    assert await refusal(invite(ada, name, hal.user)) == (
        PRECONDITION,
        "ERROR_REASON_PARTY_FULL",
        {"limit": str(limit)},
    )

    # A user is in at most one party: not a second one, by creating or accepting.
    code, reason, meta = await refusal(bob.call(bob.mm, "CreateParty", pb.CreatePartyRequest()))
    assert (code, reason, meta["party"]) == (PRECONDITION, "ERROR_REASON_ALREADY_IN_PARTY", name)
    other = await form_party(hal)
    await invite(hal, other, cat.user)
    await accept(cat, name)
    assert (await refusal(accept(cat, other)))[1] == "ERROR_REASON_ALREADY_IN_PARTY"
    assert [m.user for m in (await get_party(ada)).members] == [ada.user, bob.user, cat.user]

    # Ids are scoped to their user: one request id gives two users two parties; naming a party
    # one does not lead queues nothing.
    request_id = uuid.uuid4().hex
    dans = (await dan.call(dan.mm, "CreateParty", pb.CreatePartyRequest(request_id=request_id))).party
    eves = (await eve.call(eve.mm, "CreateParty", pb.CreatePartyRequest(request_id=request_id))).party
    assert dans.name != eves.name
    assert (dans.leader, eves.leader) == (dan.user, eve.user)
    code, reason, _ = await refusal(bob.call(bob.mm, "CreateTicket", sail_away(party_name=name)))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_NOT_PARTY_LEADER")
    code, reason, _ = await refusal(bob.call(bob.mm, "CreateTicket", sail_away(party=[ada.user])))
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_NOT_PARTY_LEADER")
    code, reason, _ = await refusal(dan.call(dan.mm, "CreateTicket", sail_away(party_name=name)))
    assert (code, reason) == (NOT_FOUND, "ERROR_REASON_PARTY_NOT_FOUND")
    code, _, meta = await refusal(ada.call(ada.mm, "CreateTicket", sail_away(party=[bob.user])))  # cat left out
    assert (code, meta) == (INVALID, {"field": "party"})
    code, _, meta = await refusal(ada.call(ada.mm, "CreateTicket", sail_away(seats=2, party_name=name)))
    assert (code, meta) == (INVALID, {"field": "party"})  # three members do not fit two seats


async def test_a_party_is_matched_into_one_game_at_one_table(matchmaker: None, players: list[Player]) -> None:
    ada, bob, cat, dan = players[:4]
    name = await form_party(ada, bob)
    party_ticket = sail_away(party_name=name)
    queued = (await ada.call(ada.mm, "CreateTicket", party_ticket)).ticket
    assert (queued.party_name, list(queued.party)) == (name, [ada.user, bob.user])
    assert (await bob.call(bob.mm, "GetTicket", pb.GetTicketRequest(ticket=queued.name))).ticket.name == queued.name
    solo = []
    for player in (cat, dan):  # the other two seats of the table, in the same queue
        request = pb.CreateTicketRequest(
            kind="sail_away", options=party_ticket.options, seat_counts=[4], request_id=uuid.uuid4().hex
        )
        solo.append((player, (await player.call(player.mm, "CreateTicket", request)).ticket))

    async def matched(player: Player, ticket: str) -> pb.Ticket:
        call = player.mm.WatchTicket(pb.WatchTicketRequest(ticket=ticket), metadata=player.md)
        async for change in call:
            if change.ticket.state == pb.TICKET_STATE_MATCHED:
                return change.ticket
        raise AssertionError(f"{ticket} ended unmatched")

    views = await asyncio.wait_for(
        asyncio.gather(matched(ada, queued.name), matched(bob, queued.name), *(matched(p, t.name) for p, t in solo)),
        60,
    )
    assert len({v.game for v in views}) == 1  # one game for the party and the two others
    assert len({v.seat for v in views}) == 4  # at one table, a seat each
    game = await ada.client.get_game(views[0].game)
    assert sorted(s.display_name for s in game.seats) == ["p0", "p1", "p2", "p3"]


async def test_leaving_cancels_the_partys_waiting_ticket(players: list[Player]) -> None:
    ada, bob = players[:2]
    name = await form_party(ada, bob)
    ticket = (await ada.call(ada.mm, "CreateTicket", sail_away(party=[bob.user]))).ticket
    assert ticket.state == pb.TICKET_STATE_SEARCHING
    await bob.call(bob.mm, "LeaveParty", pb.LeavePartyRequest(party=name))
    after = (await ada.call(ada.mm, "GetTicket", pb.GetTicketRequest(ticket=ticket.name))).ticket
    assert after.state == pb.TICKET_STATE_CANCELLED
    alone = (await ada.call(ada.mm, "CreateTicket", sail_away(party_name=name))).ticket  # ada is still in it
    assert list(alone.party) == [ada.user]
    await ada.call(ada.mm, "CancelTicket", pb.CancelTicketRequest(ticket=alone.name))


async def test_invitations_lapse_and_every_party_key_expires_with_the_party(redis_url: str) -> None:
    """In process, on a manual clock (flotilla/clock.py): an invitation lapses when the clock passes
    it, with no wait; the keys' TTLs are Redis's own (absolute expiries from that clock)."""
    store = RedisStore.from_url(redis_url)
    clock = ManualClock()
    parties = Parties(PartyStore.of(store), ttl_s=60, invite_ttl_s=1, clock=clock)
    ada, bob = (uuid.uuid4().hex for _ in range(2))
    try:
        for user in (ada, bob):
            await store.create_user(user, user, 0)
        party = await parties.create(ada, "ada", uuid.uuid4().hex)
        name = f"parties/{party.party_id}"
        await parties.invite(name, ada, f"users/{bob}")
        for key in (keys.party(party.party_id), keys.party_invites(party.party_id), keys.party_of_user(ada)):
            assert 0 < await store.redis.pttl(key) <= 60_000, key  # everything goes with the party
        assert 0 < await store.redis.pttl(keys.party_invited(bob)) <= 1000
        assert [i.party_id for i in await parties.invites(bob)] == [party.party_id]
        clock.advance(0.999)
        assert len(await parties.invites(bob)) == 1  # not yet
        clock.advance(0.002)
        assert await parties.invites(bob) == []
        with pytest.raises(PartyInviteNotFound):
            await parties.accept(name, bob, "bob")
        assert [user for user, _name in (await parties.get(name, ada)).members] == [ada]
    finally:
        await store.close()


async def test_a_user_holds_a_bounded_number_of_invitations(inproc: InProcess) -> None:
    target = inproc.gateways[0]
    dan = await Player.signed_in(target, "dan")
    leaders = [await Player.signed_in(target, f"l{i}") for i in range(MAX_INVITES_PER_USER + 1)]
    try:
        for leader in leaders[:-1]:
            await invite(leader, await form_party(leader), dan.user)
        last = leaders[-1]
        code, reason, meta = await refusal(invite(last, await form_party(last), dan.user))
        assert (code, reason, meta) == (PRECONDITION, "ERROR_REASON_TOO_MANY_INVITES", {"limit": "32"})
        listed = (await dan.call(dan.mm, "ListPartyInvites", pb.ListPartyInvitesRequest())).invites
        assert len(listed) == MAX_INVITES_PER_USER
    finally:
        for player in (dan, *leaders):
            await player.close()
