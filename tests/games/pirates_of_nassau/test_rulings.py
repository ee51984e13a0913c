"""Tricky rulings, illegal moves and timer defaults."""

from __future__ import annotations

import dataclasses

import pytest
from pn_builders import a_player, a_state, hold, order, play

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.games.pirates_of_nassau.actions import (
    Boost,
    BuySection,
    BuyToken,
    DiscardItem,
    EvadeNavy,
    FinishBurying,
    Move,
    MoveKind,
    Pass,
    Plunder,
    Raid,
    RerollDie,
    Smuggle,
    TakeLoot,
    TakeNavyCard,
)
from flotilla.games.pirates_of_nassau.state import (
    Burying,
    Buying,
    NavyChoice,
    NavyFight,
    PirateAction,
    PirateMove,
)
from flotilla.games.pirates_of_nassau.tables import Item, Resource
from flotilla.rules import CannotAfford, IllegalAction, InvalidAction, InvalidConfig, NotYourTurn, Seat
from flotilla.rules.options import config_from_options


def test_seat_counts() -> None:
    for bad in (1, 6):
        with pytest.raises(InvalidConfig):
            Config(seats=bad)
    assert config_from_options(Config, 3, {}).seats == 3


def test_setup_orders_notoriety_by_the_dice() -> None:
    s = RULES.new_game(Config(seats=5), 42)
    totals = [(sum(p.dice), i) for i, p in enumerate(s.players)]
    ranked = [i for _, i in sorted(totals)]
    assert [s.players[i].notoriety for i in ranked] == [1, 2, 3, 4, 5]
    assert s.phase.order == tuple(ranked)  # type: ignore[union-attr]
    assert len(s.display) == 15
    assert len(s.navy_display) == 5
    assert len(s.routes) == 11


def test_two_players_use_three_of_everything() -> None:
    s = RULES.new_game(Config(seats=2), 7)
    assert len(s.display) == 9
    assert len(s.navy_display) == 3
    assert s.navy.size + 3 == 12 + 7


class TestErrors:
    def state(self) -> object:
        return a_state(
            [a_player(2, space=3, dice=(4, 5)), a_player(4, dice=(1, 2, 3))],
            PirateAction(order=order(0, 1), turn=0),
            routes={3: "Z1-09"},
        )

    def test_the_wrong_seat_is_refused_first(self) -> None:
        s = self.state()
        with pytest.raises(NotYourTurn):
            RULES.apply(s, Seat(1), Plunder("NOPE"))  # type: ignore[arg-type]

    def test_unknown_ids_are_invalid(self) -> None:
        s = self.state()
        for action in (Plunder("C44"), Boost("CREW-99")):
            with pytest.raises(InvalidAction):
                RULES.apply(s, Seat(0), action)  # type: ignore[arg-type]

    def test_raid_on_a_route_is_illegal_and_changes_nothing(self) -> None:
        s = self.state()
        before = dataclasses.replace(s)  # type: ignore[type-var]
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(0), Raid("C33"))  # type: ignore[arg-type]
        assert s == before

    def test_a_boost_for_another_kind_of_fight_is_refused(self) -> None:
        s = a_state(
            [a_player(2, space=3, dice=(4,), fitted={"BOW-X1": "CREW-01"}), a_player(4)],
            PirateAction(order=order(0, 1), turn=0),
            routes={3: "Z1-09"},
        )
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(0), Boost("CREW-01"))  # Boatswain: Royal Navy only

    def test_staged_boosts_forbid_passing(self) -> None:
        s = a_state(
            [a_player(2, space=3, dice=(4,), fitted={"BOW-X1": "CREW-09"}), a_player(4)],
            PirateAction(order=order(0, 1), turn=0),
            routes={3: "Z1-09"},
        )
        s, _ = play(s, (0, Boost("CREW-09")))
        assert Pass() not in RULES.legal_actions(s, Seat(0))
        assert isinstance(RULES.default_action(s, Seat(0)), Plunder)

    def test_a_purchase_you_cannot_pay_is_cannot_afford(self) -> None:
        s = a_state([a_player(9, hold=hold(w=1)), a_player(1)], Buying(order=order(0, 1), index=0))
        with pytest.raises(CannotAfford):
            RULES.apply(s, Seat(0), BuySection())

    def test_the_third_section_does_not_exist(self) -> None:
        s = a_state(
            [a_player(9, sections=2, hold=hold(w=2, g=2, r=2)), a_player(1)], Buying(order=order(0, 1), index=0)
        )
        assert not any(isinstance(a, BuySection) for a in RULES.legal_actions(s, Seat(0)))
        with pytest.raises(IllegalAction):
            RULES.apply(s, Seat(0), BuySection())


