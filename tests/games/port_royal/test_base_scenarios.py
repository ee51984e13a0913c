"""Spec §10 scenarios of the base game (PR-S1 ... PR-S5, PR-S9)."""

from __future__ import annotations

import pytest
from pr_builders import A, B, C, a_state, coins_of, next_draw, play, vp_of

from flotilla.games.port_royal import RULES
from flotilla.games.port_royal.actions import (
    DiscoverCard,
    FulfillExpedition,
    HirePerson,
    Pass,
    RepelShip,
    StopDiscovering,
    TradeShip,
)
from flotilla.games.port_royal.config import Mode
from flotilla.games.port_royal.events import CoinReason, CoinsGained, HarborBusted
from flotilla.games.port_royal.state import Discover, Finished, Repel, State, Window
from flotilla.rules import CannotAfford, IllegalAction


def test_pr_s1_bust_with_jesters() -> None:
    s = a_state(displays={0: ("SA1", "JE1"), 1: ("JE2", "JE3")}, harbor=("Y01",), keep=("B08", "Y05"))
    s, _ = play(next_draw(s, "B08"), A, DiscoverCard())
    assert s.harbor == ("Y01", "B08")
    assert s.phase == Discover()
    before = s.discard
    s, events = play(next_draw(s, "Y05"), A, DiscoverCard())
    assert HarborBusted(A, "Y05") in events
    jester = [e for e in events if isinstance(e, CoinsGained)]
    assert jester == [CoinsGained(A, 1, CoinReason.JESTER), CoinsGained(B, 2, CoinReason.JESTER)]
    assert coins_of(s) == (1, 2, 0)
    assert s.discard == (*before, "Y01", "B08", "Y05")
    assert s.harbor == ()
    assert s.active == B
    assert s.phase == Discover()
    assert s.revealed == 0


def test_pr_s2_repel_to_avoid_a_bust() -> None:
    s = a_state(displays={0: ("SA1", "JE1", "PI1"), 1: ("JE2", "JE3")}, harbor=("Y01",), keep=("B08", "Y05"))
    s, _ = play(next_draw(s, "B08"), A, DiscoverCard())
    assert s.phase == Discover()  # 5 swords needed, A has 3: no repel decision
    s, _ = play(next_draw(s, "Y05"), A, DiscoverCard())
    assert s.phase == Repel("Y05")
    s, _ = play(s, A, RepelShip())
    assert s.discard[-1] == "Y05"
    assert s.harbor == ("Y01", "B08")
    s, _ = play(s, A, StopDiscovering())
    assert s.phase == Window(A, 1)


def test_pr_s3_tax_rounding_and_fewest_vp_ties() -> None:
    s = a_state(
        seats=4,
        displays={0: ("SA1", "SA2", "SA3"), 1: ("SA4",), 2: ("SA5",), 3: ("MA3", "MA1")},
        coins={0: 13, 1: 12, 2: 11, 3: 0},
        keep=("TX3",),
    )
    assert [vp_of(s, seat) for seat in range(4)] == [3, 1, 1, 5]
    a_old, b_old = s.players[0].coins[:6], s.players[1].coins[:6]
    s, _ = play(next_draw(s, "TX3"), A, DiscoverCard())
    assert s.discard == ("TX3", *a_old, *b_old)
    assert coins_of(s) == (7, 7, 12, 0)
    assert s.phase == Discover()


def test_pr_s4_four_colours_admiral_mademoiselle_fees() -> None:
    s = a_state(
        displays={0: ("AD1", "MA1", "TB1")},
        coins={0: 4, 1: 2, 2: 0},
        harbor=("Y02", "B04", "G07", "R04", "JE2"),
        revealed=5,
    )
    s, _ = play(s, A, StopDiscovering())
    assert coins_of(s)[A] == 6
    assert s.phase == Window(A, 2)
    s, _ = play(s, A, HirePerson("JE2"))
    assert coins_of(s)[A] == 0
    assert vp_of(s, A) == 1 + 2 + 1 + 2
    s, _ = play(s, A, TradeShip("B04"))
    assert coins_of(s)[A] == 3
    assert s.phase == Window(B, 1)  # A's allowance is used up: the window closed by itself
    s, _ = play(s, B, TradeShip("G07"))
    assert coins_of(s) == (4, 4, 0)
    assert s.phase == Window(C, 1)
    assert TradeShip("Y02") in RULES.legal_actions(s, C)  # 0 coins: the fee comes from the ship (R7)
    s, _ = play(s, C, TradeShip("Y02"))
    assert coins_of(s) == (5, 4, 0)
    assert s.discard[-1] == "R04"  # clean-up
    assert s.active == B
    assert s.phase == Discover()


