"""Flotilla's games as OpenSpiel games: OpenSpiel's own random-simulation checks, and what its
imperfect-information algorithms rely on (a resampled world looks the same to the seat)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from flotilla.games import REGISTRY  # noqa: E402 - after the skip: pyspiel is an optional extra
from flotilla.openspiel import game as os_game  # noqa: E402
from flotilla.rules import Result, Seat  # noqa: E402

# (kind, parameters): small or cut short (max_moves) so each check takes about a second.
CASES = [
    ("counter", {"moves": 30}),
    ("sail_away", {"players": 2, "max_rounds": 1}),
    ("sail_away", {"players": 3, "max_rounds": 1, "max_moves": 80}),
    ("port_royal", {"players": 2, "max_moves": 80}),
    ("port_royal", {"players": 1, "mode": "contract_coop"}),
    ("pirates_of_nassau", {"players": 2, "max_moves": 40}),
    ("navegador", {"players": 3, "max_moves": 40}),
]


def ident(case: tuple[str, dict[str, Any]]) -> str:
    kind, params = case
    return kind + "".join(f"-{k}={v}" for k, v in params.items())


def test_every_flotilla_game_is_registered_as_a_sequential_imperfect_information_game() -> None:
    names = os_game.register_all()
    assert set(names) == {os_game.short_name(kind) for kind in REGISTRY}
    for name in names:
        game_type = pyspiel.load_game(name).get_type()
        assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game_type.provides_information_state_string


@pytest.mark.parametrize("case", CASES, ids=ident)
def test_openspiel_random_simulation_checks_pass(case: tuple[str, dict[str, Any]]) -> None:
    """pyspiel.random_sim_test: legal actions, clones, strings, tensors, returns (it raises on failure)."""
    kind, params = case
    game = os_game.load(kind, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=kind == "sail_away", verbose=False)


@pytest.mark.parametrize("case", CASES, ids=ident)
def test_a_resampled_world_looks_the_same_to_the_seat_to_act(case: tuple[str, dict[str, Any]]) -> None:
    """resample_from_infostate (the engine's determinize) keeps the acting seat's information
    state string, observation tensor and legal actions; and the game is played to its cut."""
    kind, params = case
    game = os_game.load(kind, **params)
    state = game.new_initial_state()
    driver = random.Random(7)
    checked = 0
    while not state.is_terminal():
        player = state.current_player()
        if driver.random() < 0.2:
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.current_player() == player
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert [other.action_to_string(player, a) for a in other.legal_actions()] == [
                state.action_to_string(player, a) for a in state.legal_actions()
            ]
            waiting = driver.randrange(game.num_players())  # any seat, not only the one to act
            other = state.resample_from_infostate(waiting, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(waiting) == state.information_state_string(waiting)
            checked += 1
        state.apply_action(driver.choice(state.legal_actions()))
    assert checked > 0


def test_the_text_and_tensor_of_a_view_do_not_depend_on_set_order() -> None:
    """Two equal views built in different orders encode equally (frozenset iteration order differs)."""
    a = frozenset(f"card-{i}" for i in range(40))
    b = frozenset(reversed([f"card-{i}" for i in range(40)]))
    assert a == b
    text_a, features_a = os_game.encode(("x", a), 64)
    text_b, features_b = os_game.encode(("x", b), 64)
    assert text_a == text_b
    assert sorted(features_a) == sorted(features_b)  # the tensor sums them per bucket
    assert os_game.canonical(a) != os_game.canonical(frozenset(list(a)[1:]))


@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"players": 9}, "for 2-5 players, not 9"),
        ({"mode": "nope"}, "option 'mode' takes one of"),
        ({"max_moves": -1}, "max_moves must be 0"),
        ({"colour": 3}, "Unknown parameter 'colour'"),
    ],
)
def test_bad_parameters_are_refused_with_a_reason(params: dict[str, Any], error: str) -> None:
    with pytest.raises(Exception, match=error):
        os_game.load("port_royal", **params)


def test_max_moves_cuts_the_game_short_with_zero_returns() -> None:
    game = os_game.load("counter", moves=50, max_moves=5)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(0)
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert game.max_game_length() == 5


def test_a_full_game_ends_with_the_engine_result() -> None:
    game = os_game.load("counter", moves=4)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(1)
    assert state.engine_state.total == 8
    assert state.returns() == [1.0, 1.0]  # counter ties: both seats win


class TestReturns:
    def test_two_seats_win_and_lose(self) -> None:
        assert os_game.returns_of(Result((3, 5), frozenset({Seat(1)}), (2, 1)), 2) == [-1.0, 1.0]

    def test_between_first_and_last_returns_are_linear_in_rank(self) -> None:
        result = Result((9, 5, 1), frozenset({Seat(0)}), (1, 2, 3))
        assert os_game.returns_of(result, 3) == [1.0, 0.0, -1.0]

    def test_shared_wins_and_shared_places(self) -> None:
        result = Result((9, 9, 1, 1), frozenset({Seat(0), Seat(1)}), (1, 1, 3, 3))
        assert os_game.returns_of(result, 4) == pytest.approx([1.0, 1.0, -1 / 3, -1 / 3])

    def test_a_lost_cooperative_game_is_a_loss_for_every_seat(self) -> None:
        assert os_game.returns_of(Result((0, 0), frozenset(), (1, 1)), 2) == [-1.0, -1.0]

    def test_a_won_cooperative_game_is_a_win_for_every_seat(self) -> None:
        assert os_game.returns_of(Result((0,), frozenset({Seat(0)}), (1,)), 1) == [1.0]


def test_ismcts_in_process_only_picks_legal_actions() -> None:
    """OpenSpiel's ISMCTS (a few simulations) plays a short Sail Away game for seat 0."""
    from flotilla.openspiel.seat import ismcts

    game = os_game.load("sail_away", players=2, max_rounds=1, max_moves=40)
    bot = ismcts(simulations=4, seed=3)(game)
    state = game.new_initial_state()
    driver = random.Random(5)
    searched = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = bot.step(state) if state.current_player() == 0 else driver.choice(legal)
        assert action in legal
        searched += state.current_player() == 0
        state.apply_action(action)
    assert searched > 0


def test_a_state_built_from_a_view_has_the_views_information_state() -> None:
    """What a seat over RPC searches from (`from_view`) matches the real state for that seat."""
    from flotilla.rules import Rng

    game = os_game.load("counter", moves=10)
    state = game.new_initial_state()
    state.apply_action(1)
    rules = REGISTRY["counter"]
    assert rules.from_view is not None
    rebuilt = game.state_of(rules.from_view(state.view(1), Seat(1), Rng(99)), 1)
    assert rebuilt.information_state_string(1) == state.information_state_string(1)
    assert rebuilt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("case", CASES, ids=ident)
def test_a_seat_over_rpc_decides_from_its_view_alone(case: tuple[str, dict[str, Any]]) -> None:
    """What `seat.play_seat` does at each prompt, in process: a world rebuilt from the seat's view
    (`from_view`) has the real state's information-state string and legal actions for that seat,
    and the bot's pick from it is legal in the real state."""
    from flotilla.openspiel.seat import decide, ismcts

    kind, params = case
    game = os_game.load(kind, **params)
    rules = game.rules
    if rules.from_view is None:
        pytest.skip(f"{kind} has no from_view")
    bot = ismcts(simulations=2, seed=1)(game)
    state = game.new_initial_state()
    driver = random.Random(11)
    decided = 0
    while not state.is_terminal():
        player = state.current_player()
        if driver.random() < 0.1:
            from flotilla.rules import Rng

            rebuilt = game.state_of(
                rules.from_view(state.view(player), Seat(player), Rng(driver.getrandbits(64))), player
            )
            assert rebuilt.information_state_string(player) == state.information_state_string(player)
            assert [rebuilt.action_to_string(player, a) for a in rebuilt.legal_actions()] == [
                state.action_to_string(player, a) for a in state.legal_actions()
            ]
            chosen = decide(game, state.view(player), player, bot, driver)
            state.apply_action(state.action_id(chosen))
            decided += 1
        else:
            state.apply_action(driver.choice(state.legal_actions()))
    assert decided > 0
