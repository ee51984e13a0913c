"""An OpenSpiel bot in a seat of a real Flotilla game, over gRPC with the SDK.

At each prompt the seat asks for its view (`GetView`: the view and the prompt of one version),
rebuilds a full state from it with the rules' `from_view` (everything the seat cannot see drawn
at random), wraps that in the game's OpenSpiel state and lets the bot pick. The bot never sees
more than the seat does: the state it searches is one world of the seat's information set, and
`resample_from_infostate` redraws the rest from there. The chosen engine action is matched to
the prompt's legal actions and submitted with the prompt's etag.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np

from flotilla.convert import GameConverter
from flotilla.games import REGISTRY, rules_at
from flotilla.rules import Rng, Seat
from flotilla_client import FlotillaClient, FlotillaError
from flotilla_client.bots import keep_playing
from flotilla_client.seat import Seat as ClientSeat

from .game import FlotillaGame, FlotillaState, load, params_from_options


class Bot(Protocol):
    """What OpenSpiel's bots offer: `step(state) -> action id`."""

    def step(self, state: Any) -> int: ...


BotFactory = Callable[[FlotillaGame], Bot]


def ismcts(simulations: int, seed: int) -> BotFactory:
    """OpenSpiel's ISMCTS bot (random-rollout evaluator) with `simulations` playouts per decision."""

    def make(game: FlotillaGame) -> Bot:
        from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: PLC0415 - heavy, optional
        from open_spiel.python.algorithms import mcts  # noqa: PLC0415

        rng = np.random.RandomState(seed)
        bot: Bot = os_ismcts.ISMCTSBot(
            game=game,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=rng,
        )
        return bot

    return make


def decide(game: FlotillaGame, view: Any, seat: int, bot: Bot, rng: random.Random) -> Any:
    """The engine action `bot` picks for `seat`, searching from a world drawn from `view`."""
    rules = game.rules
    if rules.from_view is None:
        msg = f"{rules.name} has no from_view yet: an OpenSpiel seat over RPC cannot rebuild its worlds"
        raise ValueError(msg)
    state: FlotillaState = game.state_of(rules.from_view(view, Seat(seat), Rng(rng.getrandbits(64))), seat)
    if state.current_player() != seat:
        msg = f"the world drawn from seat {seat}'s view has seat {state.current_player()} to act"
        raise RuntimeError(msg)
    return state.engine_action(bot.step(state))


async def play_seat(client: FlotillaClient, seat: ClientSeat, make_bot: BotFactory, rng: random.Random) -> int:
    """Play `seat` with the bot `make_bot` builds until the game ends; the number of decisions."""
    meta = await client.get_game(seat.game)
    rules = rules_at(meta.kind, meta.rules_version) or REGISTRY[meta.kind]
    game = load(meta.kind, players=meta.seat_count, **params_from_options(meta.kind, meta.options))
    converter = GameConverter(rules)
    bot = make_bot(game)
    decisions = 0
    async for update in client.watch(seat.game, seat):
        if not (update.HasField("prompt") and update.prompt.legal_actions):
            continue
        reply = await client.view(seat.game, seat)  # the view and the prompt of one version
        if not (reply.HasField("prompt") and reply.prompt.legal_actions):
            continue
        view = converter.view_from_pb(getattr(reply.view, meta.kind))
        chosen = await asyncio.to_thread(decide, game, view, seat.seat, bot, rng)
        offered = list(reply.prompt.legal_actions)
        engine_offered = [converter.action_from_pb(getattr(a, meta.kind)) for a in offered]
        if chosen not in engine_offered:
            msg = f"the bot chose {chosen!r}, which the prompt does not offer"
            raise RuntimeError(msg[:200])
        decisions += 1
        try:
            await client.submit(seat.game, seat, offered[engine_offered.index(chosen)], etag=reply.prompt.etag)
        except FlotillaError as error:
            if not keep_playing(error):
                break
    return decisions
