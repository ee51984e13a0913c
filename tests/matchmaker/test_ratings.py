"""Rating maths (openskill Plackett-Luce) and which games are rated."""

from __future__ import annotations

from flotilla.lobby.ratings import DEFAULT_MU, Rating, is_cooperative, rate


class TestRate:
    def test_the_winner_gains_and_the_loser_loses(self) -> None:
        winner, loser = rate([Rating(), Rating()], [1, 2])
        assert winner.mu > DEFAULT_MU > loser.mu
        assert winner.sigma < Rating().sigma
        assert (winner.games, loser.games) == (1, 1)

    def test_a_shared_rank_is_a_tie(self) -> None:
        a, b = rate([Rating(), Rating()], [1, 1])
        assert abs(a.mu - b.mu) < 1e-9

    def test_beating_a_stronger_player_gains_more(self) -> None:
        upset, _ = rate([Rating(), Rating(35.0, 3.0)], [1, 2])
        expected, _ = rate([Rating(), Rating(15.0, 3.0)], [1, 2])
        assert upset.mu > expected.mu

    def test_four_players_are_ordered_by_rank(self) -> None:
        after = rate([Rating()] * 4, [2, 1, 4, 3])
        assert after[1].mu > after[0].mu > after[3].mu > after[2].mu

    def test_the_ordinal_is_conservative(self) -> None:
        assert Rating(25.0, 8.0).ordinal == 1.0
        assert Rating.loads(Rating(30.0, 2.0, 7).dumps()) == Rating(30.0, 2.0, 7)


class TestWhatIsRated:
    def test_co_operative_games_are_not_rated(self) -> None:
        assert is_cooperative("port_royal", {"mode": "contract_coop"})
        assert not is_cooperative("port_royal", {"mode": "contract"})
        assert not is_cooperative("sail_away", {})
