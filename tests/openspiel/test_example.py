"""examples/openspiel_ismcts.py: OpenSpiel's ISMCTS bot plays a seat of a real game over gRPC
(an in-process gateway and worker on a real Redis: no new processes)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pyspiel")

from flotilla.gateway.server import start_gateway
from flotilla.settings import Settings
from flotilla.store.redis_store import RedisStore
from flotilla.worker.loop import Worker

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.asynccontextmanager
async def server(redis_url: str) -> AsyncIterator[str]:
    """An in-process gateway and worker; the gateway's address."""
    settings = Settings(redis_url=redis_url, bind="127.0.0.1:0")
    running = await start_gateway(settings)
    store = RedisStore.from_settings(settings)
    worker = Worker.from_settings(store, settings)
    working = asyncio.create_task(worker.run())
    try:
        yield f"127.0.0.1:{running.port}"
    finally:
        worker.stop()
        await asyncio.wait_for(working, 10)
        await store.close()
        await running.stop(0)


async def run(redis_url: str, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run the example's main; (decisions of the ISMCTS seat, final game state)."""
    async with server(redis_url) as target:
        await example().main(target, *args)
    out = capsys.readouterr().out
    found = re.search(r"openspiel seat made (\d+) decisions; (\w+)", out)
    assert found, out[-2000:]
    return int(found.group(1)), found.group(2)


async def test_an_ismcts_seat_plays_a_counter_game_to_the_end(
    redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every decision of the OpenSpiel seat was one of its prompt's legal actions (`play_seat`
    raises otherwise) and the game finished: 12 moves, 6 of them the ISMCTS seat's."""
    assert await run(redis_url, capsys, "counter", "8", "moves=12") == (6, "GAME_STATE_FINISHED")


async def test_an_ismcts_seat_plays_a_one_round_sail_away_game_to_the_end(
    redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real game with hidden information and a simultaneous first decision: each world the seat
    searches is rebuilt from its view (`from_view`) at every prompt."""
    decisions, state = await run(redis_url, capsys, "sail_away", "4", "max_rounds=1")
    assert state == "GAME_STATE_FINISHED"
    assert decisions > 0
