"""The proto mirrors the dataclasses: every legal action round-trips, every event and view encodes."""

from __future__ import annotations

import random

from flotilla.convert import GameConverter
from flotilla.games.navegador import RULES
from flotilla.games.navegador.config import Config
from flotilla.rules import Seat
from flotilla.rules.testing import game_seed


def test_random_games_round_trip_through_the_converter() -> None:
    conv = GameConverter(RULES)
    seen_actions: set[str] = set()
    seen_events: set[str] = set()
    checked: set[object] = set()
    for seed in range(20):
        driver = random.Random(seed)
        seats = 2 + seed % 4
        state = RULES.new_game(Config(seats=seats, random_colours=seed % 2 == 0), game_seed(seed))
        viewers: list[Seat | None] = [None, *(Seat(i) for i in range(seats))]
        step = 0
        while acting := RULES.to_act(state):
            seat = driver.choice(sorted(acting))
            legal = RULES.legal_actions(state, seat)
            for action in legal:
                if action not in checked:  # each distinct action once is enough (they repeat a lot)
                    assert conv.action_from_pb(conv.action_to_pb(action)) == action
                    checked.add(action)
                seen_actions.add(type(action).__name__)
            state, events = RULES.apply(state, seat, driver.choice(legal))
            for event in events:
                for viewer in viewers:
                    shown = RULES.redact(event, viewer)
                    if shown is not None:
                        conv.event_to_pb(shown)
                seen_events.add(type(event).__name__)
            if step % 50 == 0:
                for viewer in viewers:
                    conv.view_to_pb(RULES.view(state, viewer))
            step += 1
        for viewer in viewers:
            conv.view_to_pb(RULES.view(state, viewer))
    assert seen_actions == {t.__name__ for t in RULES.action_types}
    assert seen_events == {t.__name__ for t in RULES.event_types}
