"""GameService against real gateways and a worker in the test process (tests/inproc.py): bad input,
idempotency, resume on another gateway."""

from __future__ import annotations

import asyncio
import itertools
import random
import uuid

import grpc
import pytest
import redis.asyncio as aioredis
from google.protobuf.json_format import MessageToDict

from flotilla.api.counter.v1 import counter_pb2
from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.app.host import host_for
from flotilla.convert import GameConverter
from flotilla.rules import Seat as RulesSeat
from flotilla.rules.replay import replay
from flotilla.store import keys
from flotilla_client import FlotillaClient, FlotillaError, Seat, play_random
from inproc import InProcess

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


def add(n: int) -> game_pb2.Action:
    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=n)))


async def two_seats(inproc: InProcess) -> tuple[FlotillaClient, str, list]:  # type: ignore[type-arg]
    client = FlotillaClient(inproc.gateways[0])
    await client.sign_in("tester")
    game = await client.create_game("counter", 2)
    other = FlotillaClient(inproc.gateways[0])
    await other.sign_in("other")
    seats = [await client.join(game.name), await other.join(game.name)]
    await other.close()
    return client, game.name, seats


async def stored(redis_url: str, game: str) -> tuple[bytes, bytes]:
    client = aioredis.Redis.from_url(redis_url)
    try:
        version, state = await client.hmget(keys.game(game.removeprefix("games/")), ["version", "state"])
        return version, state
    finally:
        await client.aclose()


class TestBadInput:
    """Each bad request gets its status code and reason, and changes nothing."""

    async def expect(self, inproc: InProcess, game: str, call, code: grpc.StatusCode, reason: str) -> None:  # type: ignore[no-untyped-def]
        before = await stored(inproc.redis_url, game)
        with pytest.raises(FlotillaError) as caught:
            await call
        assert caught.value.code == code, caught.value
        assert caught.value.reason == f"ERROR_REASON_{reason}", caught.value
        assert caught.value.message
        assert await stored(inproc.redis_url, game) == before

    async def test_every_bad_request_is_refused_and_changes_nothing(self, inproc: InProcess) -> None:
        client, game, seats = await two_seats(inproc)
        first, second = seats
        await self.expect(
            inproc,
            game,
            client.submit(game, first, game_pb2.Action()),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_ACTION",
        )
        await self.expect(
            inproc, game, client.submit(game, first, add(10**9)), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ACTION"
        )
        await self.expect(
            inproc, game, client.submit(game, second, add(1)), grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"
        )
        await self.expect(
            inproc, game, client.submit(game, first, add(1), etag="0.0"), grpc.StatusCode.ABORTED, "STALE_GAME_VERSION"
        )
        other_client, _other_game, other_seats = await two_seats(inproc)
        await self.expect(
            inproc, game, client.submit(game, other_seats[0], add(1)), grpc.StatusCode.PERMISSION_DENIED, "NOT_SEATED"
        )
        await self.expect(
            inproc,
            game,
            client.submit(game, type(first)(game, 0, ""), add(1)),
            grpc.StatusCode.UNAUTHENTICATED,
            "UNAUTHENTICATED",
        )
        await self.expect(
            inproc,
            game,
            client.submit(game, type(first)(game, 0, first.token[:-4] + "AAAA"), add(1)),
            grpc.StatusCode.UNAUTHENTICATED,
            "UNAUTHENTICATED",
        )
        await self.expect(
            inproc, game, client.submit("games/nope", first, add(1)), grpc.StatusCode.PERMISSION_DENIED, "NOT_SEATED"
        )
        await self.expect(
            inproc, game, client.get_game("games/" + uuid.uuid4().hex), grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"
        )
        await self.expect(
            inproc, game, client.get_game("not-a-name"), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST"
        )
        await self.expect(
            inproc, game, client.create_game("chess", 2), grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME_KIND"
        )
        await self.expect(
            inproc, game, client.create_game("counter", 3), grpc.StatusCode.INVALID_ARGUMENT, "INVALID_CONFIG"
        )
        await self.expect(
            inproc,
            game,
            client.create_game("counter", 2, {"colour": "red"}),
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_CONFIG",
        )
        # The server still serves: the right move works.
        reply = await client.submit(game, first, add(3))
        assert reply.through_event_id == 2
        assert reply.events[0].counter.added.total == 3
        await client.close()
        await other_client.close()

    async def test_a_session_token_of_a_seated_user_may_not_act_and_a_stranger_may_not(self, inproc: InProcess) -> None:
        """Acting needs the seat token (docs/security.md); the seated user's session only reads."""
        client, game, seats = await two_seats(inproc)
        as_session = type(seats[0])(game, 0, client.session_token)
        acting = client.submit(game, as_session, add(1))
        await self.expect(inproc, game, acting, grpc.StatusCode.PERMISSION_DENIED, "SEAT_TOKEN_REQUIRED")
        view = await client.view(game, as_session)
        assert view.HasField("prompt")  # the session still reads its seat's view, prompt included
        assert (await client.submit(game, seats[0], add(1))).through_event_id == 2
        stranger = FlotillaClient(inproc.gateways[1])
        await stranger.sign_in("stranger")
        with pytest.raises(FlotillaError) as caught:
            await stranger.submit(game, type(seats[0])(game, 1, stranger.session_token), add(1))
        assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
        await client.close()
        await stranger.close()


