"""Nothing a seat may not know reaches it: face-down deck/pile contents, other seats' chests."""

from __future__ import annotations

import random
from typing import Any

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.games.pirates_of_nassau.describe import DESCRIBER
from flotilla.games.pirates_of_nassau.events import PesoExchanged, PesosBuried, ResourcesSold
from flotilla.games.pirates_of_nassau.state import Burying, State
from flotilla.rules import Seat
from flotilla.rules.testing import codec_for, game_seed, text_words


def strings(plain: Any) -> set[str]:
    if isinstance(plain, str):
        return {plain}
    if isinstance(plain, list):
        return set().union(*(strings(x) for x in plain)) if plain else set()
    if isinstance(plain, dict):
        return set().union(*(strings(x) for x in plain.values())) if plain else set()
    return set()


def hidden_ids(state: State) -> set[str]:
    out = set(state.navy.phase1) | set(state.navy.phase2)
    for deck in state.decks:
        out |= set(deck.hidden)
    for pile in state.piles:
        out |= set(pile.hidden)
    return out


def test_views_and_events_never_carry_hidden_ids_or_other_chests() -> None:
    codec = codec_for(RULES)
    for g in range(12):
        seats = 2 + g % 4
        state = RULES.new_game(Config(seats=seats), game_seed(1000 + g))
        driver = random.Random(g)
        while RULES.to_act(state):
            seat = next(iter(RULES.to_act(state)))
            legal = RULES.legal_actions(state, seat)
            # prefer burying and buying so that secret events happen often
            preferred = [a for a in legal if type(a).__name__ in ("Bury", "SellResources", "ExchangePeso")]
            action = driver.choice(preferred if preferred and driver.random() < 0.5 else legal)
            burying = isinstance(state.phase, Burying)
            state, events = RULES.apply(state, seat, action)
            secret = hidden_ids(state)
            finished = RULES.result(state) is not None
            for viewer in (None, *(Seat(i) for i in range(seats))):
                shown = RULES.view(state, viewer)
                assert not strings(codec.to_plain(shown)) & secret
                if not finished:
                    assert all(sv.chest is None for sv in shown.seats if sv.seat != viewer)
                for event in events:
                    out = RULES.redact(event, viewer)
                    if out is None:
                        continue
                    assert not strings(codec.to_plain(out)) & secret
                    assert not text_words(DESCRIBER.describe(out)) & secret
                    if isinstance(out, PesosBuried | ResourcesSold) or (isinstance(out, PesoExchanged) and out.secret):
                        assert viewer == out.seat
                        assert burying
