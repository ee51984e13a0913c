"""The worked examples of the spec (section 10), one test per scenario, with the exact numbers."""

from __future__ import annotations

import pytest
from nav_builders import A, B, C, a_player, a_state, ships_of

from flotilla.games.navegador import RULES_V1 as RULES  # version 1: one-shot placements and fleets
from flotilla.games.navegador.actions import (
    BuyKnight,
    BuyShips,
    BuyWorkers,
    ConsumeGood,
    DeclineKnight,
    MoveMarker,
    PlaceOnBuilding,
    PlaceOnColony,
    Relocate,
    ReturnToLisbon,
    SailFleet,
    SellGoods,
    StopColonizing,
)
from flotilla.games.navegador.events import (
    GameEnded,
    IncomeReceived,
    KnightDeclined,
    RegionExplored,
    SailingStopped,
)
from flotilla.games.navegador.invariants import check_invariants
from flotilla.games.navegador.market import sale_value
from flotilla.games.navegador.scoring import bonus_sum, score
from flotilla.games.navegador.state import (
    Buildings,
    Colonies,
    Consume,
    Displaced,
    Finished,
    Knight,
    Rondel,
    Sailing,
    Sell,
    Ships,
    State,
    Workers,
)
from flotilla.games.navegador.tables import Good, Space, purchase_cost
from flotilla.rules import CannotAfford, IllegalAction, Seat

NO_MOVES = (0,) * 13


def act(state: State, seat: Seat, action: object) -> State:
    after, events = RULES.apply(state, seat, action)
    assert events
    check_invariants(after)
    return after


def sailing(seat: Seat = A) -> Sailing:
    return Sailing(active=seat, moved=NO_MOVES, explored=False)


class TestNvS1BuyingWorkers:
    def state(self, *, church: bool = False) -> State:
        buildings = {"B1": (0, 1)} if church else {}
        player = a_player(money=500, lisbon=2, rondel=Space.WORKERS)
        return a_state(players={0: player}, buildings=buildings, phase=Workers(active=A))

    def test_one_worker_costs_50(self) -> None:
        after = act(self.state(), A, BuyWorkers(1))
        assert (after.players[A].lisbon, after.players[A].money) == (3, 450)

    def test_five_workers_cost_400(self) -> None:
        after = act(self.state(), A, BuyWorkers(5))
        assert (after.players[A].lisbon, after.players[A].money) == (7, 100)

    def test_price_table(self) -> None:
        assert [purchase_cost(k) for k in (0, 1, 2, 3, 4, 5, 6)] == [0, 50, 120, 200, 300, 400, 500]

    def test_church_adds_one_free_worker(self) -> None:
        after = act(self.state(church=True), A, BuyWorkers(5))
        assert (after.players[A].lisbon, after.players[A].money) == (8, 100)

    def test_church_gives_its_worker_even_when_buying_none(self) -> None:
        after = act(self.state(church=True), A, BuyWorkers(0))
        assert (after.players[A].lisbon, after.players[A].money) == (3, 500)


class TestNvS2BuyingShips:
    def state(self, *, money: int = 500, shipyard: bool = False) -> State:
        buildings = {"B3": (0, 1)} if shipyard else {}
        player = a_player(money=money, ships={"SR0": 1, "SR1": 2}, rondel=Space.SHIPS)
        return a_state(players={0: player}, buildings=buildings, tiles={"SR1": 1}, phase=Ships(active=A))

    def test_one_ship_costs_50_and_goes_to_portugal(self) -> None:
        after = act(self.state(), A, BuyShips(1))
        assert ships_of(after, A) == {"SR0": 2, "SR1": 2}
        assert after.players[A].money == 450

    def test_five_ships_cost_400(self) -> None:
        after = act(self.state(), A, BuyShips(5))
        assert ships_of(after, A) == {"SR0": 6, "SR1": 2}
        assert after.players[A].money == 100

    def test_shipyard_adds_one_free_ship(self) -> None:
        after = act(self.state(shipyard=True), A, BuyShips(5))
        assert ships_of(after, A) == {"SR0": 7, "SR1": 2}

    def test_two_ships_with_110_money_are_rejected(self) -> None:
        state = self.state(money=110)
        with pytest.raises(CannotAfford):
            RULES.apply(state, A, BuyShips(2))
        assert BuyShips(2) not in RULES.legal_actions(state, A)