async def test_a_resent_request_id_is_applied_once(inproc: InProcess) -> None:
    client, game, seats = await two_seats(inproc)
    first = await client.submit(game, seats[0], add(5), request_id="same-request")
    again = await client.submit(game, seats[0], add(5), request_id="same-request")
    other_gateway = FlotillaClient(inproc.gateways[1])
    third = await other_gateway.submit(game, seats[0], add(5), request_id="same-request")
    assert first.etag == again.etag == third.etag
    assert first.through_event_id == 2
    view = await client.view(game)
    assert view.view.counter.total == 5
    assert view.view.counter.count == 1
    await client.close()
    await other_gateway.close()


async def test_a_client_that_reconnects_to_another_gateway_gets_every_missed_event_once(inproc: InProcess) -> None:
    client, game, seats = await two_seats(inproc)
    watcher = FlotillaClient(inproc.gateways[0])
    received: list[int] = []
    async for update in watcher.watch(game):
        assert update.HasField("view")
        cursor = update.through_event_id
        break
    for i in range(6):  # moves while the watcher is away
        await client.submit(game, seats[i % 2], add(i))
    await watcher.close()
    elsewhere = FlotillaClient(inproc.gateways[1])
    async for update in elsewhere.watch(game, after_event_id=cursor):
        received.extend(e.event_id for e in update.events)
        if len(received) >= 6:
            break
    assert received == list(range(cursor + 1, cursor + 7))
    await elsewhere.close()
    await client.close()


async def test_play_stream_carries_actions_outcomes_and_updates(inproc: InProcess) -> None:
    client, _game, seats = await two_seats(inproc)
    stream = client.play(seats[0])
    outcomes = []
    async for response in stream:
        if response.HasField("outcome"):
            outcomes.append(response.outcome)
            break
        if response.update.HasField("prompt"):
            stream.send(game_pb2.Action(), request_id="bad")  # malformed: an outcome with an error, stream lives
            stream.send(add(2), request_id="good")
    assert [o.request_id for o in outcomes] == ["bad"]
    assert outcomes[0].status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    # An accepted action is answered by the update carrying its events, and by nothing else.
    async for response in stream:
        assert not response.HasField("outcome"), response
        if response.update.events:
            answer = response.update
            break
    assert list(answer.answered_request_ids) == ["good"]
    assert answer.through_event_id == 2
    assert answer.etag.startswith("2.")
    # The same request id again: applied once already, so an ActionOutcome from that attempt.
    stream.send(add(2), request_id="good")
    async for response in stream:
        if response.HasField("outcome"):
            again = response.outcome
            break
    assert (again.request_id, again.status.code, again.etag) == ("good", 0, answer.etag)
    stream.close()
    stream.call.cancel()
    await client.close()


async def test_an_update_names_only_the_requests_of_its_own_seat(inproc: InProcess) -> None:
    client, _game, seats = await two_seats(inproc)
    mover, other = client.play(seats[0]), client.play(seats[1])
    async for response in mover:
        if response.update.HasField("prompt"):
            mover.send(add(1), request_id="mine")
            break
    async for response in other:  # the other seat sees the move, but not whose request it was
        if response.update.events:
            assert not response.update.answered_request_ids
            break
    async for response in mover:
        if response.update.events:
            assert list(response.update.answered_request_ids) == ["mine"]
            break
    for stream in (mover, other):
        stream.close()
        stream.call.cancel()
    await client.close()


async def test_health_and_reflection_are_served(inproc: InProcess) -> None:
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

    async with grpc.aio.insecure_channel(inproc.gateways[0]) as channel:
        health = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""))
        assert health.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)

        async def one() -> reflection_pb2.ServerReflectionRequest:  # type: ignore[misc]
            yield reflection_pb2.ServerReflectionRequest(list_services="")

        async for reply in stub.ServerReflectionInfo(one()):
            names = {s.name for s in reply.list_services_response.service}
            assert "flotilla.api.game.v1.GameService" in names
            break


