"""Issue 23 (11): only rated games move ratings, so a second account cannot farm one.

Rated games are the matchmaker's (tests/matchmaker/test_tickets.py rates one) and rooms created
rated, which seat signed-in accounts only. Through the public API, against real gateways (in the
test process, tests/inproc.py), Redis and a matchmaker's ratings consumer (a process):

* the reported farming sequence (a guest and a second guest, three short private games, mu
  25.0 -> 31.2), a CreateGame table and a matchmaking game between them (in a setting only they
  queue in) leave both ratings where they were: games with guests move no ratings;
* a guest cannot create or join a rated room (PERMISSION_DENIED / GUESTS_DISABLED; the room is
  unchanged), and two API-key accounts' rated room moves both ratings once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Iterator

import grpc
import pytest

from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby_pb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm_pb
from flotilla_client import FlotillaClient, FlotillaError, Seat, play_random
from forkserver import Proc
from inproc import InProcess
from lobby.mm_support import Player, ratings_settled, start_matchmaker, stop

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]

SHORT = {"moves": "2"}
TWO_ONLY = {"moves": "3"}  # a short setting no other test queues tickets in: these two meet
GUESTS_DISABLED = (grpc.StatusCode.PERMISSION_DENIED, "ERROR_REASON_GUESTS_DISABLED")


@pytest.fixture(scope="module")
def ratings(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proc]:
    """A matchmaker that matches (never with bots) and rates finished games."""
    proc = start_matchmaker(
        inproc,
        tmp_path_factory.mktemp("mm"),
        "ratings",
        FLOTILLA_MM_ROLES="match,ratings",
        FLOTILLA_MM_BOT_FILL_AFTER="off",
    )
    yield proc
    stop(proc)


@pytest.fixture
async def guests(inproc: InProcess) -> AsyncIterator[tuple[Player, Player]]:
    made = (await Player.signed_in(inproc.gateways[0], "ada"), await Player.signed_in(inproc.gateways[1], "bob"))
    yield made
    for player in made:
        await player.close()


@pytest.fixture
async def accounts(inproc: InProcess) -> AsyncIterator[tuple[Player, Player]]:
    """Two API-key (signed-in, non-guest) accounts."""
    made = [await Player.with_api_key(inproc.gateways[i], inproc.redis_url, f"rated-{i}") for i in range(2)]
    yield made[0], made[1]
    for player in made:
        await player.close()


async def refused(call: Awaitable[object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(FlotillaError) as caught:
        await call
    return caught.value.code, caught.value.reason


async def until_matched(player: FlotillaClient, ticket: str) -> mm_pb.Ticket:
    async for update in player.watch_ticket(ticket):
        if update.ticket.state == mm_pb.TICKET_STATE_MATCHED:
            return update.ticket
    raise AssertionError("the ticket ended unmatched")


async def play_together(a: FlotillaClient, b: FlotillaClient, seats: tuple[Seat, Seat]) -> None:
    both = (play_random(a, seats[0], random.Random(1)), play_random(b, seats[1], random.Random(2)))
    await asyncio.wait_for(asyncio.gather(*both), 60)


async def play_room(host: FlotillaClient, guest: FlotillaClient, room: lobby_pb.Room) -> None:
    """`guest` takes the room's other seat; the two play its game to the end."""
    await guest.join_room(room.name, join_code=room.join_code)
    await guest.set_ready(room.name)
    started = await host.start_room(room.name)
    joined = await guest.get_room(room.name)
    game = started.room.game
    await play_together(host, guest, (Seat(game, 0, started.seat_token), Seat(game, 1, joined.seat_token)))


async def test_two_guests_farming_in_private_games_move_no_rating(
    ratings: Proc, inproc: InProcess, guests: tuple[Player, Player]
) -> None:
    """The reported sequence, a CreateGame table and a matchmaking game between the same two."""
    host, guest = guests[0].client, guests[1].client
    for _ in range(3):
        await play_room(
            host, guest, await host.create_room("counter", 2, SHORT, visibility=lobby_pb.ROOM_VISIBILITY_PRIVATE)
        )
    table = await host.create_game("counter", 2, SHORT)
    await play_together(host, guest, (await host.join(table.name, 0), await guest.join(table.name, 1)))
    tickets = [await p.create_ticket("counter", [2], TWO_ONLY) for p in (host, guest)]
    waits = (until_matched(p, t.name) for p, t in zip((host, guest), tickets, strict=True))
    mine, theirs = await asyncio.wait_for(asyncio.gather(*waits), 60)
    assert mine.game == theirs.game
    await play_together(host, guest, tuple(Seat(t.game, t.seat, t.seat_token) for t in (mine, theirs)))
    await ratings_settled(inproc.redis_url)
    for player in guests:
        rating = await player.client.get_rating("counter")
        assert (rating.games, rating.mu) == (0, 25.0)
        assert not (await player.client.list_rating_history("counter", player.user)).changes


async def test_a_rated_room_seats_no_guest_and_moves_its_players_ratings(
    ratings: Proc, inproc: InProcess, guests: tuple[Player, Player], accounts: tuple[Player, Player]
) -> None:
    ann, ben = accounts[0].client, accounts[1].client
    guest = guests[0].client
    assert await refused(guest.create_room("counter", 2, SHORT, rated=True)) == GUESTS_DISABLED
    room = await ann.create_room("counter", 2, SHORT, rated=True)
    assert room.rated
    assert (await refused(guest.join_room(room.name))) == GUESTS_DISABLED
    assert (await ann.get_room(room.name)).room == room  # the refusal changed nothing
    await play_room(ann, ben, room)
    await ratings_settled(inproc.redis_url)
    for player in (ann, ben):
        rating = await player.get_rating("counter")
        assert rating.games == 1
        assert [c.game for c in (await player.list_rating_history("counter", player.user)).changes] == [
            (await ann.get_room(room.name)).room.game
        ]
