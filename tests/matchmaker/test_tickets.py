"""Tickets and ratings over real gateways, workers and a matchmaker: matched, bot-filled, cancelled, rated once.

The gateways and a worker run in the test process (tests/inproc.py), the matchmakers as processes
beside them (tests/lobby/mm_support.py).

Nothing here depends on timing. The module's matchmaker never fills seats with bots, so two
tickets meant for each other are matched together however long the second one takes to arrive
(with bot fill-in after 2 s, a second ticket queued later than that under load left both
players in two bot games). Only the lone-ticket test runs a matchmaker that fills in bots.
Queues are keyed by kind and options and the session's Redis is shared, so each test queues
its tickets under its own `moves` value (no other test queues counter tickets with these: 14 is
`flotilla bot --queue`'s).
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.bots.command import run as run_bot_command
from flotilla.cli import build_parser
from flotilla.lobby.ratings import Ratings
from flotilla.store import keys
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaError, Seat, play_random
from inproc import InProcess
from lobby.mm_support import Player, form_party, ratings_settled, reason_of, start_matchmaker, stop

pytestmark = [pytest.mark.redis, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def matchmaker(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Matches tickets (never with bots), plays bot seats, rates games."""
    proc = start_matchmaker(inproc, tmp_path_factory.mktemp("mm"), "tickets", FLOTILLA_MM_BOT_FILL_AFTER="off")
    yield
    stop(proc)


@pytest.fixture
def bot_filler(matchmaker: None, inproc: InProcess, tmp_path: Path) -> Iterator[None]:
    """A second matchmaker, for one test, that fills a ticket's open seats with bots after 1 s."""
    proc = start_matchmaker(inproc, tmp_path, "bot-filler", FLOTILLA_MM_ROLES="match", FLOTILLA_MM_BOT_FILL_AFTER="1")
    yield
    stop(proc)


@pytest.fixture
async def players(inproc: InProcess) -> AsyncIterator[list[Player]]:
    made = [await Player.signed_in(inproc.gateways[i % 2], f"p{i}") for i in range(3)]
    yield made
    for player in made:
        await player.close()


@pytest.fixture
async def accounts(inproc: InProcess) -> AsyncIterator[list[Player]]:
    """Two signed-in accounts that are not guests (guests have no ratings)."""
    made = [await Player.with_api_key(inproc.gateways[i], inproc.redis_url, f"a{i}") for i in range(2)]
    yield made
    for player in made:
        await player.close()


def _ticket(moves: str, party: tuple[str, ...] = (), request_id: str = "") -> pb.CreateTicketRequest:
    return pb.CreateTicketRequest(
        kind="counter",
        options={"moves": moves},
        seat_counts=[2],
        party=list(party),
        request_id=request_id or uuid.uuid4().hex,
    )


async def _until_done(player: Player, name: str) -> list[pb.WatchTicketResponse]:
    call = player.mm.WatchTicket(pb.WatchTicketRequest(ticket=name), metadata=player.md)
    return [m async for m in call]


