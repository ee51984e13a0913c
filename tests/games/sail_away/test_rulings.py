"""Launch abilities, pirate action cards, rulings, illegal moves and timeout defaults."""

from __future__ import annotations

import dataclasses

import pytest
from sa_builders import P1, P2, P3, a_state, act, covered, island, pir, play_defaults, ship, std

from flotilla.games.sail_away import RULES, Config
from flotilla.games.sail_away.actions import (
    ChooseSlot,
    ClaimIsland,
    ClearIsland,
    CoverCrate,
    DirectLoad,
    EndPlacement,
    ForceSale,
    LoadCrate,
    PlaceCrate,
    PlaceOnPirateCard,
    RefuseRansom,
    SellCrate,
    SmuggleCrate,
    TakeMarketShip,
    TakeReserve,
    UseExtraCrate,
)
from flotilla.games.sail_away.events import (
    EffectSkipped,
    GameEnded,
    HarborDuesPaid,
    IslandClaimed,
    RansomPaid,
    RansomRefused,
    ShipLaunched,
    TreasureFound,
)
from flotilla.games.sail_away.invariants import check_invariants
from flotilla.games.sail_away.state import CardEffect, LaunchedShip, Phase, PirateCard
from flotilla.rules import CannotAfford, IllegalAction, InvalidAction, InvalidConfig, NotYourTurn, Seat


def ready(slot: int, card: str = "SH10") -> dict[int, tuple[LaunchedShip, ...]]:
    """P1 with a ship launched earlier under `slot`."""
    return {0: (LaunchedShip(card, slot, 1),)}


class TestLaunchAbilities:
    def test_l1_third_island_resolves_at_once_without_a_post(self) -> None:
        state = a_state(
            islands=(
                island("IS01", std(0), std(1), std(2), post=0),
                island("IS02", std(2), std(1), std(0), post=0),
                island("IS03", std(1), std(1)),
                "IS04",
            ),
            ships={0: ("SH17",), 1: ("SH27",)},
            launched_ships=ready(1),
            claims=("IS01", "IS02"),
            placed=2,
        )
        assert state.players[0].posts == 0
        assert not [a for a in RULES.legal_actions(state, P1) if isinstance(a, PlaceCrate)]
        state, events = act(state, 0, UseExtraCrate(), PlaceCrate("IS03", 2, pirate=False))
        assert IslandClaimed(P1, "IS03", post=False) in events
        state, _ = act(state, 0, SellCrate())  # P1 could load its C crate on SH17 (S, S, C)
        state, _ = act(state, 1, LoadCrate("SH27", 2))
        state, _ = act(state, 1, LoadCrate("SH27", 3))
        assert state.phase is Phase.PLACEMENT
        assert state.active == P1
        assert "IS03" in state.island_discard
        assert state.claims == ("IS01", "IS02")
        assert state.players[0].launched[0].used
        check_invariants(state)

    def test_l2_fills_a_ship_which_launches_and_is_no_placement(self) -> None:
        state = a_state(ships={0: (ship("SH01", std(0)),)}, launched_ships=ready(2))
        state, events = act(state, 0, DirectLoad("SH01", 1, pirate=True))
        assert ShipLaunched(P1, "SH01", 0) in events
        assert state.placed == 0
        state, _ = act(state, 0, ChooseSlot(1), TakeMarketShip("SH28"))
        assert EndPlacement() not in RULES.legal_actions(state, P1)
        assert (state.players[0].standard, state.players[0].pirate) == (6, 2)
        check_invariants(state)

    def test_ability_of_a_ship_launched_this_turn_waits(self) -> None:
        state = a_state(launched_ships={0: (LaunchedShip("SH10", 5, 10),)})
        assert TakeReserve() not in RULES.legal_actions(state, P1)
        with pytest.raises(IllegalAction):
            RULES.apply(state, P1, TakeReserve())


