"""The SDK's calls against real gateways: every service's methods on the async client, the sync
client playing a game to the end, and failover between two gateways (calls, watches and Play
streams whose gateway is SIGKILLed under them)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid
from dataclasses import replace

import grpc
import pytest

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla.gateway.server import start_gateway
from flotilla.identity.tokens import SESSION
from flotilla.redis_server import free_port
from flotilla.settings import Settings
from flotilla_client import (
    FlotillaClient,
    FlotillaError,
    FlotillaSyncClient,
    Seat,
    VerificationFailed,
    check_commitment,
    play_random,
    play_random_sync,
)
from ledger import Ledger
from support import Stack, assert_gapless, stored_tokens, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]
SHORT = {"moves": "6"}  # a counter game of six moves


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


def name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_the_sync_client_plays_a_game_to_the_end_and_checks_its_seed(stack: Stack) -> None:
    with FlotillaSyncClient(stack.gateways[0]) as host, FlotillaSyncClient(stack.gateways[1]) as guest:
        host.sign_in(name("host"))
        guest.sign_in(name("guest"))
        game = host.create_game("counter", 2, SHORT)
        seats = [host.join(game.name), guest.join(game.name)]
        last: list[object] = []
        threads = [
            threading.Thread(target=lambda c=c, s=s: last.append(play_random_sync(c, s, random.Random(s.seat))))
            for c, s in zip((host, guest), seats, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not any(t.is_alive() for t in threads)
        assert len(last) == 2
        finished = host.get_game(game.name)
        assert finished.state == game_pb2.GAME_STATE_FINISHED
        record = host.record(game.name)
        assert len(record.actions) == 6
        check_commitment(record, game.seed_sha256)
        with pytest.raises(VerificationFailed):
            check_commitment(record, "0" * 64)
        assert host.view(game.name, seats[0]).view.game == game.name
        listed = host.list_games("counter", game_pb2.GAME_STATE_FINISHED, page_size=100)
        assert listed.games


def test_the_sync_play_stream_and_errors(stack: Stack) -> None:
    with FlotillaSyncClient(stack.gateways[0]) as host, FlotillaSyncClient(stack.gateways[0]) as guest:
        host.sign_in(name("host"))
        guest.sign_in(name("guest"))
        game = host.create_game("counter", 2, {"moves": "2"})
        seats = [host.join(game.name), guest.join(game.name)]
        with pytest.raises(FlotillaError) as caught:
            host.create_game("no_such_game", 2)
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert caught.value.reason.startswith("ERROR_REASON_")
        streams = [host.play(seats[0]), guest.play(seats[1])]
        outcomes: list[str] = []

        def run(stream: object, index: int) -> None:
            assert hasattr(stream, "send")
            for response in stream:  # type: ignore[attr-defined]
                if response.HasField("outcome"):  # a refusal: none expected
                    outcomes.append(f"refused {response.outcome.request_id}")
                outcomes.extend(response.update.answered_request_ids)  # accepted: answered by its events
                if response.update.HasField("prompt") and response.update.prompt.legal_actions:
                    stream.send(add(index + 1), etag=response.update.prompt.etag, request_id=f"r{index}")

        threads = [threading.Thread(target=run, args=(s, i)) for i, s in enumerate(streams)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not any(t.is_alive() for t in threads)
        assert sorted(outcomes) == ["r0", "r1"]
        assert host.get_game(game.name).state == game_pb2.GAME_STATE_FINISHED
        with pytest.raises(FlotillaError) as missing:
            host.get_game("games/" + "0" * 26)
        assert missing.value.code == grpc.StatusCode.NOT_FOUND


async def test_game_calls_on_the_async_client(stack: Stack) -> None:
    async with FlotillaClient(stack.gateways[0]) as host, FlotillaClient(stack.gateways[1]) as guest:
        await host.sign_in(name("host"))
        await guest.sign_in(name("guest"))
        game = await host.create_game("counter", 2, SHORT, request_id="same")
        assert (await host.create_game("counter", 2, SHORT, request_id="same")).name == game.name  # made once
        seats = [await host.join(game.name), await guest.join(game.name)]
        view = await host.view(game.name, seats[0])
        assert view.HasField("prompt") != (await guest.view(game.name, seats[1])).HasField("prompt")
        mover = seats[0] if view.HasField("prompt") else seats[1]
        client = host if mover is seats[0] else guest
        reply = await client.submit(game.name, mover, add(2), etag=(await client.view(game.name, mover)).prompt.etag)
        assert reply.through_event_id > 0
        left = await guest.leave(seats[1])
        assert left.etag
        with pytest.raises(FlotillaError):  # a seat token left is revoked
            await guest.submit(game.name, seats[1], add(1))
        await play_random(host, seats[0])  # the server plays the seat left
        assert (await host.get_game(game.name)).state == game_pb2.GAME_STATE_FINISHED
        refreshed = await host.refresh_token(host.session_token)
        assert refreshed.token
        assert refreshed.expires_in > 0


async def test_lobby_calls(stack: Stack) -> None:
    async with FlotillaClient(stack.gateways[0]) as host, FlotillaClient(stack.gateways[1]) as guest:
        await host.sign_in(name("host"))
        await guest.sign_in(name("guest"))
        room = await host.create_room("counter", 2, SHORT, display_name="sdk room")
        assert room.state == lb.ROOM_STATE_OPEN
        assert room.seats[0].user == host.user
        listed = await guest.list_rooms("counter", min_open_seats=1, page_size=100)
        assert room.name in [r.name for r in listed.rooms] or listed.next_page_token
        assert (await guest.get_room(room.name)).room.name == room.name
        joined = await guest.join_room(room.name)
        assert joined.seats[1].user == guest.user
        assert (await guest.set_ready(room.name)).seats[1].ready
        handed = await host.transfer_host(room.name, guest.user)
        assert handed.host == guest.user
        assert (await guest.transfer_host(room.name, host.user)).host == host.user
        kicked = await host.kick_seat(room.name, 1)
        assert not kicked.seats[1].taken
        await guest.join_room(room.name)
        left = await guest.leave_room(room.name)
        assert not left.seats[1].taken
        with_bot = await host.add_bot(room.name, policy="random")
        assert with_bot.seats[1].bot_policy == "random"
        started = await host.start_room(room.name)
        assert started.seat_token
        assert started.room.game
        updates = [u async for u in host.watch_room(room.name)]  # a started room: its last message, then the end
        assert updates[-1].room.state == lb.ROOM_STATE_STARTED
        assert updates[-1].seat_token
        with pytest.raises(FlotillaError) as caught:
            await guest.kick_seat(room.name, 0)
        assert caught.value.reason


async def test_matchmaking_and_rating_calls(stack: Stack) -> None:
    async with FlotillaClient(stack.gateways[0]) as leader, FlotillaClient(stack.gateways[1]) as member:
        await leader.sign_in(name("leader"))
        await member.sign_in(name("member"))
        ticket = await leader.create_ticket("counter", [2], SHORT)
        assert ticket.state == mm.TICKET_STATE_SEARCHING
        assert (await leader.get_ticket(ticket.name)).name == ticket.name
        watched = leader.watch_ticket(ticket.name)
        first = await anext(watched)
        assert first.ticket.name == ticket.name
        assert (await leader.cancel_ticket(ticket.name)).state == mm.TICKET_STATE_CANCELLED
        rest = [u async for u in watched]
        assert (rest or [first])[-1].ticket.state in (mm.TICKET_STATE_CANCELLED, mm.TICKET_STATE_SEARCHING)

        party = await leader.create_party()
        invite = await leader.invite_to_party(party.name, member.user)
        assert invite.user == member.user
        assert [i.party for i in await member.list_party_invites()] == [party.name]
        joined = await member.accept_party_invite(party.name)
        assert sorted(m.user for m in joined.members) == sorted([leader.user, member.user])
        assert (await member.get_party(party.name)).leader == leader.user
        await member.leave_party(party.name)
        assert [m.user for m in (await leader.get_party(party.name)).members] == [leader.user]
        await leader.invite_to_party(party.name, member.user)
        await member.decline_party_invite(party.name)
        assert await member.list_party_invites() == []
        await leader.leave_party(party.name)

        board = await leader.list_leaderboard("counter", page_size=10)
        assert len(board.ratings) <= 10
        history = await leader.list_rating_history("counter", leader.user)
        assert list(history.changes) == []  # no rated games yet
        rating = await leader.get_rating("counter")  # the caller's own: unrated so far
        assert rating.user == leader.user
        assert rating.games == 0


def test_the_sync_client_fails_over_past_a_dead_target(stack: Stack) -> None:
    dead = f"127.0.0.1:{free_port()}"
    with FlotillaSyncClient(dead, stack.gateways[1], backoff_s=0.01) as client:
        client.sign_in(name("sync"))  # UNAVAILABLE at the dead one: retried on the next
        assert client.target == stack.gateways[1]
        assert client.get_game(client.create_game("counter", 2, SHORT).name).seat_count == 2


async def test_calls_failing_together_fail_over_once_not_once_each(stack: Stack) -> None:
    """Eight calls fail at once on a dead first target: the client moves to the live one once.
    (Each failure moving on in turn took an even number of them back to the dead target, every
    retry again: a watch and a submit failing together when their gateway died gave up there.)"""
    dead = f"127.0.0.1:{free_port()}"
    client = FlotillaClient(dead, stack.gateways[0], backoff_s=0.01, retries=2)
    try:
        await client.sign_in(name("together"))  # fails over: the client is on the live gateway now
        client._failover(on=client.channel)  # back on the dead one, as a crash would leave it
        assert client.target == dead
        moves = len(client._retired)  # channels failed over from
        games = await asyncio.gather(*(client.create_game("counter", 2, SHORT) for _ in range(8)))
        assert len({g.name for g in games}) == 8
        assert client.target == stack.gateways[0]
        assert len(client._retired) == moves + 1, "the client moved on once, not once per failed call"
    finally:
        await client.close()


async def test_a_watch_fails_over_to_the_other_gateway_and_misses_nothing(stack: Stack) -> None:
    """The watcher's gateway is killed mid-game: the watch resumes on the other gateway by etag
    and sees every event once, in order, to the end."""
    watcher = FlotillaClient(stack.gateways[0], stack.gateways[1], backoff_s=0.01)
    player = FlotillaClient(stack.gateways[1])
    try:
        await watcher.sign_in(name("watcher"))
        await player.sign_in(name("player"))
        game = await player.create_game("counter", 2, {"moves": "30"})
        seats = [await player.join(game.name), await watcher.join(game.name)]
        events: list[int] = []

        async def watch() -> None:
            async for update in watcher.watch(game.name, seats[1]):
                events.extend(e.event_id for e in update.events)
                if update.HasField("prompt") and update.prompt.legal_actions:
                    if len(events) > 10 and watcher.target == stack.gateways[0]:
                        stack.gateway_procs[0].kill()  # a crash under the open stream
                    await watcher.submit(game.name, seats[1], update.prompt.legal_actions[0], etag=update.prompt.etag)

        await asyncio.wait_for(asyncio.gather(watch(), play_random(player, seats[0])), 90)
        assert watcher.target == stack.gateways[1]
        assert events == list(range(events[0], events[0] + len(events)))  # gapless, each once
        assert (await player.get_game(game.name)).state == game_pb2.GAME_STATE_FINISHED
    finally:
        await watcher.close()
        await player.close()
        stack.restart_gateway(0)


def test_the_sync_client_refreshes_an_aging_token_before_using_it(stack: Stack) -> None:
    """A session token with less than a third of its lifetime left is refreshed before the call."""
    tokens = asyncio.run(stored_tokens(stack.redis_url))
    with FlotillaSyncClient(stack.gateways[0]) as client:
        client.sign_in(name("sync"))
        claims = {"typ": SESSION, "sub": client.user, "name": "sync", "iat": int(time.time()) - 60}
        aged = tokens._sign(claims, 10)  # 70 s of life, 10 s left
        client.use_token(aged)
        game = client.create_game("counter", 2, SHORT)
        assert client.current(aged) != aged  # refreshed (and the call went through with the refresh)
        assert game.seat_count == 2


async def test_catalogue_calls_on_both_clients(stack: Stack) -> None:
    """No token needed; the sync and async clients read the same catalogue."""
    async with FlotillaClient(*stack.gateways) as client:
        kinds = {kind.kind: kind for kind in (await client.list_game_kinds()).kinds}
        assert {"counter", "port_royal", "sail_away", "pirates_of_nassau", "navegador"} <= set(kinds)
        catalog = await client.get_catalog("port_royal")
        assert catalog.WhichOneof("game") == "port_royal"
        assert catalog.rules_version == kinds["port_royal"].rules_version
        with pytest.raises(FlotillaError) as caught:
            await client.get_catalog("no_such_game")
        assert caught.value.reason == "ERROR_REASON_CATALOG_NOT_FOUND"

    def read() -> object:
        with FlotillaSyncClient(*stack.gateways) as sync:
            return sync.get_catalog("port_royal", catalog.rules_version)

    assert await asyncio.to_thread(read) == catalog


# --- Play streams that resume by themselves ---------------------------------------------
class PlayLog:
    """What one seat's Play stream delivered: event ids (a full view as the negative marker of the
    ids it covers), each submit's request id, and every answer (update or outcome) by request id."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.sent: list[str] = []
        self.answered: list[str] = []
        self.refused: list[str] = []
        self.confirmed: list[tuple[str, str]] = []  # (request id, etag)
        self._prompts: set[str] = set()

    def take(self, response: object) -> game_pb2.Action | None:
        """Record `response`; the action to send when it prompts for one not answered yet (a
        resumed stream's checkpoint repeats the pending prompt: answered once, by its etag)."""
        assert isinstance(response, game_service_pb2.PlayResponse)
        if response.HasField("outcome"):
            outcome = response.outcome
            self.answered.append(outcome.request_id)
            if outcome.status.code == 0:
                self.confirmed.append((outcome.request_id, outcome.etag))
            else:
                self.refused.append(f"{outcome.request_id}: {outcome.status.message}")
            return None
        update = response.update
        if update.HasField("view"):
            self.ids.append(-update.view.through_event_id)
        self.ids.extend(e.event_id for e in update.events)
        self.answered.extend(update.answered_request_ids)
        self.confirmed.extend((rid, update.etag) for rid in update.answered_request_ids)
        if update.HasField("prompt") and update.prompt.legal_actions and update.prompt.etag not in self._prompts:
            self._prompts.add(update.prompt.etag)
            return update.prompt.legal_actions[0]
        return None

    async def assert_kept(self, stack: Stack, game: str, seat: int, last_event_id: int) -> None:
        """Every submit answered once and accepted, every event delivered once in order, and the
        action log holds each confirmed move once (the ledger)."""
        assert not self.refused, self.refused
        assert sorted(self.answered) == sorted(self.sent), "each submit is answered exactly once"
        assert_gapless(self.ids, last_event_id)
        ledger = Ledger()
        for request_id, etag in self.confirmed:
            ledger.confirm(game, seat, request_id, etag)
        kept = await ledger.assert_kept(stack.redis_url, [game])
        assert kept.confirmed == len(self.sent)