class TestTokens:
    def test_crows_nest_rerolls_an_unused_die(self) -> None:
        p = a_player(2, dice=(1, 1, 2), sections=1, fitted={"BRIG-M1": "MAST-26"})
        s0 = a_state([p, a_player(4)], PirateMove(order=order(0, 1), turn=0))
        s, events = play(s0, (0, RerollDie("MAST-26", 1)))
        assert events[0].old == 1  # type: ignore[attr-defined]
        assert sorted(s.players[0].dice) == sorted((1, 2, events[0].new))  # type: ignore[attr-defined]
        assert not any(isinstance(a, RerollDie) for a in RULES.legal_actions(s, Seat(0)))

    def test_great_cannon_does_not_help_a_plunder(self) -> None:
        p = a_player(2, space=3, dice=(4,), fitted={"BOW-H1": "HULL-11"})
        s0 = a_state([p, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={3: "Z1-15"})  # 2/3
        _s, events = play(s0, (0, Plunder("C22")))
        assert events[0].cannon == 3  # type: ignore[attr-defined]
        assert not events[0].success  # type: ignore[attr-defined]

    def test_foresail_counts_only_against_the_navy(self) -> None:
        p = a_player(2, fitted={"STERN-S1": "MAST-13"})
        s0 = a_state([p, a_player(4)], NavyFight(order=order(0, 1), index=0, card="N1-12"))  # 4/4
        _s, events = play(s0, (0, EvadeNavy("C33")))
        assert events[0].sail == 6  # type: ignore[attr-defined]
        assert events[0].successes == 1  # type: ignore[attr-defined]

    def test_replacing_a_token_discards_the_old_one(self) -> None:
        p = a_player(9, hold=hold(w=2, g=1), fitted={"BOW-H1": "HULL-01"})
        s0 = a_state([p, a_player(1)], Buying(order=order(0, 1), index=0), display=("HULL-15",))
        s, _ = play(s0, (0, BuyToken("HULL-15", "BOW-H1")))
        assert s.piles[0].discard == ("HULL-01",)
        assert [f.token for f in s.players[0].fitted] == ["HULL-15"]

    def test_powder_monkey_and_cooper_substitute(self) -> None:
        p = a_player(9, hold=hold(g=2, r=1), fitted={"BOW-X1": "CREW-23", "STERN-X1": "CREW-25"})
        s0 = a_state([p, a_player(1)], Buying(order=order(0, 1), index=0), display=("CREW-41",))
        buy = BuyToken("CREW-41", "BOW-X1", powder_monkey=Resource.GOODS, cooper=Resource.GOODS)
        assert buy in RULES.legal_actions(s0, Seat(0))
        s, _ = play(s0, (0, buy))
        assert s.players[0].hold == hold(r=0)


class TestDefaults:
    def test_first_move_default_is_the_lowest_die_by_value(self) -> None:
        s = a_state([a_player(2, dice=(2, 5, 6)), a_player(4)], PirateMove(order=order(0, 1), turn=0))
        assert RULES.default_action(s, Seat(0)) == Move(2, MoveKind.VALUE)

    def test_navy_default_prefers_an_empty_sea_then_the_easiest_warship(self) -> None:
        s = a_state(
            [a_player(2), a_player(4)], NavyChoice(order=order(0, 1), index=0), navy_display=("N1-12", "N1-01", "N1-05")
        )
        assert RULES.default_action(s, Seat(0)) == TakeNavyCard("N1-01")
        s = a_state(
            [a_player(2), a_player(4)], NavyChoice(order=order(0, 1), index=0), navy_display=("N1-12", "N1-05", "N1-08")
        )
        assert RULES.default_action(s, Seat(0)) == TakeNavyCard("N1-05")

    def test_navy_fight_default_picks_the_cheapest_winning_card(self) -> None:
        s = a_state([a_player(2), a_player(4)], NavyFight(order=order(0, 1), index=0, card="N1-05"))  # 2/2
        assert RULES.default_action(s, Seat(0)) == EvadeNavy("C22")

    def test_burying_default_is_done(self) -> None:
        s = a_state(
            [a_player(9, hold=hold(p=2)), a_player(1)],
            Burying(order=order(0, 1), index=0, hold_before=hold(p=2), face_down_before=()),
        )
        assert RULES.default_action(s, Seat(0)) == FinishBurying()

    def test_smuggle_takes_only_what_the_supply_has(self) -> None:
        others = [a_player(1, hold=hold(r=6)), a_player(3, hold=hold(r=6)), a_player(5, hold=hold(r=6))]
        h = a_player(2, space=18, dice=(2,), hold=hold(r=2))
        s = a_state([*others, h], PirateAction(order=order(0, 1, 2, 3), turn=3))
        assert s.supply.rum == 0
        smuggles = [a for a in RULES.legal_actions(s, Seat(3)) if isinstance(a, Smuggle)]
        assert smuggles == [Smuggle(Item.GOODS, 1), Smuggle(Item.GOODS, 2)]


def test_wrongly_typed_fields_are_invalid() -> None:
    s = a_state([a_player(2, dice=(2, 5, 6)), a_player(4)], PirateMove(order=order(0, 1), turn=0))
    for bad in (Move(2, "VALUE"), Move(True, MoveKind.VALUE), Smuggle("rum", 1)):  # type: ignore[arg-type]
        with pytest.raises(InvalidAction):
            RULES.apply(s, Seat(0), bad)


def test_a_full_hold_may_discard_before_taking_loot() -> None:
    """R24: a successful plunder with no room waits for the loot choice, so the player can make room."""
    p = a_player(2, space=3, dice=(4,), hold=hold(w=6))
    s0 = a_state([p, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={3: "Z1-09"})
    s, _ = play(s0, (0, Plunder("C33")))
    legal = RULES.legal_actions(s, Seat(0))
    assert TakeLoot(0, 0, 0, 0, 0) in legal
    assert DiscardItem(Item.GUNPOWDER) in legal
    s, _ = play(s, (0, DiscardItem(Item.GUNPOWDER)), (0, DiscardItem(Item.GUNPOWDER)))
    assert TakeLoot(1, 0, 0, 1, 0) in RULES.legal_actions(s, Seat(0))
    s, _ = play(s, (0, TakeLoot(0, 0, 0, 2, 0)))
    assert s.players[0].hold == hold(w=4, r=2)
