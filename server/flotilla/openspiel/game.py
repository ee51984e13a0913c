"""A Flotilla game as an OpenSpiel Python game (`pyspiel.Game` / `pyspiel.State` over `GameRules`).

The mapping, the same for every game (docs/openspiel.md says why):

* Dynamics: SEQUENTIAL. When several seats must act (Sail Away's ship choice, SD1) the lowest
  of them acts first (a state made with `state_of(..., seat)` lets that seat go first); the
  others learn only what the server would show them (that the seat has chosen, not what), as the
  engine's views never show an answer to a simultaneous choice before all are in. OpenSpiel's
  ISMCTS and MCTS need sequential games.
* Chance: DETERMINISTIC from OpenSpiel's side. The engines draw everything from a generator kept
  in the state; `new_initial_state` seeds it from the `seed` parameter, so a game is a pure
  function of (seed, actions). What a seat does not know (deck order, future rolls, others'
  cards) is hidden state, redrawn by `resample_from_infostate` through the engine's
  `determinize`.
* Actions: the index of the action in the engine's legal list (engine order). The engines'
  action spaces are combinatorial (Port Royal's expedition payments, Navegador's fleets,
  counter's unbounded numbers), so ids are per information state; the engines guarantee equal
  legal lists for states a seat cannot tell apart. `num_distinct_actions` bounds the list.
* Observations: the seat's engine view, as canonical text (`encoding.canonical`) and as hashed
  features; the information-state string is the same text (views carry what the seat may know
  now, so they are not perfect recall where a game lets a seat forget).
* Returns: +1 for a winner, -1 for the last place, linear in rank between; no winner (a lost
  co-operative game) is -1 for every seat; `max_moves` (0: no limit) cuts a game short with 0.
"""

from __future__ import annotations

import enum
import random
import typing
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from flotilla.games import REGISTRY, rules_at
from flotilla.rules import GameRules, InvalidConfig, Result, Rng, Seat
from flotilla.rules.options import config_from_options, option_names

from .encoding import canonical, encode

__all__ = ["canonical", "encode"]  # re-exported for tests and callers

Rules = GameRules[Any, Any, Any, Any, Any]

PREFIX = "flotilla_"
MAX_LEGAL = 512
"""`num_distinct_actions` of every game but counter: more legal actions than this raise."""
TENSOR_SIZE = 1024
"""Length of the hashed observation tensor."""
_MAX_SEATS_TRIED = 8


def short_name(kind: str) -> str:
    """The OpenSpiel name of a Flotilla game kind (`pyspiel.load_game(short_name(kind))`)."""
    return PREFIX + kind


def _parameters(rules: Rules) -> dict[str, Any]:
    """OpenSpiel parameters: `players`, `seed` and each config option with its default."""
    hints = typing.get_type_hints(rules.config_type)
    config = rules.config_type()
    params: dict[str, Any] = {"players": rules.seats_of(config), "seed": 0, "max_moves": 0}
    for name in option_names(rules.config_type):
        default, hint = getattr(config, name), hints[name]
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            params[name] = default.name.lower()
        elif hint in (bool, int, str):
            params[name] = default
    return params


def _seat_range(rules: Rules) -> tuple[int, int]:
    """The seat counts some config of the game accepts (defaults otherwise; port_royal co-op: 1)."""
    ok = []
    for n in range(1, _MAX_SEATS_TRIED + 1):
        for options in ({}, {"mode": "contract_coop"}):
            try:
                config_from_options(rules.config_type, n, options)
            except InvalidConfig:
                continue
            ok.append(n)
            break
    return min(ok), max(ok)


def returns_of(result: Result, seats: int) -> list[float]:
    """OpenSpiel returns: winners +1, last place -1, linear in rank between; no winner: all -1."""
    out = []
    for seat in range(seats):
        rank = result.ranks[seat] if result.ranks else (1 if Seat(seat) in result.winners else seats)
        if Seat(seat) in result.winners:
            out.append(1.0)
        elif not result.winners or seats == 1 or rank <= 1:
            out.append(-1.0)
        else:
            out.append(1.0 - 2.0 * (rank - 1) / (seats - 1))
    return out


class FlotillaGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One Flotilla game kind with its parameters (seats, seed, options)."""

    def __init__(self, rules: Rules, game_type: Any, params: dict[str, Any] | None = None) -> None:
        params = {**_parameters(rules), **(params or {})}
        seats = int(params["players"])
        max_moves = int(params["max_moves"])
        if max_moves < 0:
            msg = f"max_moves must be 0 (no limit) or more, got {max_moves}"
            raise ValueError(msg)
        info = pyspiel.GameInfo(
            num_distinct_actions=_max_legal(rules),
            max_chance_outcomes=0,
            num_players=seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_moves or rules.max_steps,
        )
        super().__init__(game_type, info, params)
        self.rules = rules
        self.seats = seats
        self.seed = int(params["seed"])
        self.max_legal = _max_legal(rules)
        options = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in params.items()}
        options = {k: v for k, v in options.items() if k in option_names(rules.config_type)}
        self.config = config_from_options(rules.config_type, seats, options)
        self.context = _Context(rules, seats, max_moves)
        self._initial: Any = None

    def new_initial_state(self) -> FlotillaState:
        """The game dealt from the `seed` parameter (the same deal every call)."""
        if self._initial is None:  # engine states are immutable: deal once (OpenSpiel's Clone starts here)
            self._initial = self.rules.new_game(self.config, _engine_seed(self.seed))
        return FlotillaState(self, self._initial)

    def state_of(self, engine_state: Any, seat: int | None = None) -> FlotillaState:
        """An OpenSpiel state wrapping an engine state of this game (e.g. one `from_view` built);
        when `seat` is among several seats that must act, it acts first (it is the one deciding)."""
        return FlotillaState(self, engine_state, seat)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        """The view observer (the same for observations and information states)."""
        if params:
            msg = f"observation parameters are not supported, got {params}"
            raise ValueError(msg)
        return ViewObserver(self.rules)


def _max_legal(rules: Rules) -> int:
    return 2 if rules.name == "counter" else MAX_LEGAL


def _engine_seed(seed: int) -> int:
    """A 128-bit engine seed from a small OpenSpiel seed (engines expect wide seeds)."""
    return random.Random(seed).getrandbits(128)


class _PickledRules:
    """GameRules by name and version (GameRules holds lambdas, which pickle cannot store)."""

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version

    def __reduce__(self) -> tuple[Any, ...]:
        return rules_at_or_fail, (self.name, self.version)


def _pickled_rules(rules: Rules) -> Any:
    return _PickledRules(rules.name, rules.version)


def rules_at_or_fail(name: str, version: str) -> Rules:
    """The rules of `name` at `version` (how a pickled OpenSpiel state finds its engine)."""
    rules = rules_at(name, version)
    if rules is None:
        msg = f"this server does not run {name} rules version {version}"
        raise LookupError(msg)
    return rules


class _Shared:
    """Immutable values a state holds: OpenSpiel's `Clone` deep-copies a Python state's
    attributes, and these need no copy (`__deepcopy__` returns the object itself)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class _Context(_Shared):
    __slots__ = ("max_legal", "max_moves", "rules", "seats")

    def __init__(self, rules: Rules, seats: int, max_moves: int) -> None:
        self.rules = rules
        self.seats = seats
        self.max_moves = max_moves
        self.max_legal = _max_legal(rules)

    def __reduce__(self) -> tuple[Any, ...]:  # OpenSpiel serializes a Python state by pickling
        return _Context, (_pickled_rules(self.rules), self.seats, self.max_moves)


