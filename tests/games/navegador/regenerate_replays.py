"""Write the golden replays (run by hand after a deliberate rules change): python regenerate_replays.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

from flotilla.games.navegador import RULES_V1 as RULES  # version 1: one-shot placements and fleets
from flotilla.games.navegador.config import Config
from flotilla.rules.testing import codec_for, game_seed

OUT = Path(__file__).parent / "replays"


def play(seats: int, label: int) -> dict[str, object]:
    codec = codec_for(RULES)
    seed = game_seed(label)
    state = RULES.new_game(Config(seats=seats), seed)
    driver = random.Random(label)
    actions = []
    while acting := RULES.to_act(state):
        seat = driver.choice(sorted(acting))
        action = driver.choice(RULES.legal_actions(state, seat))
        actions.append([seat, codec.to_plain(action)])
        state = RULES.apply(state, seat, action).state
    result = RULES.result(state)
    assert result is not None
    return {
        "game": "navegador",
        "seats": seats,
        "random_colours": False,
        "seed": str(seed),
        "scores": list(result.scores),
        "winners": sorted(result.winners),
        "actions": actions,
    }


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for seats in (2, 3, 4, 5):
        # the shortest of ten random games keeps the files small
        games = [play(seats, 100 * seats + i) for i in range(10)]
        best = min(games, key=lambda g: len(g["actions"]))  # type: ignore[arg-type]
        (OUT / f"random_{seats}p.json").write_text(json.dumps(best, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
