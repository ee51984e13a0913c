"""Worked examples PN-S5 to PN-S7, PN-S9 to PN-S12, PN-S14, PN-S16 and PN-S17 (steps 3 to 9, scoring)."""

from __future__ import annotations

import dataclasses

import pytest
from pn_builders import a_player, a_state, hold, order, play

from flotilla.games.pirates_of_nassau import RULES
from flotilla.games.pirates_of_nassau.actions import (
    AcceptPenalty,
    AdjustNotoriety,
    Bury,
    BuyToken,
    Direction,
    DiscardItem,
    EvadeNavy,
    ExchangePeso,
    FinishBurying,
    MoveMarker,
    Pass,
    Penalty,
    SellResources,
    TakeNavyCard,
)
from flotilla.games.pirates_of_nassau.common import base_sail
from flotilla.games.pirates_of_nassau.events import PesosBuried
from flotilla.games.pirates_of_nassau.flow import move_merchants
from flotilla.games.pirates_of_nassau.scoring import rank_points, result
from flotilla.games.pirates_of_nassau.state import (
    Adjusting,
    Burying,
    Buying,
    Collision,
    Finished,
    LosingCargo,
    NavyChoice,
    NavyFight,
    NavyPenalty,
    PirateMove,
    State,
)
from flotilla.games.pirates_of_nassau.tables import Item, Resource
from flotilla.games.pirates_of_nassau.views import view
from flotilla.rules import CannotAfford, IllegalAction, Seat


class TestPNS5RoyalNavy:
    def test_the_four_player_example(self) -> None:
        jonah, anja, jon = a_player(8), a_player(10), a_player(11)
        ewan = a_player(
            13,
            fitted={"STERN-S1": "MAST-01", "STERN-S2": "MAST-02", "BOW-H1": "HULL-01", "BOW-H2": "HULL-02"},
        )
        s0 = a_state(
            [jonah, anja, jon, ewan],
            NavyChoice(order=order(0, 1, 2, 3), index=0),
            navy_display=("N1-01", "N1-02", "N1-06", "N1-12"),
        )
        s, _ = play(s0, (0, TakeNavyCard("N1-01")), (1, TakeNavyCard("N1-02")), (2, TakeNavyCard("N1-06")))
        assert isinstance(s.phase, NavyFight)
        s, _ = play(s, (2, EvadeNavy("C33")))
        assert isinstance(s.phase, NavyFight)  # Ewan must take N1-12: the only card left
        assert s.phase.card == "N1-12"
        s, _ = play(s, (3, EvadeNavy("C21")))
        assert isinstance(s.phase, NavyPenalty)
        assert s.phase.successes == 1
        s, _ = play(s, (3, AcceptPenalty(Penalty.NOTORIETY)))
        assert s.players[3].notoriety == 7
        assert s.navy.bottom[-4:] == ("N1-01", "N1-02", "N1-06", "N1-12")
        assert "C33" not in s.players[2].hand
        assert "C21" not in s.players[3].hand
        assert s.players[2].notoriety == 11


def adjusting(players: list, seat: int, seats_order: tuple[int, ...]) -> State:  # type: ignore[type-arg]
    return a_state(players, Adjusting(order=order(*seats_order), index=seats_order.index(seat)))


class TestPNS6Collision:
    def start(self) -> State:
        a, b = a_player(20), a_player(21)
        c = a_player(15, plundered=("Z1-16",))  # 3 + 2 = 5
        s = adjusting([a, b, c], 2, (1, 0, 2))
        s, _ = play(s, (2, AdjustNotoriety(False)))
        assert isinstance(s.phase, Collision)
        return s

    def test_up_jumps_over_both_markers(self) -> None:
        s, _ = play(self.start(), (2, MoveMarker(Direction.UP)))
        assert s.players[2].notoriety == 22

    def test_down(self) -> None:
        s, _ = play(self.start(), (2, MoveMarker(Direction.DOWN)))
        assert s.players[2].notoriety == 19

    def test_the_default_is_up(self) -> None:
        s = self.start()
        assert RULES.default_action(s, Seat(2)) == MoveMarker(Direction.UP)