class _Node(_Shared):
    """One engine state with what OpenSpiel asks of it, computed once when first asked."""

    __slots__ = ("_legal", "_result", "_seat", "_seen", "cut", "engine_state", "first", "moves", "rules")

    def __init__(
        self, rules: Rules, engine_state: Any, moves: int = 0, cut: bool = False, first: int | None = None
    ) -> None:
        self.rules = rules
        self.engine_state = engine_state
        self.moves = moves
        self.cut = cut
        """Truncated by `max_moves`: terminal with no result."""
        self.first = first
        """The seat that acts first here when it is among several that must (a state built for it)."""
        self._seat: int | None = -1
        self._seen: dict[int | None, tuple[Any, str, Any]] = {}

    def seen(self, player: int | None) -> tuple[Any, str, Any]:
        """`player`'s view (None: a spectator's), its canonical text and its tensor (observers ask
        for each, often)."""
        if player not in self._seen:
            view = self.rules.view(self.engine_state, None if player is None else Seat(player))
            tensor = np.zeros(TENSOR_SIZE, np.float32)
            text, pairs = encode(view, TENSOR_SIZE)
            if pairs:
                buckets, amounts = zip(*pairs, strict=True)
                np.add.at(tensor, np.array(buckets), np.array(amounts, np.float32))
            self._seen[player] = (view, text, tensor)
        return self._seen[player]

    def __reduce__(self) -> tuple[Any, ...]:
        return _Node, (_pickled_rules(self.rules), self.engine_state, self.moves, self.cut, self.first)

    def seat(self) -> int | None:
        if self._seat == -1:
            acting = frozenset() if self.cut else self.rules.to_act(self.engine_state)
            self._seat = (self.first if self.first in acting else min(acting)) if acting else None
        return self._seat

    def legal(self) -> tuple[Any, ...]:
        if not hasattr(self, "_legal"):
            seat = self.seat()
            self._legal = () if seat is None else tuple(self.rules.legal_actions(self.engine_state, Seat(seat)))
        return self._legal

    def result(self) -> Result | None:
        if not hasattr(self, "_result"):
            self._result = None if self.cut else self.rules.result(self.engine_state)
        return self._result


class FlotillaState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """An engine state seen through OpenSpiel's API; the engine state is immutable and shared."""

    def __init__(self, game: FlotillaGame, engine_state: Any, first: int | None = None) -> None:
        super().__init__(game)
        self._ctx = game.context
        self._node = _Node(game.rules, engine_state, first=first)

    @property
    def engine_state(self) -> Any:
        """The engine state this OpenSpiel state stands for."""
        return self._node.engine_state

    @property
    def flotilla_game(self) -> FlotillaGame:
        """The game this state belongs to."""
        game: FlotillaGame = self.get_game()
        return game

    def clone_with(self, engine_state: Any) -> FlotillaState:
        """A state of the same game holding `engine_state` (its OpenSpiel history starts empty)."""
        return FlotillaState(self.get_game(), engine_state, self._node.first)

    def current_player(self) -> int:
        """The seat to act (the lowest one when several must), or TERMINAL."""
        seat = self._node.seat()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._node.seat():
            return []
        legal = self._node.legal()
        if len(legal) > self._ctx.max_legal:
            msg = f"{self._ctx.rules.name}: {len(legal)} legal actions, more than {self._ctx.max_legal}"
            raise RuntimeError(msg)
        return list(range(len(legal)))

    def engine_action(self, action: int) -> Any:
        """The engine action that OpenSpiel action id `action` stands for now."""
        return self._node.legal()[action]

    def action_id(self, engine_action: Any) -> int:
        """The OpenSpiel action id of a legal engine action (ValueError when it is not legal now)."""
        return self._node.legal().index(engine_action)

    def _apply_action(self, action: int) -> None:
        seat = self._node.seat()
        assert seat is not None
        after = self._ctx.rules.apply(self._node.engine_state, Seat(seat), self._node.legal()[action]).state
        moves = self._node.moves + 1
        self._node = _Node(self._ctx.rules, after, moves, cut=0 < self._ctx.max_moves <= moves)

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self._node.legal()
        if player == self._node.seat() and 0 <= action < len(legal):
            return canonical(legal[action])
        return f"action#{action}"

    def is_terminal(self) -> bool:
        """Whether the engine has a result."""
        return self._node.seat() is None

    def returns(self) -> list[float]:
        """Rank-based returns at the end (see the module docstring); zeros before and when cut
        short by `max_moves`."""
        result = self._node.result() if self.is_terminal() else None
        if result is None:
            return [0.0] * self._ctx.seats
        return returns_of(result, self._ctx.seats)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FlotillaState:
        """A state `player_id` cannot tell from this one (the engine's `determinize`); the
        sampler (a callable giving floats in [0, 1), as OpenSpiel's ISMCTS passes) seeds it."""
        seed = int(probability_sampler() * 2**53)
        return self.clone_with(self._ctx.rules.determinize(self._node.engine_state, Seat(player_id), Rng(seed)))

    def view(self, player: int) -> Any:
        """The engine view of `player`."""
        return self._node.seen(player)[0]

    def view_tensor(self, player: int) -> Any:
        """`player`'s view as hashed features (`encoding.encode`), a float32 array; do not modify."""
        return self._node.seen(player)[2]

    def view_text(self, player: int) -> str:
        """The engine view of `player` as canonical text (its information-state string)."""
        return self._node.seen(player)[1]

    def __str__(self) -> str:
        return self._node.seen(None)[1]


