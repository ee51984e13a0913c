"""Server-side policies over RPC (flotilla.bots.remote, `flotilla bot`, `flotilla arena --target`):
the seat's proto view and prompt decode to the engine's decision for every game, the command plays
games on a real stack, and the arena over gRPC totals what GetGame says of its games."""

from __future__ import annotations

import asyncio
import random

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.app.host import host_for
from flotilla.bots import make
from flotilla.bots.arena import Entrant, rotation
from flotilla.bots.command import run as run_bot_command
from flotilla.bots.remote import PolicyBot
from flotilla.bots.remote_arena import result_of, run_remote
from flotilla.cli import build_parser, main
from flotilla.convert import GameConverter
from flotilla.gateway.render import Renderer
from flotilla.rules import Rng, Seat
from flotilla_client import FlotillaClient
from support import Stack

GAMES = [
    ("counter", 2, {}),
    ("sail_away", 3, {}),
    ("port_royal", 2, {"mode": "contract_comp"}),
    ("pirates_of_nassau", 2, {}),
    ("navegador", 2, {}),
]


@pytest.mark.parametrize(("kind", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_the_wire_decision_is_the_engines_decision(kind: str, seats: int, options: dict[str, str]) -> None:
    """Along a random playout, what PolicyBot decodes from the wire is the seat's engine view and
    legal actions, and what it answers is one of the prompt's actions."""
    host = host_for(kind)
    rules, renderer = host.rules, Renderer()
    converter = GameConverter(rules)
    bot = PolicyBot(rules, make("random", rules), random.Random(1))
    state, rng = rules.new_game(host.config(seats, options), 7), random.Random(7)
    for step in range(60):
        if rules.result(state) is not None:
            break
        seat = Seat(min(rules.to_act(state)))
        legal = rules.legal_actions(state, seat)
        view = game_pb2.GameView(viewer_seat=seat)
        getattr(view, kind).CopyFrom(converter.view_to_pb(rules.view(state, seat)))
        prompt = renderer.prompt(host, seat, legal, step + 1, "lineage")
        decision = bot.decision(view, prompt)
        assert decision.view == rules.view(state, seat)
        assert decision.legal == legal
        assert bot.choose(view, prompt) in prompt.legal_actions
        if rules.from_view is None:
            with pytest.raises(NotImplementedError):
                decision.sample(Rng(0))
        elif step % 10 == 0:  # a world drawn from the wire view alone looks the same to the seat
            assert rules.view(decision.sample(Rng(step)), seat) == decision.view
        state = rules.apply(state, seat, rng.choice(legal)).state


@pytest.mark.redis
@pytest.mark.timeout(120)
async def test_flotilla_bot_plays_games_of_its_own_on_a_real_stack(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    """`flotilla bot` (its code, in process: a fresh interpreter's imports would cost more than the
    games) plays two games of its own against the stack's gateway."""
    flags = ["--kind", "counter", "--option", "moves=10", "--concurrency", "2", "--target", stack.gateways[0]]
    args = build_parser().parse_args(["bot", "--policy", "random", "--games", "2", *flags])
    code = await asyncio.wait_for(run_bot_command(args, None), 90)
    text = capsys.readouterr().out
    assert code == 0, text[-2000:]
    assert "random (difficulty 1): 2 of 2 games over" in text
    assert text.count(": game over (finished), scores [") == 2
    assert ", 10 decisions, 0 fallbacks" in text


def test_flotilla_bot_names_the_known_policies_for_an_unknown_one(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's own entry point (`flotilla.cli.main`, in process): a usage error, before
    any gateway is asked."""
    code = main(["bot", "--policy", "nope", "--kind", "counter", "--target", "127.0.0.1:1"])
    out = capsys.readouterr().out
    assert code == 2
    assert "no bot policy 'nope'; known: " in out
    assert "random" in out


@pytest.mark.redis
@pytest.mark.timeout(120)
async def test_the_arena_over_grpc_reports_what_the_server_says_of_its_games(stack: Stack) -> None:
    entrants = [Entrant("random"), Entrant("heuristic")]
    report = await asyncio.wait_for(
        run_remote(stack.gateways[1], "counter", 2, entrants, 2, options={"moves": "10"}, seed=3, concurrency=2),
        100,
    )
    assert len(report.games) == len(report.decisions) == 2
    assert not report.cut
    wins, scores, games = [0.0, 0.0], [0, 0], [0, 0]
    async with FlotillaClient(stack.gateways[0]) as reader:
        await reader.sign_in("reader")
        for g, name in enumerate(report.games):
            game = await reader.get_game(name)
            result = result_of(game)
            assert result is not None, game.state
            assert [s.seat for s in game.seats if s.taken] == [0, 1]
            for seat, w in enumerate(rotation(g, 2, len(entrants))):
                wins[w] += (seat in result.winners) / len(result.winners)
                scores[w] += result.scores[seat]
                games[w] += 1
    assert report.unfinished == 0
    assert [s.games for s in report.standings] == games == [2, 2]
    assert [s.wins for s in report.standings] == pytest.approx(wins)
    assert [s.score_total for s in report.standings] == scores
    assert [s.decisions for s in report.standings] == [10, 10]  # 5 moves a seat, both seats in both games
    assert sum(report.decisions) == sum(s.decisions for s in report.standings)
    table = "\n".join(report.lines())
    assert "counter 2 seats moves=10: 2 games, 10 decisions per game" in table
    for s in report.standings:
        assert f"{s.entrant.label:<22} {s.win_rate:>8.2f}" in table
    cut = await run_remote(stack.gateways[1], "counter", 2, entrants, 3, options={"moves": "10"}, time_limit_s=0.0)
    assert cut.cut
    assert cut.games == cut.decisions == []  # the game in progress at the limit is dropped, no other starts
