"""Tricky rulings, illegal moves and timer defaults (spec sections 4, 5 and 9)."""

from __future__ import annotations

import pytest
from nav_builders import A, B, C, a_player, a_state, ships_of

from flotilla.games.navegador import RULES_V1 as RULES  # version 1: one-shot placements and fleets
from flotilla.games.navegador.actions import (
    BuyKnight,
    BuyShips,
    BuyWorkers,
    ChooseBuilding,
    ConsumeGood,
    DeclineBuilding,
    DeclineKnight,
    MoveMarker,
    PlaceMarker,
    PlaceOnBuilding,
    PlaceOnColony,
    Relocate,
    ReturnToLisbon,
    SacrificeShip,
    SailFleet,
    SellGoods,
    StopColonizing,
    StopSailing,
)
from flotilla.games.navegador.config import Config
from flotilla.games.navegador.events import (
    GoodsSold,
    IncomeReceived,
    MarkerMoved,
    MarkerPlaced,
    SailingStopped,
    ShipsBought,
    TurnStarted,
)
from flotilla.games.navegador.invariants import check_invariants
from flotilla.games.navegador.state import (
    Buildings,
    Colonies,
    Consume,
    Displaced,
    Draft,
    Finished,
    Knight,
    PayShips,
    Rondel,
    Sailing,
    Sell,
    Ships,
    State,
    Workers,
)
from flotilla.games.navegador.tables import Good, Space
from flotilla.rules import (
    CannotAfford,
    GameFinished,
    IllegalAction,
    InvalidAction,
    InvalidConfig,
    NotYourTurn,
    Seat,
)
from flotilla.rules.options import config_from_options

NO_MOVES = (0,) * 13


def act(state: State, seat: Seat, action: object) -> State:
    after, events = RULES.apply(state, seat, action)
    assert events
    check_invariants(after)
    return after


class TestSetup:
    def test_config_rejects_bad_seat_counts(self) -> None:
        for seats in (1, 6):
            with pytest.raises(InvalidConfig):
                Config(seats=seats)
        assert config_from_options(Config, 4, {"random_colours": "true"}) == Config(seats=4, random_colours=True)

    def test_new_game_gives_the_seed_start(self) -> None:
        state = RULES.new_game(Config(seats=4), 2024)
        for p in state.players:
            assert (p.money, p.lisbon, p.knights, p.rondel) == (100, 3, 1, None)
            assert p.ships[0] == 3
            assert sum(p.ships) == 3
        assert state.cubes == (5, 5, 5)
        assert (state.knight_phase, state.knight_step, state.knights_sold) == (1, 0, 0)
        assert state.phase == Draft(chooser=state.start_player, picks_left=4)

    def test_building_draft_goes_clockwise_and_only_to_empty_buildings(self) -> None:
        state = RULES.new_game(Config(seats=3), 7)
        first = state.start_player
        state = act(state, first, ChooseBuilding("B3"))
        second = Seat((first + 1) % 3)
        assert RULES.to_act(state) == frozenset({second})
        assert ChooseBuilding("B3") not in RULES.legal_actions(state, second)
        with pytest.raises(IllegalAction):
            RULES.apply(state, second, ChooseBuilding("B3"))
        assert RULES.default_action(state, second) == ChooseBuilding("B1")
        state = act(state, second, ChooseBuilding("B1"))
        state, events = RULES.apply(state, Seat((first + 2) % 3), ChooseBuilding("B7"))
        assert events[-1] == TurnStarted(first, 1)
        assert state.phase == Rondel(active=first)
        assert all(p.lisbon == 2 for p in state.players)
        assert sorted(h.owner for h in state.buildings if h.owner is not None) == [0, 1, 2]


