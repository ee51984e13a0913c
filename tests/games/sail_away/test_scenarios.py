"""The worked scenarios SA-S1..SA-S10 of the spec (§10). Spec spaces are 1-based, ours 0-based."""

from __future__ import annotations

import dataclasses

import pytest
from sa_builders import P1, P2, P3, a_state, act, covered, island, launched, pir, play_defaults, ship, std

from flotilla.games.sail_away import RULES, Config
from flotilla.games.sail_away.actions import (
    ChooseSlot,
    ClaimIsland,
    EndPlacement,
    KeepShip,
    KeepShips,
    LaunchShip,
    LoadCrate,
    PayRansom,
    PlaceCrate,
    PlaceOnPirateCard,
    RefuseRansom,
    ReleaseCrate,
    RetrieveCrate,
    SellCrate,
    TakeCrateFromShip,
    TakeMarketShip,
    TakeReserve,
)
from flotilla.games.sail_away.board import crate_limit, holds
from flotilla.games.sail_away.events import (
    CrateSold,
    EndTriggered,
    GameEnded,
    IslandRevealed,
    ShipLaunched,
    ShipsKept,
    TurnStarted,
)
from flotilla.games.sail_away.invariants import check_invariants
from flotilla.games.sail_away.placement import targets
from flotilla.games.sail_away.scoring import public_objective_winner, scores
from flotilla.games.sail_away.state import LaunchedShip, Phase, PirateCard, Resolution, Stage, State
from flotilla.rules import CannotAfford, IllegalAction, Seat
from flotilla.rules.testing import game_seed


def _sa_s1_state() -> State:
    return a_state(
        islands=("IS01", island("IS04", covered(1, 2), std(2)), "IS02", "IS03"),
        ships={0: ("SH05",), 1: ("SH01",), 2: ("SH04",)},
        coins={0: 4, 1: 5, 2: 4},
    )


class TestSaS1IslandWithACoveredCrate:
    def _claim(self) -> State:
        state = _sa_s1_state()
        check_invariants(state)
        state, _ = act(state, 0, PlaceCrate("IS04", 2, pirate=False), PlaceCrate("IS01", 0, pirate=False))
        assert state.islands[1].post == P1
        state, _ = act(state, 0, EndPlacement())
        assert RULES.to_act(state) == {P2}
        assert RULES.legal_actions(state, P2) == (PayRansom(), RefuseRansom())
        return state

    def test_owner_pays_the_ransom(self) -> None:
        state = self._claim()
        state, _ = act(state, 1, PayRansom())
        assert state.players[1].coins == 3
        assert state.players[2].coins == 6
        state, _ = act(state, 0, LoadCrate("SH05", 1))
        state, _ = act(state, 1, LoadCrate("SH01", 0))
        state, events = act(state, 2, LoadCrate("SH04", 1))
        assert state.players[0].ships[0].crates == (None, std(0))
        assert state.players[1].ships[0].crates == (std(1), None)
        assert state.players[2].ships[0].crates == (None, std(2))
        assert not any(isinstance(e, ShipLaunched) for e in events)
        assert state.players[0].coins == 5
        assert state.players[0].posts == 2
        assert "IS04" in state.island_discard
        assert state.islands[1].card != "IS04"
        assert any(isinstance(e, IslandRevealed) and e.position == 1 for e in events)
        assert state.players[2].pirate == 2  # the ransomed pirate crate is back
        assert state.active == P2
        check_invariants(state)

    def test_owner_refuses_the_ransom(self) -> None:
        state = self._claim()
        state, _ = act(state, 1, RefuseRansom())
        assert state.players[1].coins == 5
        assert state.players[1].standard == 6  # P2's crate went home
        assert state.islands[1].spaces[0].crate == pir(2)
        state, _ = act(state, 0, LoadCrate("SH05", 1))
        assert RULES.to_act(state) == {P3}
        state, _ = act(state, 2, LoadCrate("SH04", 0))
        state, events = act(state, 2, LoadCrate("SH04", 1))
        assert ShipLaunched(P3, "SH04", 0) in events
        assert state.players[2].ships == ()
        assert state.players[2].standard == 6
        assert state.players[2].pirate == 2
        assert RULES.to_act(state) == {P3}
        state, _ = act(state, 2, ChooseSlot(1))
        state, events = act(state, 2, TakeMarketShip("SH29"))
        assert [s.card for s in state.players[2].ships] == ["SH29"]
        assert state.players[2].launched == (LaunchedShip("SH04", 1, 10),)
        assert state.players[0].coins == 5
        check_invariants(state)


