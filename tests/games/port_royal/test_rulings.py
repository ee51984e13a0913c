"""Errors, timeout defaults, config validation and the spec's rulings (§9)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pr_builders import A, B, C, a_state, coins_of, next_draw, play, vp_of

from flotilla.games.port_royal import RULES, Config, Mode
from flotilla.games.port_royal.actions import (
    AdmitShip,
    CompleteContract,
    DeclineContract,
    DiscoverCard,
    FulfillExpedition,
    HirePerson,
    KeepTimeCard,
    MoveTimeCard,
    Pass,
    RepelShip,
    StopDiscovering,
    TradeShip,
)
from flotilla.games.port_royal.events import (
    CardRevealed,
    CoinReason,
    CoinsGained,
    CoinsPaid,
    CollectionDiscarded,
    ContractCompleted,
    DrawPileReshuffled,
)
from flotilla.games.port_royal.state import (
    Contract,
    Discover,
    Finished,
    Gamester,
    Jinx,
    Repel,
    TaxOfficer,
    TimeCard,
    Window,
)
from flotilla.games.port_royal.tables import MAX_TURNS
from flotilla.rules import GameFinished, IllegalAction, InvalidAction, InvalidConfig, NotYourTurn, Seat
from flotilla.rules.options import config_from_options

COMP = Mode.CONTRACT_COMP
COOP = Mode.CONTRACT_COOP
FOUR = (Contract("C01"), Contract("C02"), Contract("C06"), Contract("C09"))


class TestErrors:
    def test_not_your_turn_is_checked_before_the_action(self) -> None:
        s = a_state()
        with pytest.raises(NotYourTurn):
            RULES.apply(s, B, TradeShip("nonsense"))

    def test_unknown_card_is_invalid(self) -> None:
        s = a_state(harbor=("Y01",), phase=Window(A, 1))
        with pytest.raises(InvalidAction):
            RULES.apply(s, A, TradeShip("ZZ9"))
        with pytest.raises(InvalidAction):
            RULES.apply(s, A, "pass")  # type: ignore[arg-type]

    def test_first_card_is_mandatory(self) -> None:
        s = a_state(revealed=0)
        assert RULES.legal_actions(s, A) == (DiscoverCard(),)
        with pytest.raises(IllegalAction):
            RULES.apply(s, A, StopDiscovering())

    def test_illegal_takes_leave_the_state_unchanged(self) -> None:
        s = a_state(harbor=("Y01", "SA1"), phase=Window(A, 1), coins={0: 1})
        for action in (TradeShip("B01"), HirePerson("Y01"), TradeShip("Y01", B), HirePerson("SA1")):
            with pytest.raises(IllegalAction):
                RULES.apply(s, A, action)
        assert s == a_state(harbor=("Y01", "SA1"), phase=Window(A, 1), coins={0: 1})

    def test_special_ship_needs_a_recipient_other_than_the_taker(self) -> None:
        s = a_state(mode=Mode.BASE_PLUS, harbor=("Y12",), phase=Window(A, 1))
        assert RULES.legal_actions(s, A)[:2] == (TradeShip("Y12", B), TradeShip("Y12", C))
        for bad in (TradeShip("Y12"), TradeShip("Y12", A)):
            with pytest.raises(IllegalAction):
                RULES.apply(s, A, bad)

    def test_expedition_persons_must_be_in_canonical_order(self) -> None:
        s = a_state(displays={0: ("CA1", "CA2")}, expeditions=("EX1",))
        with pytest.raises(IllegalAction):
            RULES.apply(s, A, FulfillExpedition("EX1", ("CA2", "CA1")))
        RULES.apply(s, A, FulfillExpedition("EX1", ("CA1", "CA2")))

    def test_no_action_after_the_end(self) -> None:
        s = replace(a_state(), phase=Finished())
        assert RULES.to_act(s) == frozenset()
        with pytest.raises(GameFinished):
            RULES.apply(s, A, DiscoverCard())


class TestDefaults:
    def test_discover_defaults(self) -> None:
        assert RULES.default_action(a_state(revealed=0), A) == DiscoverCard()
        assert RULES.default_action(a_state(revealed=2), A) == StopDiscovering()

    def test_repel_only_when_keeping_would_bust(self) -> None:
        s = a_state(displays={0: ("SA1",)}, harbor=("Y01",), phase=Repel("Y02"))
        assert RULES.default_action(s, A) == RepelShip()
        s = a_state(displays={0: ("SA1",)}, phase=Repel("Y02"))
        assert RULES.default_action(s, A) == AdmitShip()

    def test_decisions_default_to_no(self) -> None:
        assert RULES.default_action(a_state(phase=Window(A, 1)), A) == Pass()
        assert RULES.default_action(a_state(phase=Gamester(("C14",))), A) == DeclineContract("C14")
        assert RULES.default_action(a_state(phase=Jinx()), A) == DeclineContract("C11")
        assert RULES.default_action(a_state(phase=TaxOfficer("TX1", (B,))), B) == DeclineContract("C03")
        assert RULES.default_action(a_state(phase=TimeCard()), A) == KeepTimeCard()


class TestConfig:
    @pytest.mark.parametrize(
        "kwargs",
        [
            {"seats": 1},
            {"seats": 6},
            {"seats": 1, "mode": COMP},
            {"seats": 2, "difficulty": 1},
            {"seats": 2, "mode": COOP, "difficulty": 14},
            {"seats": 2, "mode": COOP, "difficulty": -1},
        ],
    )
    def test_rejected(self, kwargs: dict[str, object]) -> None:
        with pytest.raises(InvalidConfig):
            Config(**kwargs)  # type: ignore[arg-type]

    def test_from_wire_options(self) -> None:
        config = config_from_options(Config, 1, {"mode": "contract_coop", "difficulty": "3"})
        assert config == Config(seats=1, mode=COOP, difficulty=3)
        state = RULES.new_game(config, 9)
        assert len(state.victory_pile) == 3


class TestBaseRulings:
    def test_r5_active_jester_gets_nothing_on_an_empty_harbor(self) -> None:
        s = a_state(displays={0: ("JE1",), 1: ("JE2",)})
        s, _ = play(s, A, StopDiscovering())
        assert coins_of(s) == (0, 1, 0)
        assert s.active == B  # every window had nothing to take

    def test_r6_governor_hired_mid_window_adds_no_take(self) -> None:
        s = a_state(harbor=("GO1", "Y01"), phase=Window(A, 1), coins={0: 8})
        s, _ = play(s, A, HirePerson("GO1"))
        assert s.phase == Window(B, 1)

    def test_governor_raises_every_window_and_each_card_costs_the_fee(self) -> None:
        s = a_state(harbor=("Y01", "B01"), phase=Window(A, 1), displays={1: ("GO1",)}, coins={1: 0})
        s, _ = play(s, A, Pass())
        assert s.phase == Window(B, 2)
        s, _ = play(s, B, TradeShip("Y01"), TradeShip("B01"))
        assert coins_of(s) == (2, 0, 0)

    def test_r10_most_swords_tie_at_zero_pays_everybody(self) -> None:
        s = a_state(keep=("TX1",))
        s, _ = play(next_draw(s, "TX1"), A, DiscoverCard())
        assert coins_of(s) == (1, 1, 1)

    def test_r11_empty_piles_end_phase_one_and_shorten_gains(self) -> None:
        s = a_state(harbor=("Y01",), revealed=1)
        # Every other card sits in A's coin stack: both piles are empty.
        s = replace(s, draw_pile=(), players=(replace(s.players[0], coins=s.draw_pile), *s.players[1:]))
        RULES.check_invariants(s)
        s, events = play(s, A, DiscoverCard())
        assert s.phase == Window(A, 1)
        s, events = play(s, A, TradeShip("Y01"))
        assert CoinsGained(A, 1, CoinReason.SHIP) in events  # the traded ship was reshuffled and drawn
        assert any(isinstance(e, DrawPileReshuffled) for e in events)
        assert s.reshuffled == ("Y01",)

    def test_expedition_options_list_every_choice_of_persons(self) -> None:
        s = a_state(displays={0: ("CA1", "CA2", "JT1")}, expeditions=("EX1",))
        options = [a for a in RULES.legal_actions(s, A) if isinstance(a, FulfillExpedition)]
        assert options == [
            FulfillExpedition("EX1", ("CA1", "CA2")),
            FulfillExpedition("EX1", ("CA1", "JT1")),
            FulfillExpedition("EX1", ("CA2", "JT1")),
        ]

    def test_expedition_in_the_window_of_the_active_player(self) -> None:
        s = a_state(displays={0: ("CA1", "CA2")}, expeditions=("EX1",), harbor=("Y01",), phase=Window(A, 1))
        s, _ = play(s, A, FulfillExpedition("EX1", ("CA1", "CA2")))
        assert vp_of(s, A) == 4
        assert s.phase == Window(A, 1)

    def test_turn_cap_ends_the_game(self) -> None:
        s = a_state(active=C, turn=MAX_TURNS, phase=Window(B, 1), harbor=("Y01",))
        s, _ = play(s, B, Pass())
        assert isinstance(s.phase, Finished)
        assert RULES.result(s) is not None


class TestContractRulings:
    def test_r19_jack_does_not_replace_a_named_person(self) -> None:
        contracts = (Contract("C01"), Contract("C02"), Contract("C06"), Contract("C09"))
        s = a_state(mode=COMP, displays={0: ("JT1", "MA1")}, contracts=contracts)
        assert CompleteContract("C01") not in RULES.legal_actions(s, A)
        s = a_state(mode=COMP, displays={0: ("CA1", "MA1")}, contracts=contracts)
        s, _ = play(s, A, CompleteContract("C01"))
        assert s.players[A].display == ("CA1", "MA1")  # persons are not used up

    def test_r21_cheap_staff_uses_printed_cost(self) -> None:
        contracts = (Contract("C15"), *FOUR[:3])
        s = a_state(mode=COMP, displays={0: ("SA1", "SA2", "TK1", "SA8", "MA1", "MA2")}, contracts=contracts)
        assert CompleteContract("C15") not in RULES.legal_actions(s, A)
        s = a_state(mode=COMP, displays={0: ("SA1", "SA2", "TK1", "TR1")}, contracts=contracts)
        assert CompleteContract("C15") in RULES.legal_actions(s, A)

    def test_non_active_completes_only_in_own_window(self) -> None:
        s = a_state(mode=COMP, displays={1: ("TK1", "TR1")}, contracts=FOUR, harbor=("Y01",), phase=Window(A, 1))
        assert CompleteContract("C06") not in RULES.legal_actions(s, A)
        s, _ = play(s, A, Pass())
        assert CompleteContract("C06") in RULES.legal_actions(s, B)
        s, events = play(s, B, CompleteContract("C06"))
        assert ContractCompleted(B, "C06", 1, 3, 0) in events

    def test_r26_third_contract_gives_two_tokens_and_no_fourth(self) -> None:
        contracts = (
            Contract("C01", slots=(A,)),
            Contract("C02", slots=(A,)),
            Contract("C06"),
            Contract("C08"),
        )
        s = a_state(mode=COMP, displays={0: ("TK1", "TR1", "SA1", "PI1")}, contracts=contracts)
        assert vp_of(s, A) == 4 + 1
        s, _ = play(s, A, CompleteContract("C06"))
        assert s.players[A].tokens == 3
        assert vp_of(s, A) == 4 + 3
        assert CompleteContract("C08") not in RULES.legal_actions(s, A)

    def test_r22_refused_special_ship_gives_no_gift_but_clerk_counts(self) -> None:
        contracts = (Contract("C04"), *FOUR[:3])
        s = a_state(
            mode=COMP,
            displays={0: ("CLR", "TR1")},
            contracts=contracts,
            harbor=("R12", "Y01"),
            phase=Window(A, 1),
        )
        s, events = play(s, A, TradeShip("R12", None, True))
        assert not [e for e in events if isinstance(e, CoinsGained)]
        assert s.phase == Window(A, 1)  # 1 - 1 + red Clerk

    def test_r24_jinx_at_the_bust(self) -> None:
        contracts = (Contract("C11"), *FOUR[:3])
        s = a_state(mode=COMP, displays={0: ("JE1",)}, contracts=contracts, harbor=("Y01",), keep=("Y02",))
        s, _ = play(next_draw(s, "Y02"), A, DiscoverCard())
        assert s.phase == Jinx()
        s, events = play(s, A, CompleteContract("C11"))
        gains = [e for e in events if isinstance(e, CoinsGained)]
        assert gains == [CoinsGained(A, 1, CoinReason.CONTRACT), CoinsGained(A, 1, CoinReason.JESTER)]
        assert s.active == B

    def test_r23_gamester_only_when_a_ship_adds_a_colour(self) -> None:
        contracts = (Contract("C14"), *FOUR[:3])
        s = a_state(mode=COMP, contracts=contracts, harbor=("Y01", "B01", "G01", "SA1"), keep=("SA2", "R01"))
        s, _ = play(next_draw(s, "SA2"), A, DiscoverCard())
        assert s.phase == Discover()
        s, _ = play(next_draw(s, "R01"), A, DiscoverCard())
        assert s.phase == Gamester(("C14",))
        s, events = play(s, A, CompleteContract("C14"))
        assert ContractCompleted(A, "C14", 1, 2, 0) in events

    def test_r25_pack_of_pirates_collection_and_completion(self) -> None:
        contracts = (Contract("C12"), *FOUR[:3])
        s = a_state(
            mode=COMP,
            contracts=contracts,
            displays={0: ("PI1", "PI2", "SA1")},
            collections={0: ("Y01", "B01", "G01")},
            keep=("R01", "K01", "K02"),
        )
        s, _ = play(next_draw(s, "K01"), A, DiscoverCard(), RepelShip())
        assert s.players[A].collection == ("Y01", "B01", "G01", "K01")
        s, _ = play(next_draw(s, "K02"), A, DiscoverCard(), RepelShip())
        assert s.discard[-1] == "K02"
        assert CompleteContract("C12") not in RULES.legal_actions(s, A)
        s, _ = play(next_draw(s, "R01"), A, DiscoverCard(), RepelShip())
        s, events = play(s, A, CompleteContract("C12"))
        assert s.discard[-5:] == ("Y01", "B01", "G01", "R01", "K01")
        assert ContractCompleted(A, "C12", 1, 3, 0) in events
        assert s.players[A].collection == ()

    def test_r25_collection_is_dropped_when_no_cube_is_left(self) -> None:
        contracts = (Contract("C12"), Contract("C01", slots=(A,)), Contract("C02", slots=(A,)), Contract("C08"))
        s = a_state(
            mode=COMP,
            contracts=contracts,
            displays={0: ("SA1", "PI1")},
            collections={0: ("Y01",)},
        )
        s, events = play(s, A, CompleteContract("C08"))
        assert CollectionDiscarded(A, ("Y01",)) in events
        assert s.players[A].collection == ()

    def test_tax_officer_asks_only_taxed_players(self) -> None:
        contracts = (Contract("C03"), *FOUR[:3])
        s = a_state(mode=COMP, coins={0: 12, 1: 11}, contracts=contracts, keep=("TX3",))
        s, _ = play(next_draw(s, "TX3"), A, DiscoverCard())
        assert s.phase == TaxOfficer("TX3", (A,))
        s, _ = play(s, A, DeclineContract("C03"))
        assert s.phase == Discover()


class TestCoopRulings:
    OPEN = (Contract("C01"), Contract("C02"), Contract("C06"), Contract("C17"), Contract("C18"))

    def test_first_card_from_the_time_pile_then_the_draw_pile(self) -> None:
        s = a_state(mode=COOP, seats=2, contracts=self.OPEN, revealed=0, time_pile=("SE1", "Y03"))
        s, events = play(s, A, DiscoverCard())
        assert next(e for e in events if isinstance(e, CardRevealed)).from_time_pile
        assert len(s.time_pile) == 1
        s, events = play(s, A, DiscoverCard())
        assert not next(e for e in events if isinstance(e, CardRevealed)).from_time_pile
        assert len(s.time_pile) == 1

    def test_no_time_card_decision_when_the_time_pile_is_empty(self) -> None:
        s = a_state(mode=COOP, seats=2, contracts=self.OPEN, revealed=0, time_pile=("TX1",))
        s, _ = play(next_draw(s, "TX1", pile="time_pile"), A, DiscoverCard())
        assert s.phase == Discover()
        s = a_state(mode=COOP, seats=2, contracts=self.OPEN, revealed=0, time_pile=("TX1", "Y01"))
        s, _ = play(next_draw(s, "TX1", pile="time_pile"), A, DiscoverCard())
        assert s.phase == TimeCard()
        assert MoveTimeCard() in RULES.legal_actions(s, A)

    def test_twelve_vp_does_not_end_the_coop_game(self) -> None:
        s = a_state(
            mode=COOP,
            seats=2,
            contracts=self.OPEN,
            displays={0: ("MA3", "MA4", "JE5", "AD5")},
            time_pile=("Y01", "Y02"),
            harbor=("Y03",),
            phase=Window(B, 1),
        )
        s, _ = play(s, B, Pass())
        assert s.active == B
        assert s.phase == Discover()

    def test_royal_household_and_ransom(self) -> None:
        s = a_state(
            mode=COOP,
            seats=2,
            contracts=self.OPEN,
            displays={0: ("MA3", "MA4", "JE5", "AD5")},
            coins={0: 15},
            time_pile=("Y01",),
        )
        legal = RULES.legal_actions(s, A)
        assert CompleteContract("C17") in legal
        assert CompleteContract("C18") in legal
        paid = s.players[A].coins
        s, events = play(s, A, CompleteContract("C18"))
        assert CoinsPaid(A, 15, None, paid, CoinReason.RANSOM) in events
        assert coins_of(s)[A] == 0

    def test_solo_special_ship_has_no_recipient(self) -> None:
        s = a_state(
            mode=COOP, seats=1, contracts=self.OPEN[:3], harbor=("K12",), phase=Window(A, 1), time_pile=("Y01",)
        )
        assert RULES.legal_actions(s, A)[0] == TradeShip("K12")
        s, _ = play(s, A, TradeShip("K12"))
        assert coins_of(s) == (3,)

    def test_fee_is_paid_in_coop(self) -> None:
        s = a_state(mode=COOP, seats=2, contracts=self.OPEN, harbor=("Y01",), phase=Window(B, 1), time_pile=("Y02",))
        s, _ = play(s, B, TradeShip("Y01"))
        assert coins_of(s) == (1, 0)


class TestSetupAndTokens:
    def test_competitive_setup(self) -> None:
        s = RULES.new_game(Config(seats=3, mode=COMP), 11)
        assert len(s.contracts) == 4
        assert len(s.contract_pile) == 12
        assert s.spare_contracts == ("C17", "C18")
        assert all(c.contract not in {"C17", "C18"} for c in s.contracts)
        assert [len(p.coins) for p in s.players] == [3, 3, 3]
        assert len(s.draw_pile) == 143 - 9

    def test_five_players_start_with_expedition_six(self) -> None:
        s = RULES.new_game(Config(seats=5), 2)
        assert s.expeditions == ("EX6",)
        assert len(s.draw_pile) + 15 == 119

    def test_tokens_fall_back_to_spares_then_a_counter(self) -> None:
        others = (B, C, Seat(3), Seat(4))
        contracts = (
            Contract("C01", slots=(*others, A)),
            Contract("C02", slots=(*others, A)),
            Contract("C06", slots=others),
            Contract("C08"),
        )
        s = a_state(mode=COMP, seats=5, displays={0: ("SA1", "PI1")}, contracts=contracts)
        assert (s.contract_pile, s.spare_contracts, s.token_counters) == ((), ("C17",), 0)
        s, _ = play(s, A, CompleteContract("C08"))
        assert s.players[A].tokens == 3
        assert (s.spare_contracts, s.token_counters) == ((), 1)
        RULES.check_invariants(s)