class TestNvS3RondelCosts:
    def state(self, ships: int = 4) -> State:
        player = a_player(money=0, ships={"SR0": ships}, rondel=Space.SAILING)
        return a_state(players={0: player}, phase=Rondel(active=A))

    @pytest.mark.parametrize(
        ("steps", "space", "ships_paid", "bonus"),
        [
            (1, Space.WORKERS, 0, 0),
            (2, Space.MARKET, 0, 0),
            (3, Space.COLONY, 0, 0),
            (4, Space.KNIGHT, 1, 0),
            (5, Space.SHIPS, 2, 50),
            (6, Space.BUILDINGS, 3, 50),
            (7, Space.SAILING, 4, 50),
        ],
    )
    def test_cost_and_passing_bonus(self, steps: int, space: Space, ships_paid: int, bonus: int) -> None:
        after = act(self.state(), A, MoveMarker(steps))
        assert after.players[A].rondel is space
        assert sum(after.players[A].ships) == 4 - ships_paid
        assert after.players[A].money == bonus

    def test_staying_is_rejected(self) -> None:
        with pytest.raises(IllegalAction):
            RULES.apply(self.state(), A, MoveMarker(0))

    def test_seven_steps_with_three_ships_is_rejected(self) -> None:
        state = self.state(ships=3)
        with pytest.raises(CannotAfford):
            RULES.apply(state, A, MoveMarker(7))
        assert MoveMarker(7) not in RULES.legal_actions(state, A)
        assert MoveMarker(6) in RULES.legal_actions(state, A)


class TestNvS4KnightTrack:
    def test_first_knight_of_phase_one(self) -> None:
        player = a_player(money=300, lisbon=3, rondel=Space.KNIGHT)
        state = a_state(players={0: player}, phase=Knight(active=A))
        after = act(state, A, BuyKnight())
        p = after.players[A]
        assert (p.money, p.lisbon, p.knights) == (280, 2, 2)
        assert (after.knight_step, after.knight_phase) == (1, 1)

    def test_fifth_knight_of_phase_one_moves_to_phase_two(self) -> None:
        buyer = a_player(seat=1, money=100, lisbon=4, knights=5, rondel=Space.KNIGHT)
        state = a_state(players={1: buyer}, knight_step=4, phase=Knight(active=B))
        after = act(state, B, BuyKnight())
        assert (after.players[B].money, after.players[B].lisbon) == (0, 3)
        assert (after.knight_phase, after.knight_step, after.knights_sold) == (2, 0, 5)
        # the next buyer pays 20 and 2 workers
        nxt = a_player(seat=2, money=20, lisbon=2, rondel=Space.KNIGHT)
        state = a_state(players={1: buyer, 2: nxt}, knight_phase=2, phase=Knight(active=C))
        after = RULES.apply(state, C, BuyKnight()).state
        assert (after.players[C].money, after.players[C].lisbon) == (0, 0)

    def test_phase_two_gives_fleets_two_free_steps(self) -> None:
        player = a_player(ships={"SR0": 2}, rondel=Space.SAILING)
        others = {1: a_player(seat=1, knights=6)}  # five knights sold in phase I
        state = a_state(players={0: player, **others}, tiles={"SR1": 1, "SR4": 1}, knight_phase=2, phase=sailing())
        after = act(state, A, SailFleet("SR0", 2, "SR4"))
        assert ships_of(after, A) == {"SR4": 2}

    def test_fifteenth_knight_ends_the_game_after_the_palace_income(self) -> None:
        buyer = a_player(seat=2, money=100, lisbon=5, knights=15, rondel=Space.KNIGHT)
        state = a_state(
            players={2: buyer},
            buildings={"B7": (2, 1)},
            knight_phase=3,
            knight_step=4,
            phase=Knight(active=C),
        )
        after, events = RULES.apply(state, C, BuyKnight())
        check_invariants(after)
        assert (after.players[C].lisbon, after.knights_sold) == (2, 15)
        assert after.players[C].money == 0 + 20 * 2
        assert IncomeReceived(C, "B7", 40) in events
        assert isinstance(events[-1], GameEnded)
        assert isinstance(after.phase, Finished)
        assert RULES.to_act(after) == frozenset()
        assert RULES.result(after) is not None