class TestRondel:
    def test_first_placement_is_free_and_anywhere(self) -> None:
        state = a_state(players={0: a_player(money=60, rondel=None)})
        assert RULES.legal_actions(state, A) == tuple(PlaceMarker(s) for s in Space)
        assert RULES.default_action(state, A) == PlaceMarker(Space.SAILING)
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, MoveMarker(1))
        after = act(state, A, PlaceMarker(Space.SHIPS))
        assert after.players[A].rondel is Space.SHIPS
        assert (after.players[A].money, sum(after.players[A].ships)) == (60, 3)
        assert after.phase == Ships(active=A)

    def test_a_decision_with_one_option_is_taken_at_once(self) -> None:
        state = a_state(players={0: a_player(money=0, rondel=None)})
        after, events = RULES.apply(state, A, PlaceMarker(Space.SHIPS))
        assert events == (MarkerPlaced(A, Space.SHIPS), ShipsBought(A, 0, 0, 0), TurnStarted(B, 11))
        assert after.phase == Rondel(active=B)

    def test_later_placement_is_refused(self) -> None:
        with pytest.raises(IllegalAction):
            RULES.apply(a_state(), A, PlaceMarker(Space.SHIPS))
        assert RULES.default_action(a_state(), A) == MoveMarker(1)

    def test_leaving_from_knight_does_not_pay_the_50(self) -> None:
        state = a_state(players={0: a_player(money=20, ships={"SR0": 4}, rondel=Space.KNIGHT)})
        after, events = RULES.apply(state, A, MoveMarker(7))
        assert events[0] == MarkerMoved(A, 7, Space.KNIGHT, 4, 0)
        assert after.players[A].money == 20
        assert after.phase == Knight(active=A)

    def test_steps_out_of_range_are_malformed(self) -> None:
        for steps in (-1, 8):
            with pytest.raises(InvalidAction):
                RULES.apply(a_state(), A, MoveMarker(steps))

    def test_player_chooses_which_ships_pay_when_they_sit_in_several_regions(self) -> None:
        state = a_state(players={0: a_player(money=0, ships={"SR0": 1, "SR1": 3})}, tiles={"SR1": 1})
        state, events = RULES.apply(state, A, MoveMarker(5))
        assert events == (MarkerMoved(A, 5, Space.SHIPS, 2, 50),)
        assert state.phase == PayShips(active=A, space=Space.SHIPS, owed=2)
        assert RULES.legal_actions(state, A) == (SacrificeShip("SR0"), SacrificeShip("SR1"))
        assert RULES.default_action(state, A) == SacrificeShip("SR0")
        state = act(state, A, SacrificeShip("SR1"))
        assert state.phase == PayShips(active=A, space=Space.SHIPS, owed=1)
        state = act(state, A, SacrificeShip("SR0"))
        assert ships_of(state, A) == {"SR1": 2}
        assert state.phase == Ships(active=A)

    def test_default_sacrifice_after_portugal_takes_the_largest_fleet(self) -> None:
        state = a_state(
            players={0: a_player(ships={"SR1": 2, "SR2": 2, "SR4": 3})},
            tiles={"SR1": 1, "SR2": 1, "SR4": 1},
            phase=PayShips(active=A, space=Space.SHIPS, owed=2),
        )
        assert RULES.default_action(state, A) == SacrificeShip("SR4")
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SacrificeShip("SR0"))
        with pytest.raises(InvalidAction):
            RULES.apply(state, A, SacrificeShip("SR13"))

    def test_a_player_without_ships_still_moves_up_to_three(self) -> None:
        state = a_state(players={0: a_player(ships={})})
        assert RULES.legal_actions(state, A) == (MoveMarker(1), MoveMarker(2), MoveMarker(3))


class TestPurchases:
    def test_defaults_buy_nothing(self) -> None:
        assert RULES.default_action(a_state(phase=Workers(active=A)), A) == BuyWorkers(0)
        assert RULES.default_action(a_state(phase=Ships(active=A)), A) == BuyShips(0)

    def test_shipyard_gives_a_ship_even_when_buying_none(self) -> None:
        state = a_state(buildings={"B3": (0, 1)}, phase=Ships(active=A))
        assert ships_of(act(state, A, BuyShips(0)), A) == {"SR0": 4}

    def test_legal_purchases_stop_at_what_the_player_can_afford(self) -> None:
        state = a_state(players={0: a_player(money=199)}, phase=Workers(active=A))
        assert RULES.legal_actions(state, A) == (BuyWorkers(0), BuyWorkers(1), BuyWorkers(2))
        with pytest.raises(CannotAfford):
            RULES.apply(state, A, BuyWorkers(3))
        with pytest.raises(InvalidAction):
            RULES.apply(state, A, BuyWorkers(-1))


