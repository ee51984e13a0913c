"""No view or event delivered to a seat names a face-down card (spec §7)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from flotilla.games.port_royal import RULES, Config, Mode
from flotilla.games.port_royal.cards import CARDS
from flotilla.games.port_royal.describe import DESCRIBER
from flotilla.games.port_royal.events import CoinsPaid, DrawPileReshuffled
from flotilla.games.port_royal.state import State
from flotilla.rules import Seat
from flotilla.rules.testing import text_words


def _ids(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every card id inside a dataclass value (fields named in `skip` are left out)."""
    out: set[str] = set()
    if isinstance(value, str):
        if value in CARDS:
            out.add(value)
    elif isinstance(value, (tuple, list, frozenset)):
        for item in value:
            out |= _ids(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name not in skip:
                out |= _ids(getattr(value, f.name))
    return out


def _hidden(s: State) -> set[str]:
    cards = {*s.draw_pile, *s.time_pile, *s.victory_pile}
    for p in s.players:
        cards.update(p.coins)
    return cards


@pytest.mark.parametrize("mode", list(Mode))
def test_no_view_or_event_names_a_face_down_card(mode: Mode) -> None:
    for seed in range(4):
        seats = 2 + seed
        state = RULES.new_game(Config(seats=seats, mode=mode), 1000 + seed)
        driver = random.Random(seed)
        while RULES.result(state) is None:
            (actor,) = RULES.to_act(state)
            before = _hidden(state)
            state, events = RULES.apply(state, actor, driver.choice(RULES.legal_actions(state, actor)))
            after = _hidden(state)
            reshuffled = any(isinstance(e, DrawPileReshuffled) for e in events)
            for viewer in [None, *(Seat(i) for i in range(seats))]:
                seen = _ids(RULES.view(state, viewer), skip=frozenset({"reshuffled"}))
                assert not seen & after, f"view of {viewer} shows face-down cards {seen & after}"
                for event in events:
                    shown = RULES.redact(event, viewer)
                    if shown is None:
                        continue
                    if isinstance(shown, CoinsPaid) and shown.to_seat is not None:
                        assert shown.cards == ()
                    leaked = (_ids(shown) | text_words(DESCRIBER.describe(shown))) & before & after
                    if reshuffled:
                        leaked -= set(state.reshuffled)
                    assert not leaked, f"{event} shows face-down cards {leaked} to {viewer}"


def test_coin_faces_are_not_in_the_view_even_for_the_owner() -> None:
    state = RULES.new_game(Config(seats=3), 5)
    for seat in range(3):
        view = RULES.view(state, Seat(seat))
        assert view.players[seat].coin_count == 3
        assert not _ids(view) & set(state.players[seat].coins)