class TestNvS5BuildingChainAndResidence:
    def state(self) -> State:
        return a_state(
            players={
                0: a_player(seat=0, lisbon=4, rondel=Space.BUILDINGS),
                1: a_player(seat=1, money=100, lisbon=1),
                2: a_player(seat=2, money=100, lisbon=1),
            },
            buildings={"B2": (0, 1), "B7": (1, 2), "B1": (2, 1)},
            phase=Buildings(active=A),
        )

    def test_chain_ends_in_lisbon_and_residence_pays_60(self) -> None:
        state = act(self.state(), A, PlaceOnBuilding("B7", 3))
        assert state.phase == Displaced(active=A, seat=B, workers=2, origin="B7", on_colony=False)
        assert RULES.to_act(state) == frozenset({B})
        assert Relocate("B1") in RULES.legal_actions(state, B)
        state = act(state, B, Relocate("B1"))
        assert RULES.to_act(state) == frozenset({C})
        state, events = RULES.apply(state, C, ReturnToLisbon())
        check_invariants(state)
        assert (state.players[C].money, state.players[C].lisbon) == (110, 2)
        assert IncomeReceived(A, "B2", 60) in events
        assert state.players[A].money == 160
        assert state.players[A].lisbon == 1
        assert (state.players[B].money, state.players[B].lisbon) == (100, 1)
        assert state.buildings[0].owner == B
        assert state.buildings[0].workers == 2
        assert all(h.owner != C for h in state.buildings)
        assert isinstance(state.phase, Rondel)
        assert state.phase.active == B

    def test_alternative_b_returns_to_lisbon(self) -> None:
        state = act(self.state(), A, PlaceOnBuilding("B7", 3))
        state = act(state, B, ReturnToLisbon())
        assert (state.players[B].money, state.players[B].lisbon) == (120, 3)
        assert state.buildings[0].owner == C
        assert state.players[A].money == 160


class TestNvS6ColoniesNeedAShip:
    def state(self) -> State:
        return a_state(
            players={
                0: a_player(seat=0, lisbon=4, ships={"SR1": 1, "SR0": 1}, rondel=Space.COLONY),
                1: a_player(seat=1, ships={"SR0": 1}),
            },
            buildings={"B5": (0, 1)},
            colonies={"C03": (1, 1)},
            tiles={"SR1": 2, "SR2": 2},
            phase=Colonies(active=A),
        )

    def test_placements_displacement_and_customs_income(self) -> None:
        state = act(self.state(), A, PlaceOnColony("C02", 1))
        state = act(state, A, PlaceOnColony("C03", 2))
        assert state.phase == Displaced(active=A, seat=B, workers=1, origin="C03", on_colony=True)
        state = act(state, B, Relocate("C01"))
        assert state.colonies[0].owner == B
        assert state.phase == Colonies(active=A)
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, PlaceOnColony("C04", 1))
        assert PlaceOnColony("C04", 1) not in RULES.legal_actions(state, A)
        money = state.players[A].money
        state, events = RULES.apply(state, A, StopColonizing())
        assert IncomeReceived(A, "B5", 40) in events
        assert state.players[A].money == money + 40
        assert state.players[A].lisbon == 1


