"""The SDK's deal check (flotilla_client.deal_check) against real gateways and workers (in the test
process: tests/inproc.py): for a game of every kind, the opening view a seat received, the record's
revealed seed and the catalogue of the game's rules version agree; an opening view that differs
from the seed's deal is caught."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.gateway.catalog_servicer import catalog as served_catalog
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, VerificationFailed, check_deal, deal_check
from inproc import InProcess
from support import until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

GAMES = [
    ("port_royal", 2, {"mode": "contract_coop", "difficulty": "2"}),
    ("sail_away", 3, {}),
    ("pirates_of_nassau", 2, {}),
    ("navegador", 2, {"random_colours": "true"}),
]


VECTORS = json.loads((Path(__file__).resolve().parents[1] / "data" / "fairness_vectors.json").read_text())["games"]


@pytest.mark.parametrize("kind", sorted(VECTORS))
def test_the_catalogues_setup_tables_are_the_vectors_tables(kind: str) -> None:
    """The tables `fairness.deal` takes, rebuilt from GetCatalog's answer, are the vectors file's."""
    catalog = served_catalog(kind, VECTORS[kind]["rules_version"])
    assert deal_check.setup_tables(catalog) == VECTORS[kind]["tables"]


async def _stored_seed(redis_url: str, game: str) -> str:
    """The seed the store holds: Navegador played by timeout defaults never ends (nobody buys a
    knight), so its record is made from the game and this seed instead of GetGameRecord."""
    from flotilla.app.host import host_for

    store = RedisStore.from_url(redis_url)
    try:
        row = await store.load(game.removeprefix("games/"))
        assert row is not None
        meta, raw = row
        return f"{host_for(meta.kind, meta.rules_version).loads(raw).rng.seed:032x}"
    finally:
        await store.close()


def _tampered(view: game_pb2.GameView) -> game_pb2.GameView:
    """The view with one dealt thing changed: another start player, or the navy display reversed."""
    out = game_pb2.GameView()
    out.CopyFrom(view)
    game = getattr(out, out.WhichOneof("view") or "")
    if out.HasField("pirates_of_nassau"):
        game.navy_display.reverse()
    else:
        game.start_player = 1 - game.start_player if game.start_player < 2 else 0
    return out


@pytest.mark.parametrize(("kind", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_the_opening_deal_is_the_seeds_by_the_catalogue(
    inproc: InProcess, kind: str, seats: int, options: dict[str, str]
) -> None:
    clients = [FlotillaClient(inproc.gateways[i % len(inproc.gateways)]) for i in range(seats)]
    try:
        for i, client in enumerate(clients):
            await client.sign_in(f"deal-{i}-{uuid.uuid4().hex[:8]}")
        game = await clients[0].create_game(kind, seats, options)
        joined = [await client.join(game.name) for client in clients]
        first = (await clients[1].view(game.name, joined[1])).view  # a seat's view: its hidden cards too
        if kind == "navegador":
            record = g.GetGameRecordResponse(game=game, seed=await _stored_seed(inproc.redis_url, game.name))
        else:
            for client, seat in zip(clients, joined, strict=True):
                await client.leave(seat)  # the server plays absent seats: the game runs to its end

            async def over() -> bool:
                return (await clients[0].get_game(game.name)).state == game_pb2.GAME_STATE_FINISHED

            await until(over, 60, f"{kind} played to its end by the server")
            record = await clients[0].record(game.name)
        catalog = await clients[0].get_catalog(kind, record.game.rules_version)
        assert deal_check.verify(record, catalog, first) == []
        check_deal(record, catalog, first)
        problems = deal_check.verify(record, catalog, _tampered(first))
        assert len(problems) == 1, problems
        with pytest.raises(VerificationFailed, match="the view shows"):
            check_deal(record, catalog, _tampered(first))
    finally:
        for client in clients:
            await client.close()