class TestBuildings:
    def test_taking_a_building_needs_one_more_worker(self) -> None:
        state = a_state(
            players={0: a_player(lisbon=5, rondel=Space.BUILDINGS)},
            buildings={"B7": (1, 2)},
            phase=Buildings(active=A),
        )
        with pytest.raises(IllegalAction, match="at least 3"):
            RULES.apply(state, A, PlaceOnBuilding("B7", 2))
        assert PlaceOnBuilding("B7", 2) not in RULES.legal_actions(state, A)
        assert PlaceOnBuilding("B7", 3) in RULES.legal_actions(state, A)
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, PlaceOnBuilding("B1", 6))
        with pytest.raises(InvalidAction):
            RULES.apply(state, A, PlaceOnBuilding("B8", 1))
        assert RULES.default_action(state, A) == DeclineBuilding()

    def test_residence_pays_on_landing_even_when_declining(self) -> None:
        state = a_state(
            players={0: a_player(money=0, rondel=Space.BUILDINGS)},
            buildings={"B2": (0, 1), "B5": (0, 1)},
            phase=Buildings(active=A),
        )
        state, events = RULES.apply(state, A, DeclineBuilding())
        assert IncomeReceived(A, "B2", 60) in events
        assert state.players[A].money == 60

    def test_reinforcing_an_own_building(self) -> None:
        state = a_state(buildings={"B1": (0, 1)}, phase=Buildings(active=A))
        after = act(state, A, PlaceOnBuilding("B1", 2))
        assert (after.buildings[0].owner, after.buildings[0].workers) == (A, 3)
        assert after.phase == Rondel(active=B)

    def test_displaced_group_may_take_the_active_players_building_and_residence_counts_after(self) -> None:
        state = a_state(
            players={0: a_player(lisbon=3, rondel=Space.BUILDINGS), 1: a_player(seat=1, lisbon=0)},
            buildings={"B2": (0, 1), "B6": (1, 2)},
            phase=Buildings(active=A),
        )
        state = act(state, A, PlaceOnBuilding("B6", 3))
        assert RULES.default_action(state, B) == ReturnToLisbon()
        legal = RULES.legal_actions(state, B)
        assert Relocate("B2") in legal
        assert Relocate("B6") not in legal
        with pytest.raises(IllegalAction):
            RULES.apply(state, B, Relocate("B6"))
        state, events = RULES.apply(state, B, Relocate("B2"))
        assert state.phase == Displaced(active=A, seat=A, workers=1, origin="B2", on_colony=False)
        assert RULES.to_act(state) == frozenset({A})
        state, events = RULES.apply(state, A, ReturnToLisbon())
        check_invariants(state)
        # A lost the Residence in the chain: no income (R16)
        assert not any(isinstance(e, IncomeReceived) for e in events)
        assert state.players[A].money == 110
        assert state.buildings[1].owner == B

    def test_colony_ids_are_not_buildings(self) -> None:
        state = a_state(
            players={0: a_player(lisbon=3, rondel=Space.BUILDINGS)},
            buildings={"B6": (1, 1)},
            phase=Buildings(active=A),
        )
        state = act(state, A, PlaceOnBuilding("B6", 2))
        with pytest.raises(InvalidAction):
            RULES.apply(state, B, Relocate("C01"))


class TestColonies:
    def test_relocating_to_a_colony_needs_a_ship_next_to_it(self) -> None:
        state = a_state(
            players={0: a_player(lisbon=3, ships={"SR1": 1}), 1: a_player(seat=1, ships={"SR0": 1})},
            colonies={"C02": (1, 1)},
            tiles={"SR1": 0},
            phase=Colonies(active=A),
        )
        state = act(state, A, PlaceOnColony("C02", 2))
        assert Relocate("C03") not in RULES.legal_actions(state, B)
        with pytest.raises(IllegalAction, match="ship"):
            RULES.apply(state, B, Relocate("C03"))
        state = act(state, B, Relocate("C01"))
        assert state.phase == Colonies(active=A)
        assert RULES.default_action(state, A) == StopColonizing()

    def test_one_ship_serves_several_colonies(self) -> None:
        state = a_state(
            players={0: a_player(lisbon=3, ships={"SR1": 1}, rondel=Space.COLONY)},
            tiles={"SR1": 0},
            phase=Colonies(active=A),
        )
        state = act(state, A, PlaceOnColony("C02", 1))
        state = act(state, A, PlaceOnColony("C03", 1))
        assert [h.owner for h in state.colonies[1:3]] == [A, A]


class TestSailing:
    def state(self, **kwargs: object) -> State:
        return a_state(
            players={0: a_player(money=0, ships={"SR0": 5}, rondel=Space.SAILING)},
            phase=Sailing(active=A, moved=NO_MOVES, explored=False),
            **kwargs,  # type: ignore[arg-type]
        )

    def test_no_path_through_an_unexplored_region(self) -> None:
        with pytest.raises(IllegalAction, match="no path"):
            RULES.apply(self.state(), A, SailFleet("SR0", 5, "SR2"))
        legal = RULES.legal_actions(self.state(), A)
        assert {a.destination for a in legal if isinstance(a, SailFleet)} == {"SR1"}

    def test_a_fleet_may_split_and_sail_to_explored_regions(self) -> None:
        state = self.state(tiles={"SR1": 1, "SR2": 1})
        state = act(state, A, SailFleet("SR0", 2, "SR1"))
        assert RULES.default_action(state, A) == StopSailing()
        state, events = RULES.apply(state, A, SailFleet("SR0", 3, "SR2"))  # L = 2, one ship lost
        assert ships_of(state, A) == {"SR1": 2, "SR2": 2}
        # no ship can move any more: the action stops by itself
        assert events[-2:] == (SailingStopped(A), TurnStarted(B, 11))

    def test_malformed_fleets(self) -> None:
        state = self.state()
        with pytest.raises(InvalidAction):
            RULES.apply(state, A, SailFleet("SR0", 3, "Lisbon"))
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SailFleet("SR0", 6, "SR1"))
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SailFleet("SR0", 3, "SR0"))


