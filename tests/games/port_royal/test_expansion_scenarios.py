"""Spec §10 scenarios of the expansion: persons, ships, competitive contracts."""

from __future__ import annotations

import pytest
from pr_builders import A, B, C, D, a_state, coins_of, next_draw, play, vp_of

from flotilla.games.port_royal import RULES
from flotilla.games.port_royal.actions import (
    CompleteContract,
    DiscoverCard,
    HirePerson,
    Pass,
    StopDiscovering,
    TradeShip,
)
from flotilla.games.port_royal.config import Mode
from flotilla.games.port_royal.events import (
    CoinReason,
    CoinsGained,
    CoinsPaid,
    ContractCompleted,
    ContractPrepared,
)
from flotilla.games.port_royal.state import Contract, Discover, Gamester, PrepCube, TaxOfficer, Window
from flotilla.rules import IllegalAction

PLUS = Mode.BASE_PLUS
COMP = Mode.CONTRACT_COMP


@pytest.mark.parametrize(("gunners", "gain"), [(("GU1",), 2), (("GU1", "GU2"), 4)])
def test_pr_e1_gunner_income(gunners: tuple[str, ...], gain: int) -> None:
    s = a_state(mode=PLUS, harbor=("R01", "B05", "K04"), displays={1: gunners}, coins={1: 2}, phase=Window(A, 1))
    pile = len(s.draw_pile)
    s, _ = play(s, A, Pass())
    assert coins_of(s)[B] == 2 + gain
    assert len(s.draw_pile) == pile - gain
    assert s.phase == Window(B, 1)


@pytest.mark.parametrize(
    ("harbor", "gain"),
    [(("Y01", "B01", "SE1", "PR1"), 2), (("Y01", "B01", "G01", "SE1", "PR1"), 0)],
)
def test_pr_e2_vice_admiral_thresholds(harbor: tuple[str, ...], gain: int) -> None:
    s = a_state(mode=PLUS, harbor=harbor, displays={1: ("VA1", "VA3")}, phase=Window(A, 1))
    s, _ = play(s, A, Pass())
    assert coins_of(s)[B] == gain


def test_pr_e2c_vice_admiral_for_the_active_player() -> None:
    s = a_state(mode=PLUS, active=B, harbor=("Y01", "B01", "SE1"), displays={1: ("VA1", "VA3")}, revealed=3)
    s, _ = play(s, B, StopDiscovering())
    assert coins_of(s)[B] == 2


def test_pr_e3_special_ship_draws_four_coin_cards() -> None:
    s = a_state(mode=PLUS, harbor=("G12",), phase=Window(C, 1))
    pile = len(s.draw_pile)
    s, events = play(s, C, TradeShip("G12", B))
    assert len(s.draw_pile) == pile - 4
    assert coins_of(s) == (1, 1, 2)
    assert s.discard[-1] == "G12"
    coin_events = [e for e in events if isinstance(e, (CoinsGained, CoinsPaid))]
    assert coin_events == [
        CoinsGained(C, 3, CoinReason.SHIP),
        CoinsGained(B, 1, CoinReason.SPECIAL_SHIP),
        CoinsPaid(C, 1, A, (), CoinReason.FEE),
    ]


def test_pr_e4_second_contract_gives_a_vp_token() -> None:
    contracts = (Contract("C04", slots=(A,)), Contract("C08"), Contract("C01"), Contract("C02"))
    s = a_state(mode=COMP, seats=2, displays={0: ("SA1", "PI1")}, coins={0: 1}, contracts=contracts)
    pile = len(s.contract_pile)
    s, events = play(s, A, CompleteContract("C08"))
    assert ContractCompleted(A, "C08", 1, 3, 1) in events
    assert s.contracts[1].slots == (A,)
    assert coins_of(s)[A] == 4
    assert s.players[A].tokens == 1
    assert vp_of(s, A) == 3
    assert len(s.contract_pile) == pile - 1


def test_pr_s6_frigate_foe_over_three_turns() -> None:
    contracts = (Contract("C04"), Contract("C01"), Contract("C02"), Contract("C06"))
    # 1. A's turn, B's window: refuse R04, pay the fee.
    s = a_state(
        mode=COMP,
        seats=2,
        displays={1: ("TR1",)},
        coins={1: 3},
        contracts=contracts,
        harbor=("R04",),
        phase=Window(B, 1),
    )
    s, events = play(s, B, TradeShip("R04", None, True))
    assert ContractPrepared(B, "C04", 1) in events
    assert coins_of(s) == (1, 2)
    assert s.contracts[0].boxes == (PrepCube(B, 1, 1),)
    assert RULES.view(s, None).players[B].free_cubes == 2
    # 2. B's own turn: refuse R07, no fee.
    boxed = (Contract("C04", boxes=(PrepCube(B, 1, 1),)), *contracts[1:])
    s = a_state(
        mode=COMP,
        seats=2,
        active=B,
        displays={1: ("TR1",)},
        coins={1: 2},
        contracts=boxed,
        harbor=("R07",),
        phase=Window(B, 1),
        turn=2,
    )
    s, _ = play(s, B, TradeShip("R07", None, True))
    assert coins_of(s)[B] == 2
    assert s.contracts[0].boxes == (PrepCube(B, 2, 2),)
    # 3. A later turn: refuse R01, complete.
    boxed = (Contract("C04", boxes=(PrepCube(B, 2, 2),)), *contracts[1:])
    s = a_state(
        mode=COMP,
        seats=2,
        active=B,
        displays={1: ("TR1",)},
        coins={1: 2},
        contracts=boxed,
        harbor=("R01",),
        phase=Window(B, 1),
        turn=4,
    )
    s, events = play(s, B, TradeShip("R01", None, True))
    assert ContractCompleted(B, "C04", 1, 8, 0) in events
    assert coins_of(s)[B] == 10
    assert s.contracts[0].slots == (B,)
    assert s.contracts[0].boxes == ()
    assert s.players[B].tokens == 0