class TestPNS7PassingOneHundred:
    def start(self) -> State:
        d = a_player(97, plundered=("Z1-19",))  # 3 + 3 = 6
        e = a_player(3)
        s, _ = play(adjusting([d, e], 0, (0, 1)), (0, AdjustNotoriety(False)))
        assert isinstance(s.phase, Collision)
        assert s.phase.target == 103
        return s

    def test_up_goes_to_104_on_space_4(self) -> None:
        s, _ = play(self.start(), (0, MoveMarker(Direction.UP)))
        assert s.players[0].notoriety == 104
        assert view(s, None).seats[0].track_space == 4

    def test_down_goes_to_102(self) -> None:
        s, _ = play(self.start(), (0, MoveMarker(Direction.DOWN)))
        assert s.players[0].notoriety == 102


class TestPNS9Halving:
    def penalty(self, successes: int, **kw: object) -> State:
        g = a_player(25, hand=("C12", "C22", "C33"), **kw)
        other = a_player(3, hand=("C12", "C21", "C22"))
        return a_state(
            [other, g],
            NavyPenalty(order=order(0, 1), index=1, card="N1-12", successes=successes),
            navy_display=(),
        )

    def test_half_cargo_discards_two_of_five(self) -> None:
        s0 = self.penalty(1, hold=hold(p=2, w=1, g=1, r=1))
        assert set(RULES.legal_actions(s0, Seat(1))) >= {
            AcceptPenalty(Penalty.CARGO),
            AcceptPenalty(Penalty.NOTORIETY),
        }
        assert RULES.default_action(s0, Seat(1)) == AcceptPenalty(Penalty.CARGO)
        s, _ = play(s0, (1, AcceptPenalty(Penalty.CARGO)))
        assert isinstance(s.phase, LosingCargo)
        assert s.phase.remaining == 2
        s, _ = play(s, (1, DiscardItem(Item.PESO)), (1, DiscardItem(Item.GOODS)))
        assert s.players[1].hold == hold(p=1, w=1, r=1)
        assert s.players[1].notoriety == 25

    def test_half_notoriety(self) -> None:
        s, _ = play(self.penalty(1, hold=hold(p=2, w=1, g=1, r=1)), (1, AcceptPenalty(Penalty.NOTORIETY)))
        assert s.players[1].notoriety == 13
        assert s.players[1].hold.total == 5

    def test_no_success_loses_both(self) -> None:
        s, _ = play(
            self.penalty(0, hold=hold(p=2, w=1, g=1, r=1)),
            (1, AcceptPenalty(Penalty.BOTH)),
            (1, DiscardItem(Item.RUM)),
            (1, DiscardItem(Item.GOODS)),
        )
        assert s.players[1].notoriety == 13
        assert s.players[1].hold == hold(p=2, w=1)

    def test_one_item_loses_nothing(self) -> None:
        s, _ = play(self.penalty(1, hold=hold(p=1)), (1, AcceptPenalty(Penalty.CARGO)))
        assert s.players[1].hold == hold(p=1)

    def test_the_surgeon_saves_two_of_each(self) -> None:
        s0 = self.penalty(0, hold=hold(p=3, w=2, g=2), sections=1, fitted={"BOW-X1": "CREW-31"})
        assert AcceptPenalty(Penalty.BOTH, surgeon=True) in RULES.legal_actions(s0, Seat(1))
        s, _ = play(s0, (1, AcceptPenalty(Penalty.BOTH, surgeon=True)), (1, DiscardItem(Item.GOODS)))
        assert s.players[1].hold.total == 6
        assert s.players[1].notoriety == 15


