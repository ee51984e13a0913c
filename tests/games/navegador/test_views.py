"""Views and hidden information: the game is public (spec 7), but the RNG never reaches a client."""

from __future__ import annotations

import dataclasses
import random

from nav_builders import A, B, a_player, a_state

from flotilla.games.navegador import RULES
from flotilla.games.navegador.config import Config
from flotilla.games.navegador.state import Displaced, Sailing
from flotilla.games.navegador.tables import Colour, Space
from flotilla.games.navegador.views import HoldingView, RegionView, Step
from flotilla.rules import Rng, Seat
from flotilla.rules.testing import codec_for, game_seed


def _mentions(plain: object, needle: int) -> bool:
    if isinstance(plain, list):
        return any(_mentions(x, needle) for x in plain)
    if isinstance(plain, dict):
        return str(needle) in plain or any(_mentions(x, needle) for x in plain.values())
    return plain == needle or plain == str(needle)


def test_whole_games_show_every_seat_the_same_public_state_and_never_the_rng() -> None:
    codec = codec_for(RULES)
    for label in range(6):
        seats = 2 + label % 4
        seed = game_seed(1000 + label)
        state = RULES.new_game(Config(seats=seats, random_colours=True), seed)
        driver = random.Random(label)
        viewers: list[Seat | None] = [None, *(Seat(i) for i in range(seats))]
        step = 0
        while acting := RULES.to_act(state):
            seat = driver.choice(sorted(acting))
            state, events = RULES.apply(state, seat, driver.choice(RULES.legal_actions(state, seat)))
            for event in events:
                assert all(RULES.redact(event, v) == event for v in viewers)
                assert not _mentions(codec.to_plain(event), seed)
            if step % 40 == 0:
                spectator = RULES.view(state, None)
                for viewer in viewers:
                    shown = RULES.view(state, viewer)
                    assert shown.viewer == viewer
                    assert dataclasses.replace(shown, viewer=None) == spectator
                    assert not _mentions(codec.to_plain(shown), seed)
            step += 1
        final = RULES.view(state, None)
        assert final.step is Step.FINISHED
        result = RULES.result(state)
        assert result is not None
        assert final.scores == result.scores
        assert final.winners == tuple(sorted(result.winners))


def test_determinize_changes_nothing_a_seat_can_see() -> None:
    state = RULES.new_game(Config(seats=3), game_seed(5))
    other = RULES.determinize(state, Seat(1), Rng(99))
    assert other.rng == Rng(99)
    assert RULES.view(other, Seat(1)) == RULES.view(state, Seat(1))
    assert dataclasses.replace(other, rng=state.rng) == state


def test_view_lists_holdings_regions_and_the_pending_decision() -> None:
    state = a_state(
        players={0: a_player(money=250, lisbon=2, ships={"SR0": 1, "SR1": 2}, knights=2, rondel=Space.SAILING)},
        buildings={"B4": (0, 1)},
        colonies={"C02": (0, 2)},
        tiles={"SR1": 0},
        knight_step=1,
        phase=Sailing(active=A, moved=(0, 2) + (0,) * 11, explored=True),
    )
    shown = RULES.view(state, B)
    me = shown.players[A]
    assert (me.seat, me.colour, me.money, me.lisbon, me.knights) == (A, Colour.RED, 250, 2, 2)
    assert (me.buildings, me.colonies, me.tiles, me.bonus_sum) == (("B4",), ("C02",), ("SR1",), 50)
    assert me.base_points == 5 + 4 + 3 + 2 + 3 + 2
    assert shown.buildings[3] == HoldingView(place="B4", owner=A, workers=1)
    assert shown.colonies[1] == HoldingView(place="C02", owner=A, workers=2)
    assert shown.regions[1] == RegionView(region="SR1", explored=True, bonus=50, tile_owner=A)
    assert shown.regions[12] == RegionView(region="SR12", explored=False, bonus=200, tile_owner=None)
    assert (shown.step, shown.active, shown.to_act) == (Step.SAILING, A, (A,))
    assert (shown.sailing_moved[1], shown.explored_this_action) == (2, True)
    assert (shown.knight_phase, shown.knight_price, shown.knights_sold) == (1, 40, 1)
    assert (shown.scores, shown.winners) == ((), ())


def test_view_names_the_displaced_group_and_its_decider() -> None:
    state = a_state(phase=Displaced(active=A, seat=B, workers=2, origin="B7", on_colony=False))
    shown = RULES.view(state, None)
    assert (shown.step, shown.active, shown.to_act) == (Step.DISPLACED, A, (B,))
    assert (shown.displaced_seat, shown.displaced_workers, shown.displaced_from) == (B, 2, "B7")
