"""Worked examples PN-S1 to PN-S4, PN-S8, PN-S13 and PN-S15 (step 2: moves and actions)."""

from __future__ import annotations

import pytest
from pn_builders import a_player, a_state, hold, order, play

from flotilla.games.pirates_of_nassau import RULES
from flotilla.games.pirates_of_nassau.actions import (
    Boost,
    DiscardItem,
    Move,
    MoveKind,
    Pass,
    Plunder,
    Raid,
    Ransom,
    RideTradeWinds,
    Smuggle,
    TakeLoot,
    WalkPlank,
)
from flotilla.games.pirates_of_nassau.common import base_sail
from flotilla.games.pirates_of_nassau.notoriety import score
from flotilla.games.pirates_of_nassau.state import PirateAction, PirateMove, PlacedDie, State
from flotilla.games.pirates_of_nassau.tables import Item
from flotilla.rules import IllegalAction, Seat

FREE = (DiscardItem, WalkPlank)


def core(state: State, seat: int) -> tuple[object, ...]:
    """Legal actions without the free activities."""
    return tuple(a for a in RULES.legal_actions(state, Seat(seat)) if not isinstance(a, FREE))


def step3_gain(state: State, seat: int) -> int:
    before = state.players[seat].notoriety
    after, _ = score(state, 3, (Seat(seat),), 0, cash_wind=False, fiddler=False, events=[])
    return after.players[seat].notoriety - before


class TestPNS1AnjaAndJonahMove:
    def start(self) -> State:
        anja = a_player(2, dice=(3, 5, 6))
        jonah = a_player(5, dice=(1, 2, 4))
        return a_state([anja, jonah], PirateMove(order=order(0, 1), turn=0))

    def test_the_seed_moves_leave_the_dice_trail(self) -> None:
        s, _ = play(
            self.start(),
            (0, Move(3, MoveKind.VALUE)),
            (0, Pass()),
            (1, Move(1, MoveKind.LAYOVER_7)),
            (1, Pass()),
            (0, Move(5, MoveKind.FORWARD)),
            (0, Pass()),
            (1, Move(2, MoveKind.LAYOVER_14)),
            (1, Pass()),
            (0, Move(6, MoveKind.BACK)),
            (0, Pass()),
            (1, Move(4, MoveKind.FORWARD)),
        )
        anja, jonah = s.players
        assert anja.trail == (PlacedDie(3, 3, False), PlacedDie(5, 8, False), PlacedDie(6, 2, False))
        assert jonah.trail == (PlacedDie(1, 7, False), PlacedDie(2, 14, False), PlacedDie(4, 18, False))
        assert (anja.space, jonah.space) == (2, 18)
        assert anja.dice == ()
        assert jonah.dice == ()

    def test_the_layover_you_stand_on_is_not_a_move(self) -> None:
        s, _ = play(
            self.start(),
            (0, Move(3, MoveKind.VALUE)),
            (0, Pass()),
            (1, Move(1, MoveKind.LAYOVER_7)),
            (1, Pass()),
            (0, Move(5, MoveKind.FORWARD)),
            (0, Pass()),
        )
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(1), Move(2, MoveKind.LAYOVER_7))
        assert Move(2, MoveKind.LAYOVER_14) in RULES.legal_actions(s, Seat(1))


class TestPNS2AnjaPlunders:
    def test_plunder_with_c22_takes_the_ship_and_its_loot(self) -> None:
        anja = a_player(2, space=3, dice=(5, 6), trail=(PlacedDie(3, 3, False),))
        s0 = a_state([anja, a_player(5, dice=(1, 2, 4))], PirateAction(order=order(0, 1), turn=0), routes={3: "Z1-09"})
        s, events = play(s0, (0, Plunder("C22")))
        p = s.players[0]
        assert p.plundered == ("Z1-09",)
        assert all(r.space != 3 for r in s.routes)
        assert p.hold == hold(p=1, g=1, r=2)
        assert "C22" not in p.hand
        assert step3_gain(s, 0) == 4
        fought = events[0]
        assert (fought.sail, fought.cannon, fought.success) == (3, 3, True)  # type: ignore[attr-defined]


