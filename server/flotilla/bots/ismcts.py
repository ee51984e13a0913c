"""`ismcts`: single-observer information-set Monte Carlo tree search, one implementation for
every game.

Each playout draws a world from `decision.sample` (hidden cards and the engine's RNG re-drawn, so
chance is re-sampled too), walks the one tree of the deciding seat's information set with UCB1 over
the actions legal in that world (counting how often each was available, as ISMCTS does), expands
one action (its heuristic follow-through is the node's prior, a progressive bias in UCB1), plays
on at random for the game table's `rollout` decisions and scores the position with the heuristic's
`win_chance` for every seat (`rollout` 0: the new node's prior is the value; `relative`: the
chance of the lead gained since the decision, so a game far from even still shows which action
gains most); each node backs up the reward of the seat that acted into it. With the table's
`chain`, a seat's consecutive prompts are one decision (Navegador's stepwise choices): a node whose
mover acts again below it is worth its best such child (`Node.value`), not the mean over them, so
a good first step is not judged by the random second steps tried after it. The table's `spread`
compares siblings' values
relative to their range, and `horizon` ends the tree at the deciding seat's next turn. Seats
that must act at once (simultaneous decisions) act in turn, lowest seat first, as the engines
accept them. The answer is the most visited root action. Given `rng` and a playout budget it is
deterministic; `seconds` turns it into a time budget instead.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from flotilla.bots.heuristic.driver import GameTable, follow, position, squash, table, win_chance
from flotilla.bots.policy import Decision, Rules, register
from flotilla.rules import Rng, Seat

PLAYOUTS = (60, 300, 800)
"""Playouts per decision by difficulty 0, 1, 2. A playout (a determinization, the tree walk with
the new node's heuristic prior, the rollout) costs 1.4-2 ms on a quiet core of the benchmark
machine in Port Royal, Sail Away and Pirates of Nassau and about 0.5 ms in Navegador
(`bench/ismcts_rate.py`: 480-700 and about 2,000 playouts in 1 s), so difficulty 2 takes about
1-1.6 s per decision in the first three."""
PRIOR_NODES = 6
"""Applications the heuristic's greedy follow-through may spend on one new node's prior."""


@dataclass(slots=True)
class Node:
    """Statistics of one edge (the action that led here) and the edges below it."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0
    prior: float = 0.5
    best: float | None = None
    """The best child's value among those of the same mover (its next prompt of the same
    decision); None while there is none."""
    children: dict[tuple[Seat, Any], Node] = field(default_factory=dict)

    def value(self) -> float:
        """The edge's value for its mover: the best same-mover child's, else the mean reward."""
        return self.reward / self.visits if self.best is None else self.best

    def back_up(self, mover: Seat, reward: float, chain: bool) -> None:
        """Count one playout through this edge (`mover` acted into it) with `reward`; `chain`:
        keep the best same-mover child's value too (else the value is the mean)."""
        self.visits += 1
        self.reward += reward
        if not chain:
            return
        values = [c.value() for (seat, _), c in self.children.items() if seat == mover and c.visits]
        self.best = max(values) if values else None


class IsmctsPolicy:
    """Information-set MCTS over `decision.sample`; `playouts` per decision (or `seconds`)."""

    name = "ismcts"
    chain: bool | None = None
    """Override of the game table's `chain` (for before/after comparisons); None: the table's."""

    def __init__(self, rules: Rules, difficulty: int = 1, *, seconds: float | None = None) -> None:
        self.rules = rules
        self.playouts = PLAYOUTS[max(0, min(difficulty, len(PLAYOUTS) - 1))]
        self.seconds = seconds
        self.rollout_depth = table(rules).rollout
        self.backup_chain = table(rules).chain if self.chain is None else self.chain
        self.searches = 0
        """Decisions searched so far (more than one legal action) and the playouts they took."""
        self.playouts_done = 0

    def choose(self, decision: Decision, rng: random.Random) -> Any:
        if len(decision.legal) == 1:
            return decision.legal[0]
        root = Node()
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        done = 0
        while done < self.playouts if deadline is None else time.monotonic() < deadline:
            self._playout(root, decision, rng)
            done += 1
        self.searches += 1
        self.playouts_done += done
        seat = decision.seat

        def visits(i: int) -> tuple[int, float]:  # ties: the better value, not the first action
            child = root.children.get((seat, decision.legal[i]))
            return (child.visits, child.value()) if child else (-1, 0.0)

        return decision.legal[max(range(len(decision.legal)), key=visits)]

    def _playout(self, root: Node, decision: Decision, rng: random.Random) -> None:
        rules = self.rules
        state = decision.sample(Rng(rng.getrandbits(64)))
        game = table(rules)
        base = self._base(game, state)
        node, path = root, []
        seat, legal = decision.seat, decision.legal
        while True:
            for action in legal:
                child = node.children.get((seat, action))
                if child is not None:
                    child.available += 1
            untried = [a for a in legal if (seat, a) not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                state = rules.apply(state, seat, action).state
                node.children[(seat, action)] = child = Node(available=1, prior=self._prior(state, seat, base))
            else:
                action, child = self._select(node, seat, legal)
                state = rules.apply(state, seat, action).state
            path.append((child, seat))
            node = child
            if untried or rules.result(state) is not None:
                break
            seat = min(rules.to_act(state))
            if game.horizon and seat == decision.seat and any(m != seat for _, m in path):
                break  # the deciding seat's next turn: every leaf is scored at the same depth
            legal = rules.legal_actions(state, seat)
        rewards: dict[Seat, float] = {}
        if untried and self.rollout_depth == 0:
            rewards = self._leaf(game, state, seat, child.prior)
        else:
            state = self._rollout(state, rng)
        for child, mover in reversed(path):  # leaf first: a node's best child is up to date
            if mover not in rewards:
                rewards[mover] = self._value(game, state, mover, base)
            child.back_up(mover, rewards[mover], self.backup_chain)

    def _leaf(self, game: GameTable, state: Any, seat: Seat, prior: float) -> dict[Seat, float]:
        """Rollout 0: the new node's prior is its value for `seat`, its complement for the one
        opponent of a 2-seat game (other seats: their `win_chance`, computed when backed up)."""
        rewards = {seat: prior}
        if self.rules.seats_of(state.config) == 2 and not game.shared(state):
            rewards[Seat(1 - seat)] = 1.0 - prior
        return rewards

    def _rollout(self, state: Any, rng: random.Random) -> Any:
        """Play on at random for `rollout` decisions (or until the game ends)."""
        rules = self.rules
        for _ in range(self.rollout_depth):
            if rules.result(state) is not None:
                break
            mover = min(rules.to_act(state))
            options = rules.legal_actions(state, mover)
            state = rules.apply(state, mover, options[rng.randrange(len(options))]).state
        return state

    def _base(self, game: GameTable, world: Any) -> dict[Seat, float]:
        """`GameTable.relative`: each seat's `position` in the playout's root world (else empty)."""
        if not game.relative or game.shared(world):
            return {}
        return {Seat(i): position(self.rules, game, world, Seat(i)) for i in range(self.rules.seats_of(world.config))}

    def _value(self, game: GameTable, state: Any, seat: Seat, base: dict[Seat, float]) -> float:
        """The reward of an unfinished position: `win_chance`, or (`relative`) the chance of the
        seat's lead gained since the root; a finished game's is always
        the outcome."""
        if not base or self.rules.result(state) is not None:
            return win_chance(self.rules, game, state, seat)
        lead = position(self.rules, game, state, seat)
        return squash(game, lead - base[seat], abs(game.evaluate(state, seat)))

    def _prior(self, state: Any, seat: Seat, base: dict[Seat, float]) -> float:
        """The heuristic's view of a new node: its greedy follow-through, as a chance to win (or,
        `relative`, of the lead gained since the root)."""
        game = table(self.rules)
        if self.rules.result(state) is not None or game.shared(state):
            return win_chance(self.rules, game, state, seat)
        lead = follow(self.rules, game, state, seat, game.lookahead - 1, [PRIOR_NODES])
        return squash(game, lead - base.get(seat, 0.0), abs(game.evaluate(state, seat)))

    def _select(self, node: Node, seat: Seat, legal: tuple[Any, ...]) -> tuple[Any, Node]:
        """UCB1 over the available actions, plus the prior's progressive bias (`GameTable.bias`);
        with `GameTable.spread`, values and priors count relative to their siblings' range."""
        game = table(self.rules)
        bias, exploration = game.bias, game.exploration
        children = [node.children[(seat, action)] for action in legal]
        values = [c.value() for c in children]
        priors = [c.prior for c in children]
        if game.spread > 0:
            values, priors = _spread(values, game.spread), _spread(priors, game.spread)
        best: tuple[Any, Node] | None = None
        best_value = -math.inf
        for action, child, q, prior in zip(legal, children, values, priors, strict=True):
            value = q + exploration * math.sqrt(math.log(child.available) / child.visits)
            value += bias * prior / child.visits
            if value > best_value:
                best, best_value = (action, child), value
        assert best is not None
        return best


def _spread(values: list[float], least: float) -> list[float]:
    """`values` rescaled to 0..1 over their range (a range under `least` counts as `least`)."""
    low = min(values)
    span = max(max(values) - low, least)
    return [(v - low) / span for v in values]


@register("ismcts")
def _ismcts(rules: Rules, difficulty: int) -> IsmctsPolicy:
    return IsmctsPolicy(rules, difficulty)