def kill_gateway_0(stack: Stack) -> threading.Thread:
    """SIGKILL gateway 0 now; a thread starts a new one on its address (join it)."""
    stack.gateway_procs[0].kill()
    restart = threading.Thread(target=stack.restart_gateway, args=(0,))
    restart.start()
    return restart


async def test_a_play_stream_survives_its_gateway_killed_mid_game(stack: Stack) -> None:
    """Seat 0 plays over one Play stream on gateway 0, which is SIGKILLed just after a submit: the
    stream reopens on gateway 1 after the last update it delivered, the submit is sent again and
    answered once, and the game ends with every move applied once and every event seen once."""
    player = FlotillaClient(stack.gateways[0], stack.gateways[1], backoff_s=0.01)
    other = FlotillaClient(stack.gateways[1])
    restart: threading.Thread | None = None
    try:
        await player.sign_in(name("player"))
        await other.sign_in(name("other"))
        game = await player.create_game("counter", 2, {"moves": "24"})
        seats = [await player.join(game.name), await other.join(game.name)]
        stream, log = player.play(seats[0]), PlayLog()
        before_kill = ""

        async def play() -> None:
            nonlocal restart, before_kill
            async for response in stream:
                if (action := log.take(response)) is not None:
                    log.sent.append(stream.send(action, etag=response.update.prompt.etag))
                    if len(log.sent) == 4:
                        before_kill = log.sent[-1]
                        restart = kill_gateway_0(stack)  # the submit may or may not have reached it

        await asyncio.wait_for(asyncio.gather(play(), play_random(other, seats[1])), 60)
        assert restart is not None
        assert stream.reopened >= 1
        assert player.target == stack.gateways[1]
        assert before_kill in log.answered[3:], "the submit sent just before the kill is answered after it"
        assert not stream.unanswered
        finished = await player.get_game(game.name)
        assert finished.state == game_pb2.GAME_STATE_FINISHED
        assert len((await player.record(game.name)).actions) == 24
        await log.assert_kept(stack, game.name, 0, finished.last_event_id)
    finally:
        await player.close()
        await other.close()
        if restart is not None:
            await asyncio.to_thread(restart.join)


