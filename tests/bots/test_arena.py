"""The arena: seat rotation, totals, Wilson intervals, the CLI."""

from __future__ import annotations

import pytest

from flotilla.bots.arena import Entrant, build, run, wilson
from flotilla.cli import main
from flotilla.games import REGISTRY


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-3)
    assert high == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_run_rotates_seats_and_totals_games() -> None:
    rules = REGISTRY["port_royal"]
    entrants = [Entrant("random"), Entrant("heuristic", 2)]
    report = run(rules, 2, entrants, 2, options={"mode": "base"}, seed=5)
    assert len(report.decisions) == 2
    assert report.unfinished == 0
    random_side, heuristic_side = report.standings
    assert random_side.games == heuristic_side.games == 2
    assert random_side.seats_played == heuristic_side.seats_played == 2
    assert random_side.wins + heuristic_side.wins == pytest.approx(2.0)  # competitive: every game has a winner
    assert heuristic_side.wins > random_side.wins
    assert heuristic_side.mu > random_side.mu
    assert sum(s.decisions for s in report.standings) == sum(report.decisions)
    again = run(rules, 2, entrants, 2, options={"mode": "base"}, seed=5)
    assert again.decisions == report.decisions  # fixed seeds: the same games


def test_cli_prints_a_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--kind", "port_royal", "--policies", "random,random", "--games", "2", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "2 games" in out
    assert out.count("random@1") == 2


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--difficulty", "0,1,2"], "--difficulty"),
        (["--difficulty", "hard"], "invalid literal"),
        (["--option", "mode=chaos"], "mode"),
        (["--policies", "random,nobody"], "no bot policy"),
        (["--seconds", "1,2,3"], "--seconds"),
        (["--seconds", "soon"], "could not convert"),
    ],
)
def test_cli_refuses_bad_arguments(extra: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--kind", "port_royal", "--policies", "random,random", "--games", "1", *extra])
    assert code == 2
    assert says in capsys.readouterr().err


def test_search_budgets_and_playouts_are_reported() -> None:
    rules = REGISTRY["port_royal"]
    timed = build(Entrant("ismcts", 0, seconds=0.25), rules)
    assert timed.seconds == 0.25  # type: ignore[attr-defined]
    report = run(rules, 2, [Entrant("ismcts", 0, budget=3), Entrant("random")], 1, options={"mode": "base"}, seed=2)
    search, rand = report.standings
    assert search.searches > 0
    assert search.playouts == 3 * search.searches  # a playout budget is spent exactly
    assert rand.searches == rand.playouts == 0
    assert "playouts/search" in report.lines()[1]