class ViewObserver:
    """OpenSpiel's PyObserver over the engine view: hashed features and canonical text."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tensor = np.zeros(TENSOR_SIZE, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: FlotillaState, player: int) -> None:
        """Fill `tensor` from `player`'s view of `state`."""
        self.tensor[:] = state.view_tensor(player)

    def string_from(self, state: FlotillaState, player: int) -> str:
        """`player`'s view of `state` as canonical text."""
        return state.view_text(player)


def _game_type(rules: Rules) -> Any:
    low, high = _seat_range(rules)
    return pyspiel.GameType(
        short_name=short_name(rules.name),
        long_name=f"Flotilla {rules.name} (rules {rules.version})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(rules),
    )


def register(kind: str) -> None:
    """Register Flotilla game `kind` with OpenSpiel (idempotent)."""
    name = short_name(kind)
    if name in pyspiel.registered_names():
        return
    rules = REGISTRY[kind]
    game_type = _game_type(rules)

    # A class, not a closure: pyspiel keeps the factory until exit, and destroying a Python
    # function object there (without the GIL) aborts the interpreter; classes are not destroyed.
    class Game(FlotillaGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(rules, game_type, params)

    Game.__name__ = Game.__qualname__ = f"FlotillaGame_{kind}"
    pyspiel.register_game(game_type, Game)


def register_all() -> tuple[str, ...]:
    """Register every Flotilla game; their OpenSpiel names."""
    for kind in REGISTRY:
        register(kind)
    return tuple(short_name(kind) for kind in REGISTRY)


def params_from_options(kind: str, options: Mapping[str, str]) -> dict[str, Any]:
    """OpenSpiel parameters from a Flotilla game's wire options (`Game.options`), typed as the
    game's parameters are; unknown names are kept as text (the game refuses them)."""
    defaults = _parameters(REGISTRY[kind])
    out: dict[str, Any] = {}
    for name, raw in options.items():
        default = defaults.get(name)
        if isinstance(default, bool):
            out[name] = raw.lower() in {"true", "1", "yes", "on"}
        elif isinstance(default, int):
            out[name] = int(raw)
        else:
            out[name] = raw
    return out


def load(kind: str, **params: Any) -> FlotillaGame:
    """The OpenSpiel game of `kind` with `params` (players, seed, options), registered if needed."""
    register(kind)
    game: FlotillaGame = pyspiel.load_game(short_name(kind), params)
    return game