class TestPirateActions:
    def test_forced_sale_keeps_the_crate_owner(self) -> None:
        state = a_state(
            pirate_cards=("PA1", "PA5", "PA6"),
            ships={0: (ship("SH05", None, std(0)),), 1: (ship("SH01", std(1)),)},
            coins={0: 4, 1: 4},
        )
        state, _ = act(state, 0, PlaceOnPirateCard("PA1"))
        assert state.tasks == (CardEffect("PA1"),)
        assert RULES.legal_actions(state, P1) == (ForceSale("SH01", 0, "SH05", 0),)
        standard_before = state.players[1].standard
        state, events = act(state, 0, ForceSale("SH01", 0, "SH05", 0))
        assert (state.players[0].coins, state.players[1].coins) == (3, 5)
        assert ShipLaunched(P1, "SH05", 0) in events
        assert state.players[1].standard == standard_before + 1  # SR21: back to its owner
        check_invariants(state)

    def test_smuggling_a_covering_crate_uncovers(self) -> None:
        state = a_state(
            pirate_cards=("PA2", "PA5", "PA6"),
            islands=(island("IS01", covered(1, 0), covered(0, 1)), "IS02", "IS03", "IS04"),
            ships={0: ("SH01",)},
        )
        state, _ = act(state, 0, PlaceOnPirateCard("PA2"))
        legal = RULES.legal_actions(state, P1)
        assert legal == (SmuggleCrate("IS01", 0, "SH01", 0), SmuggleCrate("IS01", 0, "SH01", 1))
        state, _ = act(state, 0, SmuggleCrate("IS01", 0, "SH01", 1))
        assert state.islands[0].spaces[0].crate == std(1)
        assert state.islands[0].spaces[0].cover is None
        assert state.players[0].ships[0].crates == (None, pir(0))
        check_invariants(state)

    def test_dirty_deeds_grants_any_ability_without_using_a_slot(self) -> None:
        state = a_state(pirate_cards=("PA3", "PA5", "PA6"))
        state, _ = act(state, 0, PlaceOnPirateCard("PA3"))
        assert RULES.default_action(state, P1) == UseExtraCrate()
        state, _ = act(state, 0, TakeReserve())
        assert (state.players[0].reserve_standard, state.players[0].reserve_pirate) == (0, 0)
        assert (state.players[0].standard, state.players[0].pirate) == (7, 2)
        assert state.players[0].launched == ()
        check_invariants(state)

    def test_landlubber_returns_every_crate_and_replaces_the_island(self) -> None:
        state = a_state(
            pirate_cards=("PA4", "PA5", "PA6"),
            islands=(island("IS01", covered(1, 2), std(0)), "IS02", "IS03", "IS04"),
        )
        coins = [p.coins for p in state.players]
        state, _ = act(state, 0, PlaceOnPirateCard("PA4"), ClearIsland("IS01"))
        assert state.islands[0].card != "IS01"
        assert state.island_discard == ("IS01",)
        assert [p.coins for p in state.players] == coins
        assert (state.players[1].standard, state.players[2].pirate) == (6, 2)
        check_invariants(state)

    def test_buried_treasure_gives_three_coins(self) -> None:
        state, events = act(a_state(), 0, PlaceOnPirateCard("PA5"))
        assert TreasureFound(P1, 3) in events
        assert state.players[0].coins == 7

    def test_one_time_effect_without_target_is_skipped(self) -> None:
        state = a_state(pirate_cards=("PA1", "PA5", "PA6"))
        state, events = act(state, 0, PlaceOnPirateCard("PA1"))
        assert EffectSkipped(P1, "PA1") in events
        assert state.tasks == ()
        assert state.pirate_cards[0].spaces == (P1, None)

    def test_harbor_dues_are_paid_after_the_island_coins(self) -> None:
        state = a_state(
            pirate_cards=(PirateCard("PA7", (P2, P2)), "PA5", "PA6"),
            islands=(island("IS01", std(0), std(0)), "IS02", "IS03", "IS04"),
            coins={0: 0},
        )
        state, events = act(state, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        assert HarborDuesPaid(P1, P2, 1) in events
        assert state.players[0].coins == 3 + 1 - 1  # 3 unloadable crates, the island, the dues
        assert state.players[1].coins == 5

    def test_black_flag_ransom_is_three_and_forced_refusal(self) -> None:
        state = a_state(
            pirate_cards=(PirateCard("PA8", (P3, None)), "PA5", "PA6"),
            islands=(island("IS01", covered(1, 2), std(0)), "IS02", "IS03", "IS04"),
            coins={1: 2},
        )
        state, events = act(state, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        assert RansomRefused(P2, P3, "IS01", 0, forced=True) in events
        rich = a_state(
            pirate_cards=(PirateCard("PA8", (P3, None)), "PA5", "PA6"),
            islands=(island("IS01", covered(1, 2), std(0)), "IS02", "IS03", "IS04"),
            coins={1: 3},
        )
        rich, _ = act(rich, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        assert RULES.default_action(rich, P2) == RefuseRansom()
        rich, events = act(rich, 1, *RULES.legal_actions(rich, P2)[:1])
        assert RansomPaid(P2, P3, "IS01", 0, 3) in events


class TestErrors:
    def test_out_of_turn_is_refused_first(self) -> None:
        state = a_state()
        with pytest.raises(NotYourTurn):
            RULES.apply(state, P2, Seat(99))  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        "action",
        [PlaceCrate("IS99", 0, pirate=False), PlaceCrate("IS01", 3, pirate=False), ChooseSlot(9), Seat(3)],
    )
    def test_malformed_actions_are_invalid(self, action: object) -> None:
        with pytest.raises(InvalidAction):
            RULES.apply(a_state(), P1, action)  # type: ignore[arg-type]

    @pytest.mark.parametrize(
        ("action", "error"),
        [
            (PlaceCrate("IS05", 0, pirate=False), IllegalAction),  # not face up
            (PlaceCrate("IS01", 0, pirate=False), IllegalAction),  # taken
            (CoverCrate("IS01", 0), IllegalAction),  # own crate
            (EndPlacement(), IllegalAction),  # nothing placed
            (UseExtraCrate(), IllegalAction),  # no ship under L1
            (LoadCrate("SH01", 0), IllegalAction),  # no resolution
        ],
    )
    def test_illegal_actions_leave_the_state_unchanged(self, action: object, error: type[Exception]) -> None:
        state = a_state(islands=(island("IS01", std(0)), "IS02", "IS03", "IS04"))
        before = dataclasses.replace(state)
        with pytest.raises(error):
            RULES.apply(state, P1, action)  # type: ignore[arg-type]
        assert state == before
        assert action not in RULES.legal_actions(state, P1)

    def test_surcharge_without_money_is_cannot_afford(self) -> None:
        state = a_state(coins={0: 1}, placed=1, used_cards=("IS01",))
        with pytest.raises(CannotAfford):
            RULES.apply(state, P1, PlaceCrate("IS01", 1, pirate=False))

    def test_config_is_validated(self) -> None:
        with pytest.raises(InvalidConfig):
            Config(seats=5)
        with pytest.raises(InvalidConfig):
            Config(seats=2, max_rounds=0)


class TestDefaults:
    def test_placement_default_places_a_standard_crate_then_ends(self) -> None:
        state = a_state(islands=(island("IS01", std(1)), "IS02", "IS03", "IS04"))
        assert RULES.default_action(state, P1) == PlaceCrate("IS01", 1, pirate=False)
        state, _ = act(state, 0, PlaceCrate("IS02", 0, pirate=False))
        assert RULES.default_action(state, P1) == EndPlacement()

    def test_distribution_default_prefers_a_non_coin_space(self) -> None:
        state = a_state(
            islands=(island("IS01", std(0), std(1)), "IS02", "IS03", "IS04"),
            ships={0: (ship("SH22", std(0)), "SH01")},
        )
        state, _ = act(state, 0, PlaceCrate("IS01", 2, pirate=False), EndPlacement())
        assert RULES.default_action(state, P1) == LoadCrate("SH22", 1)

    def test_launch_defaults_lowest_slot_and_leftmost_market_ship(self) -> None:
        state = a_state(ships={0: (ship("SH01", std(0)),)}, launched_ships={0: (LaunchedShip("SH10", 2, 1),)})
        state, _ = act(state, 0, DirectLoad("SH01", 1, pirate=False))
        assert RULES.default_action(state, P1) == ChooseSlot(1)
        state, _ = act(state, 0, ChooseSlot(3))
        assert RULES.default_action(state, P1) == TakeMarketShip("SH30")


def test_round_cap_ends_the_game() -> None:
    state = RULES.new_game(Config(seats=2, max_rounds=1), 99)
    state, events = play_defaults(state)
    assert state.phase is Phase.FINISHED
    assert state.turn == 2
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert len(ended) == 1
    assert ended[0].round_cap
    assert RULES.result(state) is not None


def test_sr27_returned_ships_join_the_deck() -> None:
    state = RULES.new_game(Config(seats=4), 4242)
    assert len(state.ship_deck) == 36 - 24
    for seat in sorted(RULES.to_act(state)):
        state, _ = act(state, seat, RULES.default_action(state, seat))
    assert len(state.ship_deck) == 24 - 3
    assert len(state.islands) == 5
    assert len(state.pirate_cards) == 3
    assert state.turn == 1
    assert state.active == state.start_player
    check_invariants(state)


def test_covering_never_claims_and_claimed_islands_take_no_crates() -> None:
    state = a_state(
        islands=(island("IS01", std(1), std(1)), island("IS02", std(2)), "IS03", "IS04"),
        launched_ships=ready(3),
    )
    state, events = act(state, 0, CoverCrate("IS01", 0))
    assert not any(isinstance(e, IslandClaimed) for e in events)
    assert state.islands[0].post is None
    state, _ = act(state, 0, ClaimIsland("IS02"))
    assert state.islands[1].post == P1
    assert PlaceCrate("IS02", 1, pirate=False) not in RULES.legal_actions(state, P1)
    with pytest.raises(IllegalAction):
        RULES.apply(state, P1, PlaceCrate("IS02", 1, pirate=False))
