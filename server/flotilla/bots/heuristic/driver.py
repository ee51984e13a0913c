"""The shared driver of the `heuristic` policy: apply each legal action to sampled worlds, follow
the seat's own further decisions greedily, score the position with the game's evaluation, and pick
by a softmax whose temperature the difficulty sets.

Everything a game contributes is one `GameTable` (its evaluation and a few numbers) in
`TABLES[rules.name]`; the per-game modules fill it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flotilla.bots.policy import Decision, Rules
from flotilla.rules import Rng, Seat


@dataclass(frozen=True, slots=True)
class GameTable:
    """What the driver needs from one game.

    `evaluate(state, seat)` is the seat's worth in the game's points (higher is better, comparable
    between seats); `shared(state)` says the seats win or lose together (co-op), and then
    `team_chance(state)` estimates the team's chance to win (0..1); `scale` is a clear lead in
    those points (softmax temperature and the win chance of a lead are relative to it);
    `lookahead` is how many of its own decisions in a row a seat follows greedily; `rollout` how
    many random decisions a tree search plays on before it scores a new node (0: the node's prior
    is its value), `relative` that it rewards the lead gained since the decision (a game far from
    even still shows which action gains most), `exploration` its UCB1 constant (rewards are 0..1),
    `bias` how much it trusts the heuristic's prior of a node (progressive bias); `temperature`
    and `nodes` (by difficulty) replace the driver's `TEMPERATURE` and `NODES`. Tree search only:
    `spread` above 0 that values and priors count relative to their siblings' range, taken as at
    least `spread` wide (actions that differ by little in large scores still show which is best);
    `chain` that a seat's consecutive prompts back up as one decision (the best follow-up's value,
    not the mean: stepwise prompts whose follow-ups chance does not change); `horizon` that the
    tree ends at the deciding seat's next turn (leaves deeper in the tree would count more turns
    of gains than shallow ones).
    """

    evaluate: Callable[[Any, Seat], float]
    scale: float
    lookahead: int = 2
    shared: Callable[[Any], bool] = lambda _state: False
    team_chance: Callable[[Any], float] = lambda _state: 0.5
    rollout: int = 8
    relative: bool = False
    bias: float = 1.0
    exploration: float = 0.7
    spread: float = 0.0
    chain: bool = False
    horizon: bool = False
    temperature: tuple[float, float, float] | None = None
    nodes: tuple[int, int, int] | None = None


TABLES: dict[str, GameTable] = {}

WIN_BONUS = 1000.0
"""Added (in units of `scale`) to a won final position, subtracted from a lost one."""

RELATIVE = 0.1
"""`win_chance`: a lead of this share of the larger score counts as much as one `scale`."""

# By difficulty 0, 1, 2: worlds sampled per decision, softmax temperature (in `scale`),
# decisions of the seat's own followed per root action at most.
SAMPLES = (1, 2, 3)
TEMPERATURE = (0.35, 0.08, 0.01)
NODES = (12, 40, 120)


def table(rules: Rules) -> GameTable:
    """The game's table; a neutral one (every position worth 0) for a game without one."""
    return TABLES.get(rules.name) or GameTable(evaluate=lambda _s, _seat: 0.0, scale=1.0, lookahead=0)


def position(rules: Rules, game: GameTable, state: Any, seat: Seat) -> float:
    """The seat's standing: its evaluation minus the best other seat's (alone or in co-op: its
    own), with `WIN_BONUS` scales for a finished game won or lost."""
    outcome = rules.result(state)
    if outcome is not None:
        won = seat in outcome.winners
        own = float(outcome.scores[seat]) if outcome.scores else 0.0
        if game.shared(state) or len(outcome.scores) < 2:
            return own + (WIN_BONUS if won else -WIN_BONUS) * game.scale
        best = max(s for i, s in enumerate(outcome.scores) if i != seat)
        bonus = WIN_BONUS / len(outcome.winners) if won else -WIN_BONUS
        return own - best + bonus * game.scale
    own = game.evaluate(state, seat)
    n = rules.seats_of(state.config)
    if n < 2 or game.shared(state):
        return own
    return own - max(game.evaluate(state, Seat(i)) for i in range(n) if i != seat)


def win_chance(rules: Rules, game: GameTable, state: Any, seat: Seat) -> float:
    """`position` squashed to 0..1 (1 = won): the reward a tree search backs up."""
    outcome = rules.result(state)
    if outcome is not None:
        if game.shared(state):
            return 1.0 if outcome.winners else 0.0
        return 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    if game.shared(state):
        return game.team_chance(state)
    own = game.evaluate(state, seat)
    return squash(
        game, position(rules, game, state, seat), max(abs(own), abs(own - position(rules, game, state, seat)))
    )


def squash(game: GameTable, lead: float, size: float) -> float:
    """A lead (a `position`) as a chance to win, 0..1; it counts relative to the scores' `size`
    too (Navegador's scores multiply as the game goes on)."""
    x = lead / (game.scale + RELATIVE * size)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def follow(rules: Rules, game: GameTable, state: Any, seat: Seat, depth: int, budget: list[int]) -> float:
    """The best `position` the seat reaches by its own next `depth` decisions while it alone must
    act (stepwise prompts, the rest of a turn), spending at most `budget[0]` applications."""
    if depth <= 0 or budget[0] <= 0 or rules.result(state) is not None or rules.to_act(state) != {seat}:
        return position(rules, game, state, seat)
    best = -math.inf
    for action in rules.legal_actions(state, seat):
        if budget[0] <= 0:
            break
        budget[0] -= 1
        after = rules.apply(state, seat, action).state
        best = max(best, follow(rules, game, after, seat, depth - 1, budget))
    return best if best > -math.inf else position(rules, game, state, seat)


def action_values(rules: Rules, decision: Decision, rng: random.Random, difficulty: int) -> list[float]:
    """Each legal action's mean `follow` value over the same sampled worlds (paired comparison)."""
    game = table(rules)
    level = max(0, min(difficulty, len(SAMPLES) - 1))
    worlds = [decision.sample(Rng(rng.getrandbits(64))) for _ in range(SAMPLES[level])]
    per_action = max(1, (game.nodes or NODES)[level] // len(decision.legal))
    values = []
    for action in decision.legal:
        total = 0.0
        for world in worlds:
            after = rules.apply(world, decision.seat, action).state
            total += follow(rules, game, after, decision.seat, game.lookahead - 1, [per_action])
        values.append(total / len(worlds))
    return values


def pick(values: list[float], temperature: float, rng: random.Random) -> int:
    """A softmax draw over `values` (temperature in the values' units; ties broken by `rng`)."""
    top = max(values)
    weights = [math.exp(max(-50.0, (v - top) / temperature)) if temperature > 0 else float(v == top) for v in values]
    return rng.choices(range(len(values)), weights=weights)[0]


class HeuristicPolicy:
    """Greedy on the game's evaluation, softened by difficulty (0 noisy, 1 default, 2 sharp)."""

    name = "heuristic"

    def __init__(self, rules: Rules, difficulty: int = 1) -> None:
        self.rules = rules
        self.difficulty = max(0, min(difficulty, len(SAMPLES) - 1))

    def choose(self, decision: Decision, rng: random.Random) -> Any:
        if len(decision.legal) == 1:
            return decision.legal[0]
        values = action_values(self.rules, decision, rng, self.difficulty)
        game = table(self.rules)
        temperature = (game.temperature or TEMPERATURE)[self.difficulty] * game.scale
        return decision.legal[pick(values, temperature, rng)]
