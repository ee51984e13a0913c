"""The proto mirrors the dataclasses: actions round-trip, events and views encode (docs/wire.md)."""

from __future__ import annotations

import random

from flotilla.convert import GameConverter
from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.rules import Seat
from flotilla.rules.testing import game_seed


def test_random_games_round_trip_through_the_converter() -> None:
    conv = GameConverter(RULES)
    for g in range(20):
        seats = 2 + g % 4
        state = RULES.new_game(Config(seats=seats), game_seed(g))
        driver = random.Random(g)
        step = 0
        while True:
            if step % 7 == 0 or not RULES.to_act(state):
                for viewer in (None, *(Seat(i) for i in range(seats))):
                    conv.view_to_pb(RULES.view(state, viewer))
            acting = RULES.to_act(state)
            if not acting:
                break
            seat = next(iter(acting))
            legal = RULES.legal_actions(state, seat)
            for action in legal:
                assert conv.action_from_pb(conv.action_to_pb(action)) == action
            state, events = RULES.apply(state, seat, driver.choice(legal))
            for event in events:
                for viewer in (None, seat):
                    shown = RULES.redact(event, viewer)
                    if shown is not None:
                        conv.event_to_pb(shown)
            step += 1
