"""Golden replays: a config, a seed and the actions; replaying must give the recorded result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flotilla.games.navegador import RULES_V1 as RULES  # version 1: one-shot placements and fleets
from flotilla.games.navegador.config import Config
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for

REPLAYS = sorted((Path(__file__).parent / "replays").glob("*.json"))


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_replay_gives_the_recorded_result(path: Path) -> None:
    data = json.loads(path.read_text())
    codec = codec_for(RULES)
    config = Config(seats=data["seats"], random_colours=data["random_colours"])
    state = RULES.new_game(config, int(data["seed"]))
    for seat, plain in data["actions"]:
        state = RULES.apply(state, Seat(seat), codec.from_plain(plain)).state
    result = RULES.result(state)
    assert result is not None
    assert list(result.scores) == data["scores"]
    assert sorted(result.winners) == data["winners"]


def test_there_are_replays_for_every_seat_count() -> None:
    assert {json.loads(p.read_text())["seats"] for p in REPLAYS} == {2, 3, 4, 5}