class TestPNS3JonahRidesTheTradeWinds:
    def on_layover(self, **kw: object) -> State:
        jonah = a_player(5, space=7, dice=(2, 4), trail=(PlacedDie(1, 7, False),), **kw)
        return a_state(
            [a_player(2, dice=(5, 6), space=3), jonah],
            PirateAction(order=order(0, 1), turn=1),
            routes={3: "Z1-09"},
        )

    def test_riding_gives_one_token(self) -> None:
        s, _ = play(self.on_layover(), (1, RideTradeWinds()))
        assert s.players[1].wind_held
        assert s.supply.winds == 9

    def test_case_a_a_second_token_is_refused_while_one_is_held(self) -> None:
        s, _ = play(
            self.on_layover(),
            (1, RideTradeWinds()),
            (0, Move(5, MoveKind.FORWARD)),
            (0, Pass()),
            (1, Move(2, MoveKind.LAYOVER_14)),
        )
        assert RideTradeWinds() not in RULES.legal_actions(s, Seat(1))
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(1), RideTradeWinds())

    def test_case_b_the_spent_token_lies_under_the_die(self) -> None:
        s, _ = play(
            self.on_layover(),
            (1, RideTradeWinds()),
            (0, Move(5, MoveKind.FORWARD)),
            (0, Pass()),
            (1, Move(4, MoveKind.FORWARD, wind=1)),
        )
        jonah = s.players[1]
        assert jonah.space == 12
        assert jonah.trail[-1] == PlacedDie(4, 12, True)
        assert not jonah.wind_held
        assert jonah.winds_spent == 1
        actions = core(s, 1)
        assert RideTradeWinds() not in actions
        assert {type(a) for a in actions} == {Pass, Smuggle, Raid}
        assert step3_gain(s, 1) == 0
        after, _ = score(s, 3, (Seat(1),), 0, cash_wind=True, fiddler=False, events=[])
        assert after.supply.winds == 10

    def test_case_c_minus_one_and_the_value_floor(self) -> None:
        s, _ = play(self.on_layover(), (1, RideTradeWinds()), (0, Move(5, MoveKind.FORWARD)), (0, Pass()))
        back, _ = play(s, (1, Move(2, MoveKind.BACK, wind=-1)))
        forward, _ = play(s, (1, Move(2, MoveKind.FORWARD, wind=-1)))
        assert (back.players[1].space, forward.players[1].space) == (6, 8)
        one = a_state(
            [a_player(2, dice=(5, 6), space=3), a_player(5, space=7, dice=(1, 4), wind_held=True)],
            PirateMove(order=order(0, 1), turn=3),
        )
        with pytest.raises(IllegalAction):
            RULES.apply(one, Seat(1), Move(1, MoveKind.FORWARD, wind=-1))

    def test_case_d_an_empty_supply_refuses_the_winds(self) -> None:
        others = [a_player(n, winds_spent=3, dice=()) for n in (1, 2, 3)]
        rider = a_player(9, space=7, dice=(), winds_spent=1)
        s = a_state([*others, rider], PirateAction(order=order(0, 1, 2, 3), turn=11))
        assert s.supply.winds == 0
        assert RideTradeWinds() not in RULES.legal_actions(s, Seat(3))
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(3), RideTradeWinds())


class TestPNS4EwanRaidsLaHavana:
    def test_a_great_cannon_raid_succeeds(self) -> None:
        ewan = a_player(3, space=1, dice=(2, 3), fitted={"BOW-H1": "HULL-11"})
        s0 = a_state([ewan, a_player(4, dice=(1, 2, 4))], PirateAction(order=order(0, 1), turn=0))
        s, events = play(s0, (0, Raid("C33")))
        assert events[0].cannon == 6  # type: ignore[attr-defined]
        assert s.players[0].hold == hold(p=2)
        assert s.sacked == (1,)
        assert step3_gain(s, 0) == 10
        s, _ = play(s, (1, Move(1, MoveKind.VALUE)))
        assert core(s, 1) == (Pass(),)