async def _refused(coro: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await coro  # type: ignore[misc]
    return caught.value.code(), reason_of(caught.value)


class TestTickets:
    async def test_two_players_are_matched_play_and_are_rated_exactly_once(
        self, matchmaker: None, accounts: list[Player], players: list[Player], inproc: InProcess
    ) -> None:
        ada, bob = accounts
        moves = "20"
        t1 = (await ada.call(ada.mm, "CreateTicket", _ticket(moves))).ticket
        t2 = (await bob.call(bob.mm, "CreateTicket", _ticket(moves))).ticket
        assert t1.state == pb.TICKET_STATE_SEARCHING
        assert abs(t1.create_time.ToMilliseconds() - time.time() * 1000) < 60_000
        w1, w2 = await asyncio.wait_for(asyncio.gather(_until_done(ada, t1.name), _until_done(bob, t2.name)), 30)
        m1, m2 = w1[-1].ticket, w2[-1].ticket
        assert m1.state == m2.state == pb.TICKET_STATE_MATCHED
        assert m1.game == m2.game
        assert {m1.seat, m2.seat} == {0, 1}
        # The match's game is created with both seated and reserved for them: an outsider gets no seat.
        outsider = players[2]
        with pytest.raises(FlotillaError) as caught:
            await outsider.client.join(m1.game)
        assert (caught.value.code, caught.value.reason) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "ERROR_REASON_NOT_SEATED",
        )
        await asyncio.wait_for(
            asyncio.gather(
                play_random(ada.client, Seat(m1.game, m1.seat, m1.seat_token), random.Random(1)),
                play_random(bob.client, Seat(m2.game, m2.seat, m2.seat_token), random.Random(2)),
            ),
            60,
        )
        await ratings_settled(inproc.redis_url)
        got = (await ada.call(ada.ratings, "GetRating", pb.GetRatingRequest(kind="counter"))).rating
        assert got.games == 1
        assert got.sigma < 25 / 3

        # A re-delivered end (the same game on the stream again, and a direct call) rates nothing.
        store = RedisStore.from_url(inproc.redis_url)
        try:
            game_id = m1.game.removeprefix("games/")
            for _ in range(2):
                await store.redis.xadd(keys.FINISHED, {"g": game_id})
            assert await Ratings(LobbyStore(store.redis), store).rate_game(game_id) == "already"
        finally:
            await store.close()
        await ratings_settled(inproc.redis_url)
        for player in (ada, bob):
            again = (await player.call(player.ratings, "GetRating", pb.GetRatingRequest(kind="counter"))).rating
            assert again.games == 1
            history = await player.call(
                player.ratings, "ListRatingHistory", pb.ListRatingHistoryRequest(kind="counter")
            )
            assert [c.game for c in history.changes] == [m1.game]
            assert history.changes[0].rate_time.ToMilliseconds() > t1.create_time.ToMilliseconds()
        board = await ada.call(ada.ratings, "ListLeaderboard", pb.ListLeaderboardRequest(kind="counter", page_size=500))
        ranked = [r.user for r in board.ratings]
        assert ada.user in ranked
        assert [r.rank for r in board.ratings] == list(range(1, len(board.ratings) + 1))
        assert [r.ordinal for r in board.ratings] == sorted((r.ordinal for r in board.ratings), reverse=True)

    async def test_flotilla_bot_queues_is_matched_and_plays_to_the_end(
        self, matchmaker: None, inproc: InProcess, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`flotilla bot --queue counter --games 2` (its code, in process): two tickets (one user
        each) matched together, both seats played by the command until the game is over."""
        where = ["--queue", "counter", "--option", "moves=14", "--target", inproc.gateways[0]]
        args = build_parser().parse_args(["bot", "--policy", "heuristic", "--games", "2", "--concurrency", "2", *where])
        code = await asyncio.wait_for(run_bot_command(args, None), 90)
        text = capsys.readouterr().out
        assert code == 0, text[-2000:]
        assert "heuristic (difficulty 1): 2 of 2 games over" in text
        games = {line.split(":")[0] for line in text.splitlines() if ": game over (finished)" in line}
        assert len(games) == 1, text  # the two tickets made one game
        assert text.count(", 7 decisions, 0 fallbacks") == 2  # 14 moves, half of them each ticket's

    async def test_a_lone_ticket_gets_a_bot_and_the_game_finishes_unrated(
        self, bot_filler: None, players: list[Player]
    ) -> None:
        ada = players[0]
        ticket = (await ada.call(ada.mm, "CreateTicket", _ticket("40"))).ticket
        done = await asyncio.wait_for(_until_done(ada, ticket.name), 30)
        matched = done[-1].ticket
        assert matched.state == pb.TICKET_STATE_MATCHED
        # Searching (unless the watch began after the match), then matched; heartbeats between.
        states = [m.ticket.state for m in done if not m.is_checkpoint]
        assert states in ([pb.TICKET_STATE_SEARCHING, pb.TICKET_STATE_MATCHED], [pb.TICKET_STATE_MATCHED])
        last = await asyncio.wait_for(
            play_random(ada.client, Seat(matched.game, matched.seat, matched.seat_token), random.Random(3)), 60
        )
        assert last is not None
        game = await ada.client.get_game(matched.game)
        assert any(s.display_name.startswith("Bot") for s in game.seats)

    async def test_a_party_plays_together_and_cancel_ends_a_waiting_ticket(
        self, matchmaker: None, players: list[Player]
    ) -> None:
        ada, bob, cat = players
        party_name = await form_party(ada, bob)
        party = (await ada.call(ada.mm, "CreateTicket", _ticket("61", party=(bob.user,)))).ticket
        assert list(party.party) == [ada.user, bob.user]
        assert party.party_name == party_name
        done = await asyncio.wait_for(_until_done(bob, party.name), 30)  # a party member may watch it too
        assert done[-1].ticket.state == pb.TICKET_STATE_MATCHED
        assert done[-1].ticket.seat_token
        lone = (await cat.call(cat.mm, "CreateTicket", _ticket("62"))).ticket
        cancelled = (await cat.call(cat.mm, "CancelTicket", pb.CancelTicketRequest(ticket=lone.name))).ticket
        assert cancelled.state == pb.TICKET_STATE_CANCELLED
        again = (await cat.call(cat.mm, "CancelTicket", pb.CancelTicketRequest(ticket=lone.name))).ticket
        assert again.state == pb.TICKET_STATE_CANCELLED
        done = await asyncio.wait_for(_until_done(cat, lone.name), 10)
        assert [m.ticket.state for m in done] == [pb.TICKET_STATE_CANCELLED]

    async def test_the_same_request_id_gives_the_same_ticket_and_bad_input_is_refused(
        self, players: list[Player]
    ) -> None:
        ada, bob = players[0], players[1]
        request = _ticket("63", request_id=uuid.uuid4().hex)
        first = (await ada.call(ada.mm, "CreateTicket", request)).ticket
        second = (await ada.call(ada.mm, "CreateTicket", request)).ticket
        assert first.name == second.name
        await ada.call(ada.mm, "CancelTicket", pb.CancelTicketRequest(ticket=first.name))
        for bad in (
            pb.CreateTicketRequest(kind="counter", seat_counts=[]),
            pb.CreateTicketRequest(kind="chess", seat_counts=[2]),
            pb.CreateTicketRequest(kind="counter", seat_counts=[3]),
            pb.CreateTicketRequest(kind="counter", seat_counts=[2], party=["bob"]),
        ):
            code, _ = await _refused(ada.call(ada.mm, "CreateTicket", bad))
            assert code == grpc.StatusCode.INVALID_ARGUMENT
        stranger = pb.CreateTicketRequest(kind="counter", seat_counts=[2], party=["users/" + "0" * 32])
        code, reason = await _refused(ada.call(ada.mm, "CreateTicket", stranger))  # no party of ada's has them
        assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ERROR_REASON_PARTY_MEMBER_NOT_ACCEPTED")
        code, reason = await _refused(bob.call(bob.mm, "GetTicket", pb.GetTicketRequest(ticket=first.name)))
        assert code == grpc.StatusCode.NOT_FOUND
        assert reason == "ERROR_REASON_TICKET_NOT_FOUND"
        code, _ = await _refused(ada.call(ada.mm, "GetTicket", pb.GetTicketRequest(ticket="tickets/x")))
        assert code == grpc.StatusCode.INVALID_ARGUMENT