def test_the_sync_play_stream_survives_its_gateway_killed(stack: Stack) -> None:
    with (
        FlotillaSyncClient(stack.gateways[0], stack.gateways[1], backoff_s=0.01) as player,
        FlotillaSyncClient(stack.gateways[1]) as other,
    ):
        player.sign_in(name("player"))
        other.sign_in(name("other"))
        game = player.create_game("counter", 2, {"moves": "12"})
        seats = [player.join(game.name), other.join(game.name)]
        opponent = threading.Thread(target=play_random_sync, args=(other, seats[1]))
        opponent.start()
        stream, log = player.play(seats[0]), PlayLog()
        restart: threading.Thread | None = None
        try:
            for response in stream:
                if (action := log.take(response)) is not None:
                    log.sent.append(stream.send(action, etag=response.update.prompt.etag))
                    if len(log.sent) == 2:
                        restart = kill_gateway_0(stack)
        finally:
            opponent.join(60)
            if restart is not None:
                restart.join()
        assert restart is not None
        assert not opponent.is_alive()
        assert stream.reopened >= 1
        assert player.target == stack.gateways[1]
        finished = player.get_game(game.name)
        assert finished.state == game_pb2.GAME_STATE_FINISHED
        asyncio.run(log.assert_kept(stack, game.name, 0, finished.last_event_id))


