"""A server-side policy playing a seat over RPC: the SDK bot (`flotilla_client.bot`) that turns
what the seat receives (the proto view and prompt) into a `Decision`, and the policy's choice back
into one of the prompt's actions.

The view is decoded with `GameConverter.view_from_pb`, the legal actions with `action_from_pb`;
`Decision.sample` is the game's `from_view` (a world drawn from the seat's view alone; a game
without one raises when a policy samples, and the framework then plays its fallback). It runs
wherever the SDK runs it (a thread per decision): the `flotilla bot` command, the matchmaker's
bot seats.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from flotilla.api.game.v1 import game_pb2
from flotilla.app.host import host_for
from flotilla.bots.policy import Decision, Policy, Rules, make
from flotilla.convert import GameConverter
from flotilla.rules import Rng, Seat
from flotilla_client import FlotillaClient
from flotilla_client import Seat as SeatToken


def _no_sampler(kind: str, rng: Rng) -> Any:
    msg = f"{kind} has no from_view: a policy over RPC cannot sample its worlds"
    raise NotImplementedError(msg)


class PolicyBot:
    """`policy` (for `rules`) as an SDK bot: `choose(view, prompt)` with the policy's own rng."""

    def __init__(self, rules: Rules, policy: Policy, rng: random.Random | None = None) -> None:
        self.rules, self.policy = rules, policy
        self.rng = rng or random.Random()
        self.converter = GameConverter(rules)

    def decision(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> Decision:
        """What the seat knows, decoded from the wire (InvalidAction when it is not this game's)."""
        name = self.rules.name
        seat = Seat(prompt.seat)
        engine_view = self.converter.view_from_pb(getattr(view, name))
        legal = tuple(self.converter.action_from_pb(getattr(a, name)) for a in prompt.legal_actions)
        from_view = self.rules.from_view
        sample = partial(from_view, engine_view, seat) if from_view is not None else partial(_no_sampler, name)
        return Decision(rules=self.rules, seat=seat, view=engine_view, legal=legal, sample=sample)

    def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        decision = self.decision(view, prompt)
        picked = self.policy.choose(decision, self.rng)
        return prompt.legal_actions[decision.legal.index(picked)]


async def policy_bot(
    client: FlotillaClient, seat: SeatToken, name: str, difficulty: int, rng: random.Random | None = None
) -> PolicyBot:
    """The policy `name` at `difficulty` for the rules (kind and version) of `seat`'s game;
    ValueError naming the known policies when there is no such policy."""
    game = await client.get_game(seat.game)
    rules = host_for(game.kind, game.rules_version).rules
    return PolicyBot(rules, make(name, rules, difficulty), rng)