class TestPNS10MerchantsMoveAndRefill:
    def test_moves_and_refill(self) -> None:
        routes = {2: "Z1-05", 4: "Z2-07", 8: "Z2-01", 11: "Z3-04", 13: "Z2-12", 15: "Z3-01", 19: "Z3-09"}
        tops = {1: ("Z1-01",), 2: ("Z2-02", "Z2-03"), 3: ("Z3-02", "Z3-03", "Z3-05")}
        s0 = a_state([a_player(1), a_player(2)], PirateMove(order=order(0, 1), turn=0), routes=routes, deck_tops=tops)
        s = move_merchants(s0, [])
        assert s.decks[0].bottom[-1] == "Z1-05"
        assert s.decks[1].bottom[-1] == "Z2-07"
        assert {r.space: r.card for r in s.routes} == {
            6: "Z2-12",
            4: "Z3-04",
            3: "Z2-01",
            2: "Z1-01",
            13: "Z3-09",
            11: "Z3-01",
            10: "Z2-02",
            8: "Z2-03",
            19: "Z3-02",
            17: "Z3-03",
            15: "Z3-05",
        }


class TestPNS11EndCard:
    def test_the_end_card_stops_the_reveal_and_the_round(self) -> None:
        a, b, c = a_player(3, hold=hold(p=1)), a_player(2), a_player(1)
        s0 = a_state(
            [a, b, c],
            Burying(order=order(0, 1, 2), index=0, hold_before=hold(p=1), face_down_before=()),
            navy_top=("N2-04", "END", "N2-02"),
            navy_display=(),
            round_=5,
        )
        routes_before = s0.routes
        s, _ = play(s0, (0, FinishBurying()))
        assert isinstance(s.phase, Finished)
        assert s.navy_display == ("N2-04",)
        assert s.navy.bottom[0] == "N2-02"
        assert s.routes == routes_before
        assert s.round == 5
        assert RULES.to_act(s) == frozenset()
        assert result(s) is not None


class TestPNS12Scoring:
    def test_shared_ranks(self) -> None:
        assert rank_points([12, 12, 9, 9, 3]) == [7, 7, 3, 3, 0]
        assert rank_points([6, 4, 4, 4, 0]) == [7, 5, 5, 5, 0]

    def test_a_vp_tie_with_equal_wealth_goes_to_the_higher_notoriety(self) -> None:
        a = a_player(10, chest=12)
        b = a_player(5, chest=12, fitted={"BOW-H1": "HULL-01"})
        s = a_state([a, b], Finished())
        final = result(s)
        assert final is not None
        assert final.scores == (26, 26)
        assert final.winners == frozenset({Seat(0)})
        assert final.ranks == (1, 2)


class TestPNS14Nassau:
    def test_purchases_exchange_burial_and_views(self) -> None:
        i = a_player(30, hold=hold(p=4, r=1))
        other = a_player(1)
        s0 = a_state([i, other], Buying(order=order(0, 1), index=0), display=("MAST-03", "HULL-01", "CREW-41"))
        s, _ = play(s0, (0, ExchangePeso(Resource.GOODS)))
        assert s.players[0].hold == hold(p=3, g=2, r=1)
        s, _ = play(s, (0, BuyToken("MAST-03", "STERN-S1")))
        assert base_sail(s.players[0]) == 2
        assert s.players[0].hold == hold(p=3)
        s, _ = play(s, (1, Pass()), (0, ExchangePeso(Resource.GUNPOWDER)), (0, ExchangePeso(Resource.GUNPOWDER)))
        assert s.players[0].hold == hold(p=1, w=4)
        with pytest.raises(CannotAfford):
            RULES.apply(s, Seat(0), BuyToken("HULL-01", "BOW-H1"))
        s, _ = play(s, (0, Pass()))
        assert isinstance(s.phase, Burying)
        s, events = play(s, (0, SellResources(3, 0, 0)), (0, Bury(2)))
        assert s.players[0].hold == hold(w=1)
        assert s.players[0].chest == 2
        theirs = view(s, Seat(1)).seats[0]
        assert theirs.hold == hold(p=1, w=4)
        assert theirs.chest is None
        assert view(s, Seat(0)).seats[0].chest == 2
        assert all(RULES.redact(e, Seat(1)) is None for e in events)
        assert RULES.redact(PesosBuried(Seat(0), 2), Seat(0)) is not None
        s, _ = play(s, (0, FinishBurying()))
        assert view(s, Seat(1)).seats[0].hold == hold(w=1)
        assert view(s, Seat(1)).seats[0].chest is None