async def test_list_games_pages_newest_first(inproc: InProcess) -> None:
    client = FlotillaClient(inproc.gateways[0])
    await client.sign_in("lister")
    made = [(await client.create_game("counter", 2)).name for _ in range(5)]
    seen: list[str] = []
    token = ""
    for _ in range(50):
        page = await client.list_games("counter", page_size=2, page_token=token)
        seen.extend(g.name for g in page.games)
        token = page.next_page_token
        if not token:
            break
    assert [g for g in seen if g in made] == list(reversed(made))
    await client.close()


async def test_unreachable_redis_is_unavailable_and_the_gateway_keeps_serving() -> None:
    from flotilla.gateway.server import start_gateway
    from flotilla.redis_server import free_port
    from flotilla.settings import Settings

    settings = Settings(
        redis_url=f"redis://127.0.0.1:{free_port()}/0", secret="test-secret-" + "t" * 32, bind="127.0.0.1:0"
    )
    gateway = await start_gateway(settings)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
            stub = game_service_pb2_grpc.AuthServiceStub(channel)
            for _ in range(2):
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="x"), timeout=20)
                assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        await asyncio.wait_for(gateway.stop(0), 30)


async def test_games_one_after_another_on_one_gateway_keep_it_healthy(inproc: InProcess) -> None:
    """Regression: closing a game's live feed must not hand a connection still reading back to the pool."""
    client = FlotillaClient(inproc.gateways[0])
    other = FlotillaClient(inproc.gateways[0])
    await client.sign_in("a")
    await other.sign_in("b")
    for _ in range(3):
        game = await client.create_game("counter", 2, {"moves": "4"})
        seats = [await client.join(game.name), await other.join(game.name)]

        async def play(player: FlotillaClient, seat: Seat) -> None:
            stream = player.play(seat)
            async for response in stream:
                if response.HasField("update") and response.update.HasField("prompt"):
                    prompt = response.update.prompt
                    stream.send(prompt.legal_actions[0], etag=prompt.etag)

        await asyncio.wait_for(asyncio.gather(play(client, seats[0]), play(other, seats[1])), 30)
    await client.close()
    await other.close()


async def test_bad_clocks_and_leaving_without_a_seat_are_refused(inproc: InProcess) -> None:
    client = FlotillaClient(inproc.gateways[0])
    await client.sign_in("clock-tester")
    auth = client._auth(client.session_token)
    for clock in (
        game_pb2.Clock(turn_seconds=-1),
        game_pb2.Clock(turn_seconds=10, bank_seconds=60),
        game_pb2.Clock(max_timeouts=1000),
        game_pb2.Clock(absence_policy=99),  # type: ignore[arg-type]
    ):
        request = game_service_pb2.CreateGameRequest(kind="counter", seat_count=2, clock=clock)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await client.games.CreateGame(request, metadata=auth)
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    game = await client.create_game("counter", 2)
    leave = game_service_pb2.LeaveGameRequest(game=game.name, request_id="x")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await client.games.LeaveGame(leave, metadata=auth)  # signed in, but holds no seat
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await client.games.LeaveGame(leave)  # no token at all
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert (await client.get_game(game.name)).last_event_id == 1  # nothing changed
    await client.close()