class TestPNS8JollyRoger:
    def test_a_tie_fails_the_plunder(self) -> None:
        f = a_player(2, space=6, dice=(2, 3))
        s0 = a_state([f, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={6: "Z1-18"})
        s, _ = play(s0, (0, Plunder("C22")))
        assert s.players[0].plundered == ()
        assert any(r.card == "Z1-18" for r in s.routes)
        assert "C22" not in s.players[0].hand

    def test_the_jolly_roger_turns_ties_into_success(self) -> None:
        f = a_player(2, space=6, dice=(2, 3), sections=1, fitted={"BRIG-M1": "MAST-29"})
        s0 = a_state([f, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={6: "Z1-18"})
        s, _ = play(s0, (0, Boost("MAST-29")), (0, Plunder("C22")))
        p = s.players[0]
        assert p.hold == hold(p=1, g=1, r=1, h=1)
        assert "MAST-29" in p.face_down
        assert step3_gain(s, 0) == 5


class TestPNS13SpanishPortAndRansom:
    def at_veracruz(self) -> State:
        h = a_player(
            2,
            space=20,
            dice=(2,),
            hold=hold(p=3, g=2, h=1),
            fitted={"BOW-X1": "CREW-27", "STERN-X1": "CREW-35"},
        )
        return a_state([h, a_player(4)], PirateAction(order=order(0, 1), turn=2))

    def test_a_full_hold_cannot_smuggle_or_ransom(self) -> None:
        s = self.at_veracruz()
        for action in (Smuggle(Item.PESO, 1), Ransom(False)):
            with pytest.raises(IllegalAction):
                RULES.apply(s, Seat(0), action)

    def test_discard_then_smuggle_one_peso_then_ransom_with_the_cabin_boy(self) -> None:
        s, _ = play(self.at_veracruz(), (0, DiscardItem(Item.GOODS)))
        assert Smuggle(Item.PESO, 2) not in RULES.legal_actions(s, Seat(0))
        assert not any(isinstance(a, Smuggle) and a.item is Item.PESO and a.cook for a in core(s, 0))
        s, _ = play(s, (0, Smuggle(Item.PESO, 1)))
        assert s.players[0].hold == hold(p=4, g=1, h=1)
        s, events = play(s, (0, Ransom(cabin_boy=True)))
        p = s.players[0]
        assert p.hold == hold(p=5, g=1)
        assert events[0].pesos == 1  # type: ignore[attr-defined]
        assert "CREW-35" in p.face_down
        assert s.supply.hostages == 7

    def test_discarding_the_last_goods_first_fits_two_ransom_pesos(self) -> None:
        s, _ = play(
            self.at_veracruz(),
            (0, DiscardItem(Item.GOODS)),
            (0, Smuggle(Item.PESO, 1)),
            (0, DiscardItem(Item.GOODS)),
            (0, Ransom(cabin_boy=True)),
        )
        assert s.players[0].hold == hold(p=6)

    def test_the_cook_adds_one_rum_at_curacao(self) -> None:
        h = a_player(2, space=18, dice=(2,), hold=hold(p=2), fitted={"BOW-X1": "CREW-27"})
        s0 = a_state([h, a_player(4)], PirateAction(order=order(0, 1), turn=2))
        assert not any(isinstance(a, Smuggle) and a.item is Item.PESO for a in core(s0, 0))
        s, _ = play(s0, (0, Smuggle(Item.RUM, 2, cook=True)))
        assert s.players[0].hold == hold(p=2, r=3)


class TestPNS15Clamping:
    def test_back_clamps_to_one(self) -> None:
        s0 = a_state([a_player(2, space=3, dice=(6,)), a_player(4)], PirateMove(order=order(0, 1), turn=4))
        s, _ = play(s0, (0, Move(6, MoveKind.BACK)))
        assert s.players[0].space == 1

    def test_forward_clamps_to_twenty(self) -> None:
        s0 = a_state([a_player(2, space=18, dice=(5,)), a_player(4)], PirateMove(order=order(0, 1), turn=4))
        s, _ = play(s0, (0, Move(5, MoveKind.FORWARD)))
        assert s.players[0].space == 20

    def test_a_first_move_above_seven_stops_at_the_layover(self) -> None:
        pilot = a_player(2, dice=(1, 2, 6), fitted={"BOW-X1": "CREW-17"})
        s0 = a_state([pilot, a_player(4)], PirateMove(order=order(0, 1), turn=0))
        s, events = play(s0, (0, Move(6, MoveKind.VALUE, pilot=2)))
        assert events[0].value == 8  # type: ignore[attr-defined]
        assert s.players[0].space == 7
        assert "CREW-17" in s.players[0].face_down


class TestLoot:
    def test_a_short_hold_picks_which_loot_to_keep(self) -> None:
        f = a_player(2, space=6, dice=(2, 3), hold=hold(w=4))
        s0 = a_state([f, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={6: "Z1-09"})
        s, _ = play(s0, (0, Plunder("C33")))
        choices = RULES.legal_actions(s, Seat(0))
        loot = [a for a in choices if isinstance(a, TakeLoot)]
        assert RULES.default_action(s, Seat(0)) == TakeLoot(1, 0, 1, 0, 0)
        assert TakeLoot(0, 0, 0, 2, 0) in loot
        s, _ = play(s, (0, TakeLoot(0, 0, 0, 2, 0)))
        assert s.players[0].hold == hold(w=4, r=2)

    def test_base_sail_counts_topsails(self) -> None:
        assert base_sail(a_player(1, fitted={"STERN-S1": "MAST-01", "STERN-S2": "MAST-02"})) == 3