class TestPNS16BoughtThisRound:
    def test_a_carpenter_bought_now_waits_for_next_round(self) -> None:
        rich = a_player(30, hold=hold(w=3, g=2, r=4))
        s0 = a_state([rich, a_player(1)], Buying(order=order(0, 1), index=0), display=("CREW-19", "HULL-01"))
        s, _ = play(s0, (0, BuyToken("CREW-19", "BOW-X1")), (1, Pass()))
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(0), BuyToken("HULL-01", "BOW-H1", carpenter=Resource.GOODS))
        next_round = dataclasses.replace(s, players=(dataclasses.replace(s.players[0], bought=()), s.players[1]))
        after, _ = play(next_round, (0, BuyToken("HULL-01", "BOW-H1", carpenter=Resource.GOODS)))
        assert after.players[0].hold == hold(w=0, g=2, r=2)
        assert "CREW-19" in after.players[0].face_down


class TestPNS17OwnSpace:
    def test_down_after_a_gain_can_end_on_the_old_value(self) -> None:
        d = a_player(31)
        c = a_player(30, wind_held=True)  # the cashed trade wind gains 1 -> 31, occupied by D
        s0 = a_state([d, c], Adjusting(order=order(0, 1), index=1))
        s1, _ = play(s0, (1, AdjustNotoriety(cash_wind=True)))
        assert isinstance(s1.phase, Collision)
        down, _ = play(s1, (1, MoveMarker(Direction.DOWN)))
        up, _ = play(s1, (1, MoveMarker(Direction.UP)))
        assert down.players[1].notoriety == 30
        assert up.players[1].notoriety == 32

    def test_up_after_a_loss_can_cancel_it(self) -> None:
        a = a_player(1, hand=("C12", "C21", "C22"))
        b = a_player(2, hand=("C12", "C22", "C33"))
        s0 = a_state([a, b], NavyPenalty(order=order(0, 1), index=1, card="N1-12", successes=1))
        s, _ = play(s0, (1, AcceptPenalty(Penalty.NOTORIETY)))
        assert not isinstance(s.phase, Collision)
        assert s.players[1].notoriety == 2


class TestPNS7Ranking:
    def test_a_lap_counts_one_hundred(self) -> None:
        assert rank_points([104, 3, 99]) == [7, 3, 5]


class TestRoundEnd:
    def test_steps_six_to_nine_then_step_one(self) -> None:
        tired = a_player(9, hand=("C12",), fitted={"BOW-X1": "CREW-37"}, face_down=("CREW-37",), bought=("CREW-37",))
        s0 = a_state(
            [tired, a_player(1, hand=("C33",))],
            Burying(order=order(0, 1), index=1, hold_before=hold(), face_down_before=()),
            navy_display=(),
            display=("HULL-01", "MAST-01", "CREW-01"),
            routes={2: "Z1-01", 8: "Z2-01"},
            round_=2,
        )
        s0 = dataclasses.replace(
            s0, players=(s0.players[0], dataclasses.replace(s0.players[1], hold=hold(p=1))), pesos_issued=1
        )
        s, events = play(s0, (1, FinishBurying()))
        assert isinstance(s.phase, PirateMove)
        assert s.round == 3
        assert len(s.navy_display) == 3
        assert {r.space: r.card for r in s.routes}[6] == "Z2-01"  # zone 2 -> the highest zone 1 route
        assert "Z1-01" in s.decks[0].bottom  # sailed to Europe
        assert sorted(s.piles[0].discard) == ["HULL-01"]
        assert len(s.display) == 9
        p = s.players[0]
        assert p.hand == ("C12", "C21", "C22", "C33")
        assert p.face_down == ()
        assert p.bought == ()
        assert len(p.dice) == 3
        kinds = [type(e).__name__ for e in events]
        assert kinds.index("NavyCardRevealed") < kinds.index("MerchantMoved") < kinds.index("NassauRestocked")
        assert kinds.index("NassauRestocked") < kinds.index("DiceRolled") < kinds.index("RoundStarted")