class TestMarket:
    def test_consumption_goes_round_from_the_active_player(self) -> None:
        seller = a_player(seat=2, rondel=Space.MARKET)
        state = a_state(players={2: seller}, colonies={"C01": (2, 1)}, phase=Consume(active=C, chooser=C, left=2))
        state = act(state, C, ConsumeGood(Good.GOLD))
        assert RULES.to_act(state) == frozenset({A})
        state = act(state, A, ConsumeGood(Good.GOLD))
        assert RULES.to_act(state) == frozenset({B})
        state = act(state, B, ConsumeGood(Good.GOLD))
        assert state.phase == Sell(active=C)
        assert state.cubes == (5, 2, 5)

    def test_a_seller_without_goods_ends_the_market_at_once(self) -> None:
        state = a_state(phase=Consume(active=B, chooser=A, left=0))
        _, events = RULES.apply(state, A, ConsumeGood(Good.GOLD))
        assert events[1:] == (GoodsSold(B, 0, 0, 0, 0), TurnStarted(C, 11))

    def test_consumption_never_goes_below_zero(self) -> None:
        state = a_state(
            players={0: a_player(knights=4)},
            knight_step=3,
            cubes=(2, 5, 5),
            phase=Consume(active=A, chooser=A, left=2),
        )
        after = act(state, A, ConsumeGood(Good.SUGAR))
        assert after.cubes == (0, 5, 5)
        assert after.ledger.cubes_removed[0] - state.ledger.cubes_removed[0] == 2

    def test_default_consumes_the_fullest_track_sugar_first(self) -> None:
        state = a_state(cubes=(4, 6, 6), phase=Consume(active=A, chooser=A, left=2))
        assert RULES.default_action(state, A) == ConsumeGood(Good.GOLD)
        state = a_state(cubes=(6, 6, 6), phase=Consume(active=A, chooser=A, left=2))
        assert RULES.default_action(state, A) == ConsumeGood(Good.SUGAR)

    def test_exchange_sells_one_gold_without_colonies(self) -> None:
        state = a_state(buildings={"B6": (0, 1)}, phase=Sell(active=A))
        assert RULES.legal_actions(state, A) == (SellGoods(0, 0, 0), SellGoods(0, 1, 0))
        assert act(state, A, SellGoods(0, 1, 0)).players[A].money == 150
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SellGoods(1, 0, 0))
        assert RULES.default_action(state, A) == SellGoods(0, 0, 0)


class TestKnight:
    def test_buying_needs_the_phase_in_workers(self) -> None:
        state = a_state(players={0: a_player(money=500, lisbon=1)}, knight_phase=2, phase=Knight(active=A))
        assert RULES.legal_actions(state, A) == (DeclineKnight(),)
        with pytest.raises(CannotAfford):
            RULES.apply(state, A, BuyKnight())
        assert RULES.default_action(state, A) == DeclineKnight()

    def test_palace_pays_without_a_purchase(self) -> None:
        state = a_state(
            players={0: a_player(money=0, lisbon=3, rondel=Space.KNIGHT)},
            buildings={"B7": (0, 1)},
            phase=Knight(active=A),
        )
        state, events = RULES.apply(state, A, DeclineKnight())
        assert IncomeReceived(A, "B7", 60) in events


class TestTurnOrder:
    def test_not_your_turn_comes_before_validation(self) -> None:
        state = a_state()
        with pytest.raises(NotYourTurn):
            RULES.apply(state, B, MoveMarker(99))
        with pytest.raises(NotYourTurn):
            RULES.apply(state, B, "garbage")  # type: ignore[arg-type]
        assert RULES.legal_actions(state, B) == ()

    def test_unknown_or_misplaced_actions(self) -> None:
        with pytest.raises(InvalidAction):
            RULES.apply(a_state(), A, "garbage")  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            RULES.apply(a_state(), A, BuyWorkers(1))

    def test_nothing_after_the_end(self) -> None:
        state = a_state(phase=Finished())
        with pytest.raises(GameFinished):
            RULES.apply(state, A, MoveMarker(1))
        assert RULES.to_act(state) == frozenset()
        assert all(RULES.legal_actions(state, Seat(s)) == () for s in range(3))