def _strings(value: object) -> set[str]:
    """Every string in a view as protobuf JSON (ids of cards and ships among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def _bare(view: game_pb2.GameView) -> game_pb2.GameView:
    """A view without its etag (a live view's names the commit's lineage; GetViewAt's a bare version)."""
    out = game_pb2.GameView()
    out.CopyFrom(view)
    out.etag = ""
    return out


SHORT = {"max_rounds": "3"}  # a Sail Away game of about 30 actions


class TestViewAt:
    """GetViewAt: a finished game's view at an earlier event, as the caller could have seen it then."""

    async def test_views_at_past_events_are_what_each_viewer_saw_live_and_hide_what_it_could_not_see(
        self, inproc: InProcess
    ) -> None:
        players = [FlotillaClient(inproc.gateways[0]), FlotillaClient(inproc.gateways[1])]
        for i, player in enumerate(players):
            await player.sign_in(f"replayer{i}")
        spectator = FlotillaClient(inproc.gateways[1])  # no token: the spectator view
        game = (await players[0].create_game("sail_away", 2, SHORT)).name  # ~30 actions
        seats = [await p.join(game) for p in players]
        rng = random.Random(3)
        live: dict[int, list[game_pb2.GameView]] = {}  # event id -> views of seat 0, seat 1, a spectator
        for _ in range(8):  # a few moves by hand, reading every viewer's view after each
            replies = [await p.view(game, s) for p, s in zip(players, seats, strict=True)]
            views = [r.view for r in replies] + [(await spectator.view(game)).view]
            live[views[0].through_event_id] = views
            mover = next(i for i, r in enumerate(replies) if r.HasField("prompt"))
            prompt = replies[mover].prompt
            await players[mover].submit(game, seats[mover], rng.choice(prompt.legal_actions), etag=prompt.etag)
        with pytest.raises(FlotillaError) as caught:
            await players[0].view_at(game, 1)
        assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
        assert caught.value.reason == "ERROR_REASON_GAME_NOT_FINISHED"
        bots = [play_random(p, s, random.Random(i)) for i, (p, s) in enumerate(zip(players, seats, strict=True))]
        await asyncio.wait_for(asyncio.gather(*bots), 60)
        final = await players[0].get_game(game)
        assert final.state == game_pb2.GAME_STATE_FINISHED
        live[final.last_event_id] = [(await p.view(game, s)).view for p, s in zip(players, seats, strict=True)]
        live[final.last_event_id].append((await spectator.view(game)).view)

        for event_id, (mine, theirs, public) in live.items():
            for viewer, want in ((players[0], mine), (players[1], theirs), (spectator, public)):
                got = await viewer.view_at(game, event_id)  # a seated user's session token reads its seat
                assert _bare(got) == _bare(want), f"GetViewAt({event_id}) is not the view seen live"
                assert got.etag == str(want.through_event_id)
            assert _bare(await players[0].view_at(game, event_id, seats[1])) == _bare(theirs)  # the seat token's seat

        record = await players[0].record(game)
        rules = host_for("sail_away", final.rules_version).rules
        config = host_for("sail_away", final.rules_version).config(2, SHORT)
        converter = GameConverter(rules)
        moves = [(RulesSeat(a.seat), converter.action_from_pb(a.action.sail_away)) for a in record.actions]
        hidden_seen = 0
        for count in range(0, len(moves) + 1, 4):
            through = record.actions[count - 1].through_event_id if count else 1
            state = replay(rules, config, int(record.seed, 16), moves[:count])
            secret = [_strings(MessageToDict(converter.view_to_pb(rules.view(state, RulesSeat(s))))) for s in (0, 1)]
            public = _strings(MessageToDict(converter.view_to_pb(rules.view(state, None))))
            got_public = await spectator.view_at(game, through)
            assert got_public.through_event_id == through
            assert got_public.sail_away == converter.view_to_pb(rules.view(state, None))
            assert not got_public.HasField("viewer_seat")
            got_seat_1 = await players[1].view_at(game, through)
            assert got_seat_1.sail_away == converter.view_to_pb(rules.view(state, RulesSeat(1)))
            only_seat_0 = secret[0] - secret[1] - public
            hidden_seen += len(only_seat_0)
            assert not only_seat_0 & _strings(MessageToDict(got_public)), "the spectator got a hidden id"
            assert not only_seat_0 & _strings(MessageToDict(got_seat_1)), "seat 1 got seat 0's hidden id"
        assert hidden_seen, "the game hid nothing at the points checked: the test proves nothing"

        inside = next(
            (before, after)
            for before, after in itertools.pairwise(record.actions)
            if after.through_event_id - before.through_event_id > 1
        )  # an action that made several events: an id inside them shows the game before it
        got = await spectator.view_at(game, inside[1].through_event_id - 1)
        assert got.through_event_id == inside[0].through_event_id
        for player in (*players, spectator):
            await player.close()

    async def test_bad_event_ids_and_unknown_games_are_refused(self, inproc: InProcess) -> None:
        client = FlotillaClient(inproc.gateways[0])
        await client.sign_in("viewer")
        game = await client.create_game("counter", 2, {"moves": "1"})
        other = FlotillaClient(inproc.gateways[0])
        await other.sign_in("other")
        seats = [await client.join(game.name), await other.join(game.name)]
        await client.submit(game.name, seats[0], add(1))
        assert (await client.get_game(game.name)).state == game_pb2.GAME_STATE_FINISHED
        for event_id in (0, -1, 4, 2**62):
            with pytest.raises(FlotillaError) as caught:
                await client.view_at(game.name, event_id)
            assert (caught.value.code, caught.value.reason) == (
                grpc.StatusCode.INVALID_ARGUMENT,
                "ERROR_REASON_INVALID_REQUEST",
            )
            assert "event_id" in caught.value.message
        for name, code, reason in (
            ("games/" + uuid.uuid4().hex, grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
            ("not-a-name", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REQUEST"),
        ):
            with pytest.raises(FlotillaError) as caught:
                await client.view_at(name, 1)
            assert (caught.value.code, caught.value.reason) == (code, f"ERROR_REASON_{reason}")
        views = [await client.view_at(game.name, e) for e in (1, 2, 3)]
        # Event 2 (Added) is inside the one action's events (2 and 3, GameFinished): the game before it.
        assert [(v.through_event_id, v.counter.total) for v in views] == [(1, 0), (1, 0), (3, 1)]
        await client.close()
        await other.close()