class TestNvS7Market:
    def state(self, cubes: tuple[int, int, int] = (5, 5, 5)) -> State:
        return a_state(
            players={
                0: a_player(seat=0, knights=2, rondel=Space.MARKET),
                1: a_player(seat=1, knights=1),
                2: a_player(seat=2, knights=3),
            },
            buildings={"B6": (0, 1)},
            colonies={"C01": (0, 1), "C02": (0, 1), "C12": (0, 1)},
            cubes=cubes,
            knight_step=3,
            phase=Consume(active=A, chooser=A, left=2),
        )

    def test_consumption_then_sales_with_the_exchange(self) -> None:
        state = act(self.state(), A, ConsumeGood(Good.SPICE))
        assert state.cubes == (5, 5, 3)
        state = act(state, B, ConsumeGood(Good.SUGAR))
        assert state.cubes == (4, 5, 3)
        state = act(state, C, ConsumeGood(Good.SPICE))
        assert state.cubes == (4, 5, 0)
        assert state.phase == Sell(active=A)
        assert SellGoods(0, 2, 0) not in RULES.legal_actions(state, A)
        money = state.players[A].money
        state = act(state, A, SellGoods(2, 1, 1))
        assert state.players[A].money == money + 85 + 120 + 50
        assert state.cubes == (6, 6, 1)

    def test_full_track_pays_its_last_price(self) -> None:
        assert sale_value(Good.SUGAR, 9, 3) == (60, 10)
        state = a_state(
            players={0: a_player(rondel=Space.MARKET)},
            colonies={"C01": (0, 1), "C02": (0, 1), "C04": (0, 1)},
            cubes=(9, 5, 5),
            phase=Sell(active=A),
        )
        state = act(state, A, SellGoods(3, 0, 0))
        assert state.players[A].money == 160
        assert state.cubes == (10, 5, 5)


class TestNvS8SailingAndExploring:
    def state(self, ships: int = 4, *, academy: bool = False, knight_phase: int = 1, guine: int = 0) -> State:
        fleet = {"SR0": ships, **({"SR1": guine} if guine else {})}
        return a_state(
            players={
                0: a_player(money=0, ships=fleet, rondel=Space.SAILING),
                1: a_player(seat=1, knights=1 + 5 * (knight_phase - 1)),
            },
            buildings={"B4": (0, 1)} if academy else {},
            tiles={"SR1": 1},
            knight_phase=knight_phase,
            phase=sailing(),
        )

    def test_fleet_of_four_explores_angola(self) -> None:
        state, events = RULES.apply(self.state(), A, SailFleet("SR0", 4, "SR4"))
        check_invariants(state)
        assert ships_of(state, A) == {"SR4": 1}
        assert state.tiles[4] == A
        assert state.players[A].money == 70
        assert RegionExplored(A, "SR4", 2, 70) in events
        assert state.ledger.ships_lost[A] == 3

    def test_academy_pays_for_each_region_with_a_ship(self) -> None:
        # the lone survivor cannot move again, so the action stops by itself and the Academy pays
        state, events = RULES.apply(self.state(academy=True), A, SailFleet("SR0", 4, "SR4"))
        assert events[-3:-1] == (SailingStopped(A), IncomeReceived(A, "B4", 10))
        assert state.players[A].money == 80

    def test_fleet_of_three_is_rejected_in_phase_one(self) -> None:
        state = self.state(ships=3)
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SailFleet("SR0", 3, "SR4"))
        assert SailFleet("SR0", 3, "SR4") not in RULES.legal_actions(state, A)

    def test_fleet_of_three_explores_in_phase_two(self) -> None:
        state = act(self.state(ships=3, knight_phase=2), A, SailFleet("SR0", 3, "SR4"))
        assert ships_of(state, A) == {"SR4": 1}
        assert state.players[A].money == 70

    def test_second_exploration_in_one_action_is_rejected(self) -> None:
        state = act(self.state(guine=3), A, SailFleet("SR0", 4, "SR4"))
        with pytest.raises(IllegalAction, match="one exploration"):
            RULES.apply(state, A, SailFleet("SR1", 3, "SR2"))


class TestNvS9KnightSpaceAndPalace:
    def state(self, rondel: Space, money: int = 10) -> State:
        player = a_player(money=money, lisbon=4, ships={"SR0": 2}, rondel=rondel)
        return a_state(players={0: player}, buildings={"B7": (0, 1)}, phase=Rondel(active=A))

    def test_passing_the_knight_pays_50(self) -> None:
        state = act(self.state(Space.COLONY), A, MoveMarker(2))
        assert state.players[A].rondel is Space.SHIPS
        assert state.players[A].money == 60
        assert sum(state.players[A].ships) == 2

    def test_six_steps_with_two_ships_is_rejected(self) -> None:
        with pytest.raises(CannotAfford):
            RULES.apply(self.state(Space.SHIPS), A, MoveMarker(6))

    def test_landing_on_knight_pays_the_palace_but_not_the_50(self) -> None:
        state = self.state(Space.COLONY, money=30)
        state = act(state, A, MoveMarker(1))
        assert state.players[A].money == 30
        state, events = RULES.apply(state, A, DeclineKnight())
        assert IncomeReceived(A, "B7", 80) in events
        assert state.players[A].money == 110

    def test_with_10_money_the_knight_is_declined_at_once_and_the_palace_pays(self) -> None:
        state, events = RULES.apply(self.state(Space.COLONY), A, MoveMarker(1))
        assert events[1:3] == (KnightDeclined(A), IncomeReceived(A, "B7", 80))
        assert state.players[A].money == 90