def test_sa_s2_no_matching_space_takes_a_coin() -> None:
    state = a_state(
        islands=(island("IS02", std(1), std(0)), "IS01", "IS03", "IS04"),
        ships={0: ("SH11",), 1: ("SH03", "SH05", "SH14")},
        coins={1: 3},
    )
    state, events = act(state, 0, PlaceCrate("IS02", 2, pirate=False), EndPlacement())
    # P1 distributes first: its V crate has no V space (forced coin), its S crate may load.
    assert RULES.to_act(state) == {P1}
    state, events = act(state, 0, LoadCrate("SH11", 1))
    assert CrateSold(P2, "IS02", 0, 1, forced=True) in events
    assert state.players[1].coins == 4
    assert state.players[1].standard == 6
    check_invariants(state)


class TestSaS3GoldCoinSpace:
    def _resolve(self) -> State:
        state = a_state(
            islands=(island("IS01", std(0), std(1)), "IS02", "IS03", "IS04"),
            ships={0: (ship("SH22", std(0)),), 1: ("SH03",)},
        )
        state, _ = act(state, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        state, _ = act(state, 0, LoadCrate("SH22", 1))
        assert RULES.to_act(state) == {P1}
        assert RULES.legal_actions(state, P1) == (LaunchShip("SH22"), KeepShip("SH22"))
        assert RULES.default_action(state, P1) == LaunchShip("SH22")
        return state

    def test_launch_now_without_the_gold_coin(self) -> None:
        state = self._resolve()
        coins = state.players[0].coins
        state, events = act(state, 0, LaunchShip("SH22"))
        assert ShipLaunched(P1, "SH22", 0) in events
        state, _ = act(state, 0, ChooseSlot(2), TakeMarketShip("SH30"))
        assert state.players[0].coins == coins + 1  # only the island's coin
        assert state.players[0].standard == 7 - 1 - 0  # both SH22 crates home, reserve 1
        assert scores(state)[0] == 3 + state.players[0].coins + 3  # SH22 3 points + cotton secret 3

    def test_wait_then_fill_the_coin_space(self) -> None:
        state = self._resolve()
        state, _ = act(state, 0, KeepShip("SH22"))
        assert [s.card for s in state.players[0].ships] == ["SH22"]
        later = a_state(
            islands=(island("IS01", std(0), std(1)), "IS02", "IS03", "IS04"),
            ships={0: (ship("SH22", std(0), std(0)),), 1: ("SH03",)},
        )
        coins = later.players[0].coins
        later, _ = act(later, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        later, events = act(later, 0, LoadCrate("SH22", 2))
        assert ShipLaunched(P1, "SH22", 5) in events
        assert later.players[0].standard == 7 - 1 - 0
        later, _ = act(later, 0, ChooseSlot(1), TakeMarketShip("SH30"))
        assert later.players[0].coins == coins + 5 + 1 + 1  # gold, the island, the unloadable V crate


class TestSaS4DifferentCardRule:
    def test_second_crate_on_the_same_island_costs_two(self) -> None:
        state = a_state(islands=("IS05", "IS01", "IS02", "IS03"), coins={0: 3})
        state, _ = act(state, 0, PlaceCrate("IS05", 0, pirate=False), PlaceCrate("IS05", 1, pirate=False))
        assert state.players[0].coins == 1

    def test_rejected_without_two_coins(self) -> None:
        state = a_state(islands=("IS05", "IS01", "IS02", "IS03"), coins={0: 1})
        state, _ = act(state, 0, PlaceCrate("IS05", 0, pirate=False))
        with pytest.raises(CannotAfford):
            RULES.apply(state, P1, PlaceCrate("IS05", 1, pirate=False))
        assert PlaceCrate("IS05", 1, pirate=False) not in RULES.legal_actions(state, P1)
        after, _ = act(state, 0, PlaceCrate("IS01", 0, pirate=False))
        assert after.players[0].coins == 1


class TestSaS5NoCrateAtTheStartOfTheTurn:
    def test_take_a_crate_from_a_ship(self) -> None:
        state = a_state(
            active=2,
            islands=(island("IS05", std(0), std(0), std(0)), island("IS11", std(0), std(0)), "IS02", "IS03"),
            ships={0: (ship("SH13", std(0), std(0)),)},
            supply={0: (0, 0)},
            placed=1,
        )
        state, events = act(state, 2, EndPlacement())
        assert TurnStarted(P1, 11) in events
        assert state.phase is Phase.CRATE_CHECK
        assert RULES.legal_actions(state, P1) == (TakeCrateFromShip("SH13", 0), TakeCrateFromShip("SH13", 1))
        state, _ = act(state, 0, TakeCrateFromShip("SH13", 1))
        assert state.players[0].ships[0].crates == (std(0), None, None)
        assert state.players[0].standard == 1
        assert EndPlacement() not in RULES.legal_actions(state, P1)
        with pytest.raises(IllegalAction):
            RULES.apply(state, P1, EndPlacement())

    def test_no_crate_anywhere_may_end_at_once_unless_l5_gives_crates(self) -> None:
        state = a_state(
            ships={0: ("SH13",)},
            supply={0: (0, 0)},
            launched_ships={0: (LaunchedShip("SH01", 5, 3),)},
        )
        assert EndPlacement() in RULES.legal_actions(state, P1)
        state, _ = act(state, 0, TakeReserve())
        assert (state.players[0].standard, state.players[0].pirate) == (1, 1)
        assert EndPlacement() not in RULES.legal_actions(state, P1)
        assert state.players[0].launched[0].used


def test_sa_s6_end_trigger_and_final_turns() -> None:
    four = ("SH25", "SH26", "SH27", "SH28")
    state = a_state(
        active=1,
        islands=(island("IS03", std(2), std(2)), "IS01", "IS02", "IS04"),
        ships={1: (ship("SH01", std(1)),), 2: (ship("SH22", std(2), std(2)),)},
        launched_ships={1: launched(*four), 2: launched("SH31", "SH32", "SH33", "SH34")},
    )
    state, _ = act(state, 1, PlaceCrate("IS03", 2, pirate=False), EndPlacement())
    state, events = act(state, 1, LoadCrate("SH01", 1))
    assert ShipLaunched(P2, "SH01", 0) in events
    assert RULES.to_act(state) == {P2}  # only slot 5 left: automatic; the market is a choice
    state, events = act(state, 1, TakeMarketShip("SH30"))
    assert EndTriggered(P2) in events
    assert state.active == P3
    state, events = act(state, 2, LaunchShip("SH22"), TakeMarketShip("SH29"))
    assert len(state.players[2].launched) == 5
    state, events = act(state, 2, PlaceCrate("IS01", 0, pirate=False), EndPlacement())
    assert not any(isinstance(e, EndTriggered) for e in events)
    assert TurnStarted(P1, 12) in events
    state, events = play_defaults(state)
    starts = [e.seat for e in events if isinstance(e, TurnStarted)]
    assert starts == []
    assert state.phase is Phase.FINISHED
    assert state.end_trigger == P2
    assert any(isinstance(e, GameEnded) for e in events)


class TestSaS7FinalScoring:
    def _state(self, extra_p2: tuple[str, ...] = ()) -> State:
        return a_state(
            phase=Phase.FINISHED,
            public="OB3",
            objectives=("OB1", "OB5", "OB4"),
            launched_ships={
                0: launched("SH25", "SH13", "SH04", "SH19", "SH31"),
                1: launched("SH27", "SH16", "SH23", *extra_p2),
            },
            coins={0: 13, 1: 20, 2: 9},
        )

    def test_tied_public_objective_goes_to_nobody(self) -> None:
        state = self._state()
        assert public_objective_winner(state) is None
        assert scores(state) == (42, 36, 9)
        result = RULES.result(state)
        assert result is not None
        assert result.winners == {P1}

    def test_won_public_objective_scores_like_a_secret_one(self) -> None:
        state = self._state(("SH02",))
        assert public_objective_winner(state) == P2
        assert scores(state) == (42, 47, 9)
        result = RULES.result(state)
        assert result is not None
        assert result.winners == {P2}


class TestSaS8SeaLegs:
    def test_three_placements_with_a_crate_on_sea_legs(self) -> None:
        state = a_state(pirate_cards=("PA6", "PA5", "PA7"), coins={0: 6})
        assert (state.players[0].standard, state.players[0].pirate) == (6, 2)
        state, _ = act(state, 0, PlaceOnPirateCard("PA6"))
        assert crate_limit(state, P1) == 3
        state, _ = act(state, 0, PlaceCrate("IS01", 0, pirate=False), PlaceCrate("IS02", 0, pirate=False))
        assert state.placed == 3
        assert targets(state) == []

    def test_retrieving_ends_the_effect_at_once(self) -> None:
        state = a_state(pirate_cards=(PirateCard("PA6", (P1, None)), "PA5", "PA7"), coins={0: 6}, placed=2)
        assert crate_limit(state, P1) == 3
        assert targets(state)
        state, _ = act(state, 0, RetrieveCrate("PA6"))
        assert state.players[0].coins == 2
        assert crate_limit(state, P1) == 2
        assert targets(state) == []
        assert RetrieveCrate("PA6") not in RULES.legal_actions(state, P1)

    def test_release_by_another_seat_ends_the_effect(self) -> None:
        state = a_state(
            active=1,
            pirate_cards=(PirateCard("PA6", (P1, None)), "PA5", "PA7"),
            launched_ships={1: (LaunchedShip("SH01", 4, 2),)},
        )
        pirates_before = state.players[0].pirate
        state, _ = act(state, 1, ReleaseCrate("PA6", P1))
        assert state.players[0].pirate == pirates_before + 1
        assert not holds(state, P1, "PA6")
        check_invariants(state)


def test_sa_s9_claim_with_l3() -> None:
    state = a_state(
        islands=(island("IS08", std(0), None, std(1)), "IS01", "IS02", "IS03"),
        ships={0: ("SH13",), 1: ("SH15",)},
        coins={0: 2},
        launched_ships={0: (LaunchedShip("SH02", 3, 4),)},
    )
    state, _events = act(state, 0, ClaimIsland("IS08"))
    assert state.islands[0].post == P1
    assert state.players[0].launched[0].used
    assert ClaimIsland("IS01") not in RULES.legal_actions(state, P1)
    state, _ = act(state, 0, PlaceCrate("IS01", 0, pirate=False), EndPlacement())
    alternative = state
    state, _ = act(state, 0, LoadCrate("SH13", 0))
    state, _ = act(state, 1, LoadCrate("SH15", 0))
    assert state.players[0].coins == 4
    assert "IS08" in state.island_discard
    assert all(i.card != "IS08" for i in state.islands)
    alternative, _ = act(alternative, 0, SellCrate())
    alternative, _ = act(alternative, 1, LoadCrate("SH15", 0))
    assert alternative.players[0].coins == 5


def test_sa_s10_setup_choice_and_timeout() -> None:
    state = RULES.new_game(Config(seats=2), game_seed(7))
    hand1 = ("SH07", "SH19", "SH31", "SH02", "SH25", "SH12")
    taken = set(hand1)
    hand2 = tuple(c for c in state.players[1].dealt if c not in taken)
    for c in state.ship_deck:
        if len(hand2) == 6:
            break
        if c not in taken:
            hand2 = (*hand2, c)
    taken |= set(hand2)
    players = (
        dataclasses.replace(state.players[0], dealt=hand1),
        dataclasses.replace(state.players[1], dealt=hand2[:6]),
    )
    deck = tuple(
        c for c in sorted({*state.ship_deck, *state.players[0].dealt, *state.players[1].dealt}) if c not in taken
    )
    state = dataclasses.replace(state, players=players, ship_deck=deck)
    check_invariants(state)
    assert RULES.to_act(state) == {P1, P2}
    assert len(RULES.legal_actions(state, P1)) == 7  # 6 PickShip and the SD1 default
    chosen = KeepShips(("SH25", "SH02", "SH31"))
    state, events = act(state, 0, chosen)
    assert RULES.redact(events[0], P2) == ShipsKept(P1, ())
    assert RULES.redact(events[0], P1) == events[0]
    assert RULES.to_act(state) == {P2}
    p2_view = RULES.view(state, P2)
    assert p2_view.players[0].ships == ()
    assert "SH25" not in repr(p2_view)
    assert RULES.default_action(state, P2) == KeepShips(hand2[:3])
    state, events = act(state, 1, RULES.default_action(state, P2))
    assert [s.card for s in state.players[0].ships] == ["SH25", "SH02", "SH31"]
    assert [s.card for s in state.players[1].ships] == list(hand2[:3])
    assert len(state.ship_deck) == 27
    assert len([m for m in state.market if m]) == 3
    assert len(state.islands) == 3
    assert state.phase in (Phase.PLACEMENT, Phase.CRATE_CHECK)


def test_resolution_state_shape_is_public() -> None:
    """A sanity check that the builders and the task stack line up."""
    state = _sa_s1_state()
    state, _ = act(state, 0, PlaceCrate("IS04", 2, pirate=False), EndPlacement())
    assert state.tasks[0] == Resolution("IS04", P1, posted=True, stage=Stage.RANSOM, index=0)
    assert Seat(1) in RULES.to_act(state)
    assert P3 not in RULES.to_act(state)
