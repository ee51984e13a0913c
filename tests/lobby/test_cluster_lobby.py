"""Rooms, bots, tickets and ratings on a real 6-node Redis Cluster: every script stays in one slot.

The gateways and the worker run in the test process (tests/inproc.py), the matchmaker as a process."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator

import pytest

from flotilla.api.lobby.v1 import lobby_service_pb2 as lpb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mpb
from flotilla.redis_server import RedisCluster
from flotilla_client import Seat, play_random
from inproc import InProcess, in_process
from lobby.mm_support import Player, form_party, refusal, start_matchmaker, stop

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def cluster_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcess]:
    cluster = RedisCluster(tmp_path_factory.mktemp("cluster")).start()
    try:
        with in_process(cluster.url, gateways=2, workers=1) as running:
            matchmaker = start_matchmaker(
                running, tmp_path_factory.mktemp("mm"), "cluster", FLOTILLA_MM_BOT_FILL_AFTER="off"
            )
            try:
                yield running
            finally:
                stop(matchmaker)
    finally:
        cluster.stop()


async def test_rooms_tickets_and_ratings_work_on_a_cluster(cluster_stack: InProcess) -> None:
    gateways, url = cluster_stack.gateways, cluster_stack.redis_url
    ada, bob = [await Player.with_api_key(gateways[i], url, n) for i, n in enumerate(("ada", "bob"))]  # rated
    try:
        # A room with a bot, watched while it starts, played to the end.
        room = (
            await ada.call(
                ada.lobby,
                "CreateRoom",
                lpb.CreateRoomRequest(
                    kind="counter", seat_count=2, options={"moves": "20"}, request_id=uuid.uuid4().hex
                ),
            )
        ).room
        watch = ada.lobby.WatchRoom(lpb.WatchRoomRequest(room=room.name), metadata=ada.md)
        assert (await asyncio.wait_for(watch.read(), 10)).room.version == 1
        await ada.call(ada.lobby, "AddBot", lpb.AddBotRequest(room=room.name))
        started = await ada.call(ada.lobby, "StartRoom", lpb.StartRoomRequest(room=room.name))
        seat = Seat(started.room.game, 0, started.seat_token)
        await asyncio.wait_for(play_random(ada.client, seat, random.Random(1)), 60)
        watch.cancel()
        listed = await ada.call(ada.lobby, "ListRooms", lpb.ListRoomsRequest(kind="counter"))
        assert room.name not in [r.name for r in listed.rooms]

        # Two tickets matched into one game, played, rated once.
        tickets = [
            (
                await p.call(
                    p.mm,
                    "CreateTicket",
                    mpb.CreateTicketRequest(
                        kind="counter", options={"moves": "10"}, seat_counts=[2], request_id=uuid.uuid4().hex
                    ),
                )
            ).ticket
            for p in (ada, bob)
        ]

        async def matched(player: Player, name: str) -> mpb.Ticket:
            async for update in player.mm.WatchTicket(mpb.WatchTicketRequest(ticket=name), metadata=player.md):
                if update.ticket.state == mpb.TICKET_STATE_MATCHED:
                    return update.ticket
            raise AssertionError("the ticket ended unmatched")

        mine = await asyncio.wait_for(
            asyncio.gather(*(matched(p, t.name) for p, t in zip((ada, bob), tickets, strict=True))), 30
        )
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_random(p.client, Seat(t.game, t.seat, t.seat_token), random.Random(i))
                    for i, (p, t) in enumerate(zip((ada, bob), mine, strict=True))
                )
            ),
            60,
        )
        for _ in range(100):
            rating = (await ada.call(ada.ratings, "GetRating", mpb.GetRatingRequest(kind="counter"))).rating
            if rating.games:
                break
            await asyncio.sleep(0.1)
        assert rating.games == 1
    finally:
        await ada.close()
        await bob.close()


async def test_parties_work_on_a_cluster(cluster_stack: InProcess) -> None:
    """Every party script runs on the `{party}` slot; the party's ticket on its queue's slot."""
    ada, bob = [await Player.signed_in(cluster_stack.gateways[i], n) for i, n in enumerate(("ada", "bob"))]
    try:
        name = await form_party(ada, bob)
        request = mpb.CreateTicketRequest(
            kind="counter", options={"moves": "12"}, seat_counts=[2], party_name=name, request_id=uuid.uuid4().hex
        )
        ticket = (await ada.call(ada.mm, "CreateTicket", request)).ticket
        assert list(ticket.party) == [ada.user, bob.user]

        async def matched(player: Player) -> mpb.Ticket:
            async for update in player.mm.WatchTicket(mpb.WatchTicketRequest(ticket=ticket.name), metadata=player.md):
                if update.ticket.state == mpb.TICKET_STATE_MATCHED:
                    return update.ticket
            raise AssertionError("the ticket ended unmatched")

        seats = await asyncio.wait_for(asyncio.gather(matched(ada), matched(bob)), 30)
        assert seats[0].game == seats[1].game  # the party fills the table by itself
        assert {s.seat for s in seats} == {0, 1}
        for player in (ada, bob):
            await player.call(player.mm, "LeaveParty", mpb.LeavePartyRequest(party=name))
        gone = await refusal(ada.call(ada.mm, "GetParty", mpb.GetPartyRequest(party=name)))
        assert gone[1] == "ERROR_REASON_PARTY_NOT_FOUND"  # the last one out ended it
    finally:
        await ada.close()
        await bob.close()