def test_pr_s4_variant_non_active_hire_needs_price_plus_fee() -> None:
    s = a_state(coins={2: 0}, harbor=("SA1",), phase=Window(C, 1), revealed=2)
    assert RULES.legal_actions(s, C) == (Pass(),)
    with pytest.raises(CannotAfford):
        RULES.apply(s, C, HirePerson("SA1"))


def test_pr_s5_expedition_with_jack_of_all_trades() -> None:
    s = a_state(displays={0: ("CA1", "SE1", "JT1")}, coins={0: 1}, expeditions=("EX4",))
    assert vp_of(s, A) == 3
    action = FulfillExpedition("EX4", ("SE1", "CA1", "JT1"))
    assert action in RULES.legal_actions(s, A)
    s, _ = play(s, A, action)
    assert set(s.discard[-3:]) == {"CA1", "JT1", "SE1"}
    assert s.players[A].display == ("EX4",)
    assert coins_of(s)[A] == 4
    assert vp_of(s, A) == 6
    assert s.expeditions == ()


def test_pr_s5_non_active_player_cannot_fulfil() -> None:
    s = a_state(
        displays={1: ("CA1", "SE1", "JT1")},
        coins={1: 1},
        expeditions=("EX4",),
        phase=Window(B, 1),
        harbor=("Y01",),
    )
    with pytest.raises(IllegalAction):
        RULES.apply(s, B, FulfillExpedition("EX4", ("SE1", "CA1", "JT1")))


def _b_reaches_twelve(c_coins: int) -> State:
    # B (MA3, MA4, PI3 = 9 VP, 12 coins) hires AD5 for 9 - 2 = 7 in B's own window; A has 8 VP.
    return a_state(
        active=B,
        displays={0: ("MA1", "MA2", "TB2", "TY2"), 1: ("MA3", "MA4", "PI3"), 2: ("SA10", "AD6", "PI2", "SA8")},
        coins={1: 12, 2: c_coins},
        harbor=("AD5",),
        phase=Window(B, 1),
        keep=("SA9",),
    )


@pytest.mark.parametrize(("c_coins", "winners"), [(12, {C}), (10, {B, C})])
def test_pr_s9_end_of_game_completes_the_round_tie_break_by_coins(c_coins: int, winners: set[int]) -> None:
    s = _b_reaches_twelve(c_coins)
    s, _ = play(s, B, HirePerson("AD5"))
    assert vp_of(s, B) == 12
    assert coins_of(s)[B] == 5
    assert s.end_triggered
    assert s.active == C
    assert s.phase == Discover()
    s, _ = play(next_draw(s, "SA9"), C, DiscoverCard(), StopDiscovering(), HirePerson("SA9"))
    assert vp_of(s, C) == 12
    assert vp_of(s, A) == 8
    assert coins_of(s)[B] == 5
    assert coins_of(s)[C] == c_coins - 5
    assert isinstance(s.phase, Finished)
    result = RULES.result(s)
    assert result is not None
    assert result.winners == winners


def test_pr_s9_variant_start_player_trigger_lets_the_others_play() -> None:
    s = a_state(
        displays={0: ("MA3", "MA4", "PI3")},
        coins={0: 7},
        harbor=("AD5",),
        phase=Window(A, 1),
    )
    s, _ = play(s, A, HirePerson("AD5"))
    assert s.end_triggered
    assert RULES.result(s) is None
    assert s.active == B


def test_base_mode_has_no_expansion_cards() -> None:
    s = RULES.new_game(a_state().config, 7)
    assert len(s.draw_pile) + sum(len(p.coins) for p in s.players) == 119
    assert s.config.mode is Mode.BASE