async def test_a_play_stream_outlives_its_seat_token(stack: Stack) -> None:
    """Tokens live 2 s and the game takes longer: the stream reopens with the refreshed seat
    token each time the one it was opened with expires, and misses and repeats nothing."""
    lifetimes = Settings(session_ttl_s=2, seat_token_ttl_s=2)
    gateway = await start_gateway(replace(lifetimes, redis_url=stack.redis_url, bind="127.0.0.1:0", heartbeat_s=0.2))
    player, other = FlotillaClient(f"127.0.0.1:{gateway.port}"), FlotillaClient(f"127.0.0.1:{gateway.port}")
    try:
        await player.sign_in(name("player"))
        await other.sign_in(name("other"))
        game = await player.create_game("counter", 2, {"moves": "12"})
        seats = [await player.join(game.name), await other.join(game.name)]
        stream, log = player.play(seats[0]), PlayLog()

        async def play() -> None:
            async for response in stream:
                if (action := log.take(response)) is not None:
                    log.sent.append(stream.send(action, etag=response.update.prompt.etag))

        async def pace() -> None:  # seat 1 moves every 0.4 s: the game lasts past two expiries
            for _ in range(6):
                await until(lambda: _to_act(other, seats[1]), 10, "seat 1's turn")
                await other.submit(game.name, seats[1], add(1))
                await asyncio.sleep(0.4)

        started = time.monotonic()
        await asyncio.wait_for(asyncio.gather(play(), pace()), 30)
        assert time.monotonic() - started > 2
        assert stream.reopened >= 1
        assert player.current(seats[0].token) != seats[0].token  # refreshed
        finished = await player.get_game(game.name)
        await log.assert_kept(stack, game.name, 0, finished.last_event_id)
    finally:
        await player.close()
        await other.close()
        await gateway.stop(0)


async def _to_act(client: FlotillaClient, seat: Seat) -> bool:
    return (await client.view(seat.game, seat)).HasField("prompt")