def test_pr_s6_refusal_needs_a_coin_for_the_fee() -> None:
    contracts = (Contract("C04"), Contract("C01"), Contract("C02"), Contract("C06"))
    s = a_state(mode=COMP, seats=2, contracts=contracts, harbor=("R04",), phase=Window(B, 1))
    assert TradeShip("R04", None, True) not in RULES.legal_actions(s, B)
    with pytest.raises(IllegalAction):
        RULES.apply(s, B, TradeShip("R04", None, True))


@pytest.mark.parametrize("with_gamester", [False, True])
def test_pr_s7_tiny_gamester_across_turns(with_gamester: bool) -> None:
    fourth = Contract("C14") if with_gamester else Contract("C01")
    contracts = (Contract("C16"), fourth, Contract("C02"), Contract("C06"))
    s = a_state(mode=COMP, seats=2, contracts=contracts, turn=3)
    for card in ("Y01", "B01"):
        s, _ = play(next_draw(s, card), A, DiscoverCard())
        assert s.phase == Discover()
    s, _ = play(next_draw(s, "G01"), A, DiscoverCard())
    assert s.phase == Gamester(("C16",))
    s, events = play(s, A, CompleteContract("C16"))
    assert ContractPrepared(A, "C16", 1) in events
    s, _ = play(next_draw(s, "R01"), A, DiscoverCard())
    assert s.phase == (Gamester(("C14",)) if with_gamester else Discover())
    # Turn 5: K01, Y02, B02 -> the third colour completes C16 automatically.
    boxed = (Contract("C16", boxes=(PrepCube(A, 1, 3),)), *contracts[1:])
    s = a_state(mode=COMP, seats=2, contracts=boxed, turn=5, coins={0: 0})
    s, _ = play(next_draw(s, "K01"), A, DiscoverCard())
    s, _ = play(next_draw(s, "Y02"), A, DiscoverCard())
    s, events = play(next_draw(s, "B02"), A, DiscoverCard())
    assert ContractCompleted(A, "C16", 1, 2, 0) in events
    assert coins_of(s)[A] == 2
    assert s.phase == Discover()


def test_pr_s10_clerk_chain_with_fees() -> None:
    s = a_state(
        mode=PLUS, seats=2, displays={1: ("CLG", "CLY")}, coins={1: 3}, harbor=("G05", "Y07", "SE2"), phase=Window(B, 1)
    )
    s, _ = play(s, B, TradeShip("G05"))
    assert coins_of(s)[B] == 4
    assert s.phase == Window(B, 1)
    s, _ = play(s, B, TradeShip("Y07"))
    assert coins_of(s)[B] == 6
    assert s.phase == Window(B, 1)
    s, _ = play(s, B, HirePerson("SE2"))
    assert coins_of(s) == (3, 1)
    assert "SE2" in s.players[B].display
    assert s.harbor == ()


def test_pr_s11_admiral_vice_admiral_boundaries_and_jester() -> None:
    s = a_state(
        mode=PLUS,
        seats=4,
        harbor=("Y01", "B01", "G01", "R01", "K01"),
        revealed=5,
        displays={0: ("AD1", "VA1"), 1: ("AD2", "VA3"), 3: ("JE1",)},
    )
    pile = len(s.draw_pile)
    s, _ = play(s, A, StopDiscovering())
    assert coins_of(s)[A] == 2
    assert s.phase == Window(A, 3)
    s, _ = play(s, A, TradeShip("Y01"), TradeShip("B01"), TradeShip("G01"))
    assert s.phase == Window(B, 1)
    assert coins_of(s)[B] == 0
    s, _ = play(s, B, TradeShip("R01"))
    s, _ = play(s, C, TradeShip("K01"))
    assert coins_of(s) == (7, 0, 0, 1)
    assert len(s.draw_pile) == pile - 8
    assert s.active == B


def test_pr_s12_tax_officer_out_of_turn() -> None:
    contracts = (Contract("C03"), Contract("C01"), Contract("C02"), Contract("C06"))
    s = a_state(
        mode=COMP,
        displays={0: ("SA1", "SA2"), 2: ("SA3",)},
        coins={0: 5, 1: 14, 2: 12},
        contracts=contracts,
        keep=("TX2",),
    )
    s, _ = play(next_draw(s, "TX2"), A, DiscoverCard())
    assert coins_of(s) == (5, 7, 6)
    assert s.phase == TaxOfficer("TX2", (B, C))
    assert RULES.to_act(s) == frozenset({B})
    s, _ = play(s, B, CompleteContract("C03"))
    assert coins_of(s)[B] == 14
    assert RULES.to_act(s) == frozenset({C})
    s, _ = play(s, C, CompleteContract("C03"))
    assert coins_of(s) == (6, 14, 13)
    assert s.contracts[0].slots == (B, C)
    assert [len(p.completed) for p in s.players] == [0, 1, 1]
    assert s.phase == Discover()
    assert D not in RULES.to_act(s)
