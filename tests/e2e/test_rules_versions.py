"""Older rules versions keep being served: a Navegador game created when version 1 was current is
still played by version 1 (one-shot placements) after version 2 (stepwise) became current, through
a real gateway and worker; its stored state is the replay of its log under version 1. A new game
gets version 2. Each version refuses the other's actions with a typed error."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator

import grpc
import pytest

from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.api.navegador.v1 import navegador_pb2 as nav
from flotilla.app import games as games_module
from flotilla.app.host import GameHost, host_for
from flotilla.games.navegador import RULES
from flotilla.gateway.server import Gateway, start_gateway
from flotilla.settings import Settings
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker, work_streams
from flotilla_client import FlotillaClient, FlotillaError
from flotilla_client.seat import Seat
from raw_rpc import answer_of
from support import assert_stored_state_replays

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@contextlib.asynccontextmanager
async def serving(redis_url: str) -> AsyncIterator[Gateway]:
    """An in-process gateway and a Navegador worker (no new processes: a unit-sized test)."""
    settings = Settings(redis_url=redis_url, bind="127.0.0.1:0")
    running = await start_gateway(settings)
    store = RedisStore.from_settings(settings)
    worker = Worker(store, shards=settings.shards, kinds=["navegador"], block_ms=100)
    working = asyncio.create_task(worker.run())
    try:
        yield running
    finally:
        worker.stop()
        await asyncio.wait_for(working, 10)
        await store.close()
        await running.stop(0)


def _action(**case: object) -> game_pb2.Action:
    return game_pb2.Action(navegador=nav.Action(**case))  # type: ignore[arg-type]


def _case(action: game_pb2.Action) -> str:
    return str(action.navegador.WhichOneof("kind"))


Players = dict[int, tuple[FlotillaClient, Seat]]  # by seat index


async def _to_buildings(players: Players, game: str) -> tuple[FlotillaClient, Seat, game_service_pb2.GetViewResponse]:
    """Play the setup draft and a first rondel placement on Buildings; who acts then and their view."""
    for _ in range(len(players) + 1):
        client, seat, view = await _mover(players, game)
        legal = view.prompt.legal_actions
        onto = [a for a in legal if a.navegador.place_marker.space == nav.SPACE_BUILDINGS]
        await client.submit(game, seat, onto[0] if onto else legal[0], etag=view.prompt.etag)
    return await _mover(players, game)


async def _mover(players: Players, game: str) -> tuple[FlotillaClient, Seat, game_service_pb2.GetViewResponse]:
    for client, seat in players.values():
        view = await client.view(game, seat)
        if view.prompt.legal_actions:
            return client, seat, view
    raise AssertionError("nobody is to act")


async def _refused(client: FlotillaClient, game: str, seat: Seat, action: game_pb2.Action) -> FlotillaError:
    with pytest.raises(FlotillaError) as caught:
        await client.submit(game, seat, action)
    return caught.value


async def _seated_game(target: str, tag: str, opened: list[FlotillaClient]) -> tuple[str, Players]:
    clients = [FlotillaClient(target) for _ in range(2)]
    opened.extend(clients)
    for n, client in enumerate(clients):
        await client.sign_in(f"{tag}{n}")
    game = (await clients[0].create_game("navegador", 2)).name
    players: Players = {}
    for client in clients:
        seat = await client.join(game)
        players[seat.seat] = (client, seat)
    return game, players


async def test_a_version_1_game_in_flight_is_still_served_by_version_1(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert RULES.version == "2"
    streams = work_streams(1, ["navegador"])
    assert streams == [keys.work("navegador", "2", 0), keys.work("navegador", "1", 0)]
    async with serving(redis_url) as running:
        target = f"127.0.0.1:{running.port}"

        def version_1_current(kind: str, rules_version: str | None = None) -> GameHost:
            return host_for(kind, rules_version or "1")

        opened: list[FlotillaClient] = []
        try:
            with monkeypatch.context() as patched:  # created by a server whose current version was 1
                patched.setattr(games_module, "host_for", version_1_current)
                old, old_players = await _seated_game(target, "old", opened)
            new, new_players = await _seated_game(target, "new", opened)
            assert (await opened[0].get_game(old)).rules_version == "1"
            assert (await opened[2].get_game(new)).rules_version == "2"

            client, seat, view = await _to_buildings(old_players, old)
            assert {_case(a) for a in view.prompt.legal_actions} == {"decline_building", "place_on_building"}
            refused = await _refused(client, old, seat, _action(pick_building=nav.PickBuilding(building="B1")))
            assert (refused.code, refused.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ERROR_REASON_INVALID_ACTION")
            one_shot = next(a for a in view.prompt.legal_actions if _case(a) == "place_on_building")
            await client.submit(old, seat, one_shot, etag=view.prompt.etag)  # version 1 applies it at once
            await assert_stored_state_replays(redis_url, old)

            client, seat, view = await _to_buildings(new_players, new)
            assert {_case(a) for a in view.prompt.legal_actions} == {"decline_building", "pick_building"}
            pick = next(a for a in view.prompt.legal_actions if _case(a) == "pick_building")
            building = pick.navegador.pick_building.building
            one_shot = _action(place_on_building=nav.PlaceOnBuilding(building=building, workers=1))
            refused = await _refused(client, new, seat, one_shot)
            assert (refused.code, refused.reason) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "ERROR_REASON_ILLEGAL_ACTION",
            )
            assert "pick the building first" in refused.message
            await client.submit(new, seat, pick, etag=view.prompt.etag)
            view = await client.view(new, seat)
            assert view.view.navegador.picked_place == building
            counts = [a for a in view.prompt.legal_actions if _case(a) == "place_on_building"]
            assert counts
            assert {a.navegador.place_on_building.building for a in counts} == {building}
            await client.submit(new, seat, counts[0], etag=view.prompt.etag)
            await assert_stored_state_replays(redis_url, new)
        finally:
            for opened_client in opened:
                await opened_client.close()


async def test_a_game_of_a_version_nobody_serves_is_unavailable_not_guessed(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game created by a newer server (rules 9) is refused here with RULES_VERSION_UNAVAILABLE
    (clients retry onto a server that has it); its state is left alone."""
    newer = GameHost(dataclasses.replace(RULES, version="9"))
    async with serving(redis_url) as running:
        opened: list[FlotillaClient] = []
        try:
            with monkeypatch.context() as patched:
                patched.setattr(games_module, "host_for", lambda kind, rules_version=None: newer)
                game, players = await _seated_game(f"127.0.0.1:{running.port}", "newer", opened)
            client, seat = players[0]
            before = await client.get_game(game)
            assert before.rules_version == "9"
            auth = (("authorization", f"Bearer {seat.token}"),)
            async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:  # no SDK retries
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                asks = (
                    stub.GetView(game_service_pb2.GetViewRequest(game=game), metadata=auth),
                    stub.SubmitAction(
                        game_service_pb2.SubmitActionRequest(
                            game=game, action=_action(stop_sailing=nav.StopSailing()), request_id="r1"
                        ),
                        metadata=auth,
                    ),
                )
                for ask in asks:
                    with pytest.raises(grpc.aio.AioRpcError) as caught:
                        await ask
                    answer = answer_of(caught.value)
                    answer.check_typed()
                    assert (answer.code, answer.reason) == (
                        grpc.StatusCode.UNAVAILABLE,
                        "ERROR_REASON_RULES_VERSION_UNAVAILABLE",
                    )
                    assert answer.metadata == {"kind": "navegador", "rules_version": "9"}
            assert (await client.get_game(game)).etag == before.etag  # nothing was applied
            assert (await client.get_game(game)).rules_version == "9"
        finally:
            for opened_client in opened:
                await opened_client.close()
