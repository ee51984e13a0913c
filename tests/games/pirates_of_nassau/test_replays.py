"""Golden replays: a rules change that alters outcomes fails here and needs a deliberate update."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for

REPLAYS = sorted((Path(__file__).parent / "replays").glob("*.json"))


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_replay_reaches_the_recorded_result(path: Path) -> None:
    data = json.loads(path.read_text())
    codec = codec_for(RULES)
    state = RULES.new_game(Config(**data["config"]), int(data["seed"]))
    for seat, plain in data["actions"]:
        state, _ = RULES.apply(state, Seat(seat), codec.from_plain(plain))
    result = RULES.result(state)
    assert result is not None
    assert list(result.scores) == data["scores"]
    assert sorted(result.winners) == data["winners"]
    assert state.round == data["rounds"]


def test_there_are_replays_for_every_player_count() -> None:
    assert len(REPLAYS) == 4
