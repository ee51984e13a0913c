"""The View: public data only, the pending decision, and final scores."""

from __future__ import annotations

from pr_builders import B, C, a_state

from flotilla.games.port_royal import RULES, Config, Mode
from flotilla.games.port_royal.state import Contract, PrepCube, TaxOfficer, Window
from flotilla.games.port_royal.views import PhaseKind
from flotilla.rules import Seat


def test_view_shows_counts_not_faces_and_who_acts() -> None:
    contracts = (Contract("C03"), Contract("C04", boxes=(PrepCube(B, 1, 1),)), Contract("C01"), Contract("C02"))
    s = a_state(mode=Mode.CONTRACT_COMP, coins={0: 4, 1: 13}, contracts=contracts, phase=TaxOfficer("TX1", (B,)))
    v = RULES.view(s, C)
    assert v.viewer == C
    assert v.to_act == (B,)
    assert v.phase.kind is PhaseKind.TAX_OFFICER
    assert v.phase.seat == B
    assert [p.coin_count for p in v.players] == [4, 13, 0]
    assert [p.free_cubes for p in v.players] == [3, 2, 3]
    assert v.draw_pile_size == len(s.draw_pile)
    assert v.contract_pile_size == 12
    assert v.contracts == contracts
    assert not v.finished


def test_window_phase_view() -> None:
    s = a_state(harbor=("Y01",), phase=Window(B, 2))
    v = RULES.view(s, None)
    assert v.viewer is None
    assert v.phase.kind is PhaseKind.WINDOW
    assert (v.phase.seat, v.phase.allowance) == (B, 2)


def test_final_view_has_scores_and_winners() -> None:
    state = RULES.new_game(Config(seats=2), 4)
    while RULES.result(state) is None:
        (seat,) = RULES.to_act(state)
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0]).state
    result = RULES.result(state)
    assert result is not None
    v = RULES.view(state, Seat(0))
    assert v.finished
    assert v.to_act == ()
    assert v.scores == result.scores
    assert set(v.winners) == set(result.winners)
    assert v.phase.kind is PhaseKind.FINISHED