class TestNvS10ScoringAndTieBreak:
    def state(self, c_colonies: int = 3) -> State:
        c_cols = {f"C{i:02d}": (2, 1) for i in range(4, 4 + c_colonies)}
        return a_state(
            players={
                0: a_player(seat=0, money=370, lisbon=4, ships={"SR0": 5}, knights=3),
                1: a_player(seat=1, money=0, lisbon=0, ships={}, knights=1),
                2: a_player(seat=2, money=250, lisbon=3, ships={"SR0": 5}, knights=4),
            },
            buildings={"B1": (0, 5), "B2": (0, 1), "B3": (2, 1)},
            colonies={"C01": (0, 3), "C02": (0, 1), "C03": (0, 1), **c_cols},
            tiles={"SR1": 0, "SR4": 0, "SR5": 2},
            knights_sold=5,
            phase=Finished(),
        )

    def test_tie_on_score_goes_to_the_higher_bonus_sum(self) -> None:
        state = self.state()
        assert (score(state, A), score(state, C)) == (120, 120)
        assert (bonus_sum(state, A), bonus_sum(state, C)) == (120, 100)
        result = RULES.result(state)
        assert result is not None
        assert result.scores == (120, 0, 120)
        assert result.winners == frozenset({A})
        assert result.ranks == (1, 3, 2)

    def test_one_more_colony_wins_outright(self) -> None:
        state = self.state(c_colonies=4)
        result = RULES.result(state)
        assert result is not None
        assert result.scores == (120, 0, 136)
        assert result.winners == frozenset({C})


class TestNvS11FleetOrder:
    def state(self, knight_phase: int = 1, *, academy: bool = False) -> State:
        return a_state(
            players={0: a_player(money=0, ships={"SR1": 3, "SR0": 2}, rondel=Space.SAILING)},
            buildings={"B4": (0, 1)} if academy else {},
            tiles={"SR1": 1},
            knight_phase=knight_phase,
            phase=sailing(),
        )

    def test_exploring_fleet_first_then_the_small_fleet_follows(self) -> None:
        state = act(self.state(academy=True), A, SailFleet("SR1", 3, "SR4"))
        state, events = RULES.apply(state, A, SailFleet("SR0", 2, "SR4"))
        assert ships_of(state, A) == {"SR4": 2}
        assert state.ledger.ships_lost[A] == 3
        # nothing can move any more: the action stops by itself and the Academy pays
        assert IncomeReceived(A, "B4", 10) in events
        assert state.players[A].money == 80

    def test_reverse_order_is_rejected_and_nothing_moves(self) -> None:
        state = self.state()
        with pytest.raises(IllegalAction):
            RULES.apply(state, A, SailFleet("SR0", 2, "SR4"))
        assert SailFleet("SR0", 2, "SR4") not in RULES.legal_actions(state, A)

    def test_ships_from_two_regions_cannot_pool_to_explore(self) -> None:
        state = self.state(knight_phase=2)
        for fleet in (SailFleet("SR1", 2, "SR4"), SailFleet("SR0", 1, "SR4")):
            with pytest.raises(IllegalAction):
                RULES.apply(state, A, fleet)

    def test_the_survivor_cannot_move_on(self) -> None:
        state = act(self.state(), A, SailFleet("SR1", 3, "SR4"))
        with pytest.raises(IllegalAction, match="can still move"):
            RULES.apply(state, A, SailFleet("SR4", 1, "SR1"))
        assert not any(isinstance(a, SailFleet) and a.origin == "SR4" for a in RULES.legal_actions(state, A))
