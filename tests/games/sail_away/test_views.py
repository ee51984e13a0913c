"""Views: the viewer's own secrets only, everything revealed at the end, tie-breaks (SR20)."""

from __future__ import annotations

from sa_builders import P1, P2, a_state, launched

from flotilla.games.sail_away import RULES
from flotilla.games.sail_away.state import Phase
from flotilla.rules import Rng


def test_each_seat_sees_only_its_own_objective() -> None:
    state = a_state()
    mine = RULES.view(state, P1)
    assert mine.players[0].objective == "OB1"
    assert mine.players[1].objective is None
    assert all(p.objective is None for p in RULES.view(state, None).players)
    assert RULES.view(RULES.determinize(state, P1, Rng(5)), P1) == mine


def test_final_view_reveals_objectives_and_breaks_ties_by_launched_ships() -> None:
    state = a_state(
        phase=Phase.FINISHED,
        coins={0: 10, 1: 8, 2: 0},
        launched_ships={1: launched("SH01")},
    )
    final = RULES.view(state, None)
    assert final.scores == (10, 10, 0)
    assert final.winners == (P2,)
    assert [p.objective for p in final.players] == ["OB1", "OB5", "OB2"]
    result = RULES.result(state)
    assert result is not None
    assert result.winners == {P2}
    assert result.ranks == (2, 1, 3)
