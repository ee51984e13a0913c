"""The proto mirrors the dataclasses: every legal action round-trips, every event and view encodes."""

from __future__ import annotations

import random

from flotilla.convert import GameConverter
from flotilla.games.sail_away import RULES, Config
from flotilla.rules import Seat
from flotilla.rules.testing import game_seed


def test_random_games_round_trip_through_the_converter() -> None:
    conv = GameConverter(RULES)
    seen_actions: set[str] = set()
    seen_events: set[str] = set()
    for seed in range(20):
        driver = random.Random(seed)
        seats = 2 + seed % 3
        state = RULES.new_game(Config(seats=seats), game_seed(seed))
        viewers: list[Seat | None] = [None, *(Seat(i) for i in range(seats))]
        step = 0
        while acting := RULES.to_act(state):
            seat = driver.choice(sorted(acting))
            legal = RULES.legal_actions(state, seat)
            for action in legal:
                assert conv.action_from_pb(conv.action_to_pb(action)) == action
                seen_actions.add(type(action).__name__)
            state, events = RULES.apply(state, seat, driver.choice(legal))
            for event in events:
                for viewer in viewers:
                    shown = RULES.redact(event, viewer)
                    if shown is not None:
                        conv.event_to_pb(shown)
                seen_events.add(type(event).__name__)
            if step % 10 == 0:
                for viewer in viewers:
                    conv.view_to_pb(RULES.view(state, viewer))
            step += 1
        for viewer in viewers:
            conv.view_to_pb(RULES.view(state, viewer))
    assert len(seen_actions) >= 18
    assert len(seen_events) >= 25
