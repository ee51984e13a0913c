"""Playouts biased towards buying, fighting and burying, so that tokens and crew get used a lot.

Uniform random play mostly passes in Nassau; this driver buys whenever it can, so every token
ability, replacement, section purchase and burial shows up, and every invariant is checked.
"""

from __future__ import annotations

import random
from collections import Counter

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.games.pirates_of_nassau.actions import (
    BuySection,
    BuyToken,
    DiscardItem,
    ExchangePeso,
    FinishBurying,
    Pass,
)
from flotilla.games.pirates_of_nassau.state import Burying, Buying
from flotilla.games.pirates_of_nassau.tables import Resource
from flotilla.rules.testing import game_seed


def pick(state: object, legal: tuple[object, ...], driver: random.Random) -> object:
    if isinstance(state.phase, Buying):  # type: ignore[attr-defined]
        buys = [a for a in legal if isinstance(a, BuyToken | BuySection)]
        sections = [a for a in buys if isinstance(a, BuySection)]
        if sections:
            return driver.choice(sections)
        player = state.players[state.phase.order[state.phase.index]]  # type: ignore[attr-defined]
        missing = [r for r in Resource if player.hold.res(r) < 2]
        if player.sections < 2 and missing and ExchangePeso(missing[0]) in legal and driver.random() < 0.8:
            return ExchangePeso(missing[0])
        if buys:
            return driver.choice(buys)
    if isinstance(state.phase, Burying) and driver.random() < 0.3:  # type: ignore[attr-defined]
        return FinishBurying()
    good = [a for a in legal if not isinstance(a, Pass | DiscardItem | FinishBurying)]
    return driver.choice(good if good and driver.random() < 0.9 else legal)


def test_biased_playouts_keep_every_invariant() -> None:
    seen: Counter[str] = Counter()
    for g in range(40):
        seats = 2 + g % 4
        state = RULES.new_game(Config(seats=seats), game_seed(7000 + g))
        driver = random.Random(g)
        steps = 0
        while RULES.to_act(state):
            seat = next(iter(RULES.to_act(state)))
            legal = RULES.legal_actions(state, seat)
            assert RULES.default_action(state, seat) in legal
            state, events = RULES.apply(state, seat, pick(state, legal, driver))
            RULES.check_invariants(state)
            seen.update(type(e).__name__ for e in events)
            steps += 1
            assert steps < RULES.max_steps
        assert RULES.result(state) is not None
        assert state.round in (4, 5, 6)  # the END card lies in the first pass of phase 2 cards
    for kind in ("TokenBought", "SectionBought", "PesosBuried", "LootTaken", "PortRaided", "Smuggled"):
        assert seen[kind] > 0, kind
