"""Whole games: no view or redacted event delivered to a seat names a card that seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from flotilla.games.sail_away import RULES, Config
from flotilla.games.sail_away.describe import DESCRIBER
from flotilla.games.sail_away.state import Phase, State
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for, game_seed, text_words


def _strings(plain: Any, out: set[str]) -> set[str]:
    if isinstance(plain, str):
        out.add(plain)
    elif isinstance(plain, list):
        for x in plain:
            _strings(x, out)
    elif isinstance(plain, dict):
        for k, x in plain.items():
            out.add(k)
            _strings(x, out)
    return out


def hidden_from(s: State, seat: int) -> set[str]:
    """Card and token ids `seat` may not see in `s` (§7)."""
    me = s.players[seat]
    hidden = set(s.ship_deck) - set(me.returned) - set(me.dealt)
    hidden |= set(s.objective_box) | set(s.pirate_box)
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        if s.phase is not Phase.FINISHED:
            hidden.add(p.objective)
        if s.phase is Phase.CHOOSE_SHIPS:
            hidden |= set(p.dealt)
        hidden |= set(p.returned) & set(s.ship_deck)
    return hidden


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_nothing_hidden_reaches_a_seat(seats: int) -> None:
    codec = codec_for(RULES)
    for seed in range(6):
        driver = random.Random(seed)
        state = RULES.new_game(Config(seats=seats), game_seed(1000 + seed))
        step = 0
        while acting := RULES.to_act(state):
            seat = driver.choice(sorted(acting))
            state, events = RULES.apply(state, seat, driver.choice(RULES.legal_actions(state, seat)))
            for viewer in range(seats):
                secret = hidden_from(state, viewer)
                for event in events:
                    shown = RULES.redact(event, Seat(viewer))
                    if shown is not None:
                        leaked = _strings(codec.to_plain(shown), set()) & secret
                        assert not leaked, f"{type(event).__name__} shows seat {viewer} {leaked}"
                        leaked = text_words(DESCRIBER.describe(shown)) & secret
                        assert not leaked, f"the text of {type(event).__name__} shows seat {viewer} {leaked}"
                if step % 5 == 0 or not RULES.to_act(state):
                    leaked = _strings(codec.to_plain(RULES.view(state, Seat(viewer))), set()) & secret
                    assert not leaked, f"the view of seat {viewer} at step {step} shows {leaked}"
            spectator = _strings(codec.to_plain(RULES.view(state, None)), set())
            secrets = set(state.ship_deck) | set(state.objective_box) | set(state.pirate_box)
            if state.phase is not Phase.FINISHED:
                secrets |= {p.objective for p in state.players}
            assert not spectator & secrets
            step += 1
