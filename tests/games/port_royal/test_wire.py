"""The proto mirrors the dataclasses: random games round-trip through the generic converter."""

from __future__ import annotations

import random

import pytest

from flotilla.convert import GameConverter
from flotilla.games.port_royal import RULES, Config, Mode


@pytest.mark.parametrize("mode", list(Mode))
def test_actions_events_and_views_convert(mode: Mode) -> None:
    conv = GameConverter(RULES)
    for seed in range(5):
        seats = 2 + seed % 4
        state = RULES.new_game(Config(seats=seats, mode=mode), seed)
        driver = random.Random(seed)
        while RULES.result(state) is None:
            (seat,) = RULES.to_act(state)
            legal = RULES.legal_actions(state, seat)
            for action in legal:
                assert conv.action_from_pb(conv.action_to_pb(action)) == action
            state, events = RULES.apply(state, seat, driver.choice(legal))
            for event in events:
                conv.event_to_pb(event)
            conv.view_to_pb(RULES.view(state, seat))
        conv.view_to_pb(RULES.view(state, None))
