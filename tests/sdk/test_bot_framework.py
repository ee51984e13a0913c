"""The SDK's bot framework (flotilla_client.bot) against real gateways and workers (in the test
process: tests/inproc.py): sync and async bots play complete games of every kind; a slow, a failing
and a cheating bot get the fallback (the prompt's default action) in time, so the seat never times
out; run_bots bounds its concurrency; and the prompt's default is what the server plays when a
seat's clock runs out."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.app.host import host_for
from flotilla.convert import GameConverter
from flotilla.records import CLOCK
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, Played, RandomBot, Seat, fallback, run_bot, run_bots
from flotilla_client.bot import decide
from inproc import InProcess
from support import UNPACED, choose, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]
INPROC_SETTINGS = {"limits": UNPACED["FLOTILLA_LIMITS"]}  # the random seats submit as fast as the server answers

KINDS = [
    ("counter", 2, {"moves": "30"}),
    ("sail_away", 2, {"max_rounds": "2"}),
    ("port_royal", 1, {"mode": "contract_coop"}),
    ("pirates_of_nassau", 2, {}),
    ("navegador", 2, {}),
]


class SyncBot:
    """A sync bot that reads its view: checks it is the prompt's version, then plays at random
    (`support.choose`: a Navegador knight whenever one is for sale, which keeps that game short)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.views: list[tuple[str, str]] = []

    def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        self.views.append((view.etag, prompt.etag))
        return choose(self.rng, prompt.legal_actions)


class KnightBot(RandomBot):
    """The SDK's async `RandomBot` (no view per decision), but buying a Navegador knight whenever one
    is for sale (`support.choose`): uniform play alone takes a Navegador game 1,000-3,000 decisions,
    which shows nothing more about the framework than a shorter game does."""

    async def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        return choose(self.rng, prompt.legal_actions)


async def _seated(
    target: str, kind: str, seats: int, options: dict[str, str], **create: object
) -> list[tuple[FlotillaClient, Seat]]:
    players = []
    for i in range(seats):
        client = FlotillaClient(target)
        await client.sign_in(f"p{i}")
        if i == 0:
            game = await client.create_game(kind, seats, options, **create)  # type: ignore[arg-type]
        players.append((client, await client.join(game.name)))
    return players


def _version(etag: str) -> int:
    """The game version an etag names (`<version>.<lineage>`)."""
    return int(etag.partition(".")[0])


async def _close(players: list[tuple[FlotillaClient, Seat]]) -> None:
    for client, _ in players:
        await client.close()


@pytest.mark.parametrize(("kind", "seats", "options"), KINDS, ids=[k[0] for k in KINDS])
async def test_sync_and_async_bots_play_every_kind_to_the_end(
    inproc: InProcess, kind: str, seats: int, options: dict[str, str]
) -> None:
    players = await _seated(inproc.gateways[0], kind, seats, options)
    sync_bot = SyncBot(1)
    bots = [sync_bot, (KnightBot if kind == "navegador" else RandomBot)(random.Random(2))][:seats]
    try:
        played = await asyncio.wait_for(
            asyncio.gather(*(run_bot(c, s, b) for (c, s), b in zip(players, bots, strict=True))), 90
        )
        game = await players[0][0].get_game(players[0][1].game)
    finally:
        await _close(players)
    assert game.state == game_pb2.GAME_STATE_FINISHED
    assert all(p.decisions > 0 and p.fallbacks == 0 and not p.absent for p in played)
    assert played[0].last is not None
    assert any(e.HasField("game_finished") for e in played[0].last.events)
    assert sync_bot.views
    # The view is the prompt's, or newer where another seat acted meanwhile (Sail Away's seats
    # choose their ships at once): never older.
    assert all(_version(view) >= _version(prompt) for view, prompt in sync_bot.views), "a view older than its prompt"


class Stubborn:
    """An async bot that is slow on its first decision, raises on its second and answers an
    action of another game on its third; then it plays the last legal action."""

    def __init__(self) -> None:
        self.calls = 0

    async def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        self.calls += 1
        if self.calls == 1:
            await asyncio.sleep(30)
        if self.calls == 2:
            raise RuntimeError("the bot's own bug")
        if self.calls == 3:
            return game_pb2.Action(sail_away=game_pb2.Action().sail_away)
        return prompt.legal_actions[-1]


async def test_a_slow_failing_or_cheating_bot_gets_the_fallback_before_its_clock_runs_out(inproc: InProcess) -> None:
    clock = game_pb2.Clock(turn_seconds=2, max_timeouts=1)  # one timeout and the seat is absent
    players = await _seated(inproc.gateways[0], "counter", 2, {"moves": "10"}, clock=clock)
    stubborn = Stubborn()
    try:
        started = time.monotonic()
        played = await asyncio.wait_for(
            asyncio.gather(
                run_bot(*players[0], stubborn, margin_s=0.7), run_bot(*players[1], RandomBot(random.Random(3)))
            ),
            60,
        )
        game = await players[0][0].get_game(players[0][1].game)
    finally:
        await _close(players)
    mine = played[0]
    assert game.state == game_pb2.GAME_STATE_FINISHED
    assert not game.seats[0].absent, "the server had to play the seat"
    assert game.seats[0].timeouts == 0
    assert mine.fallbacks == 3
    assert mine.decisions == stubborn.calls
    assert 300 <= mine.think_ms[0] < 2000, mine.think_ms  # waited for the bot, answered before the deadline
    assert time.monotonic() - started < 30, "the slow decision was not cut short"


async def test_an_untimed_game_caps_thinking_at_think_s(inproc: InProcess) -> None:
    players = await _seated(inproc.gateways[0], "counter", 2, {"moves": "8"})
    stubborn = Stubborn()
    try:
        played = await asyncio.wait_for(
            asyncio.gather(
                run_bot(*players[0], stubborn, think_s=0.3), run_bot(*players[1], RandomBot(random.Random(4)))
            ),
            30,
        )
    finally:
        await _close(players)
    assert played[0].fallbacks == 3
    assert 300 <= played[0].think_ms[0] < 5000


async def test_run_bots_plays_many_games_at_a_bounded_concurrency(inproc: InProcess) -> None:
    target, games = inproc.gateways[1], 4
    opponents: list[asyncio.Task[Played]] = []
    thinking, most = 0, 0
    opponent, me = FlotillaClient(target), FlotillaClient(target)
    await opponent.sign_in("opponent")
    await me.sign_in("me")

    async def seat_to_come() -> Seat:
        game = await opponent.create_game("counter", 2, {"moves": "6"})
        opponents.append(asyncio.create_task(run_bot(opponent, await opponent.join(game.name), RandomBot())))
        return await me.join(game.name)

    async def choose(view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        nonlocal thinking, most
        thinking += 1
        most = max(most, thinking)
        await asyncio.sleep(0.02)
        thinking -= 1
        return prompt.legal_actions[0]

    try:
        played = await asyncio.wait_for(
            run_bots(me, [seat_to_come() for _ in range(games)], lambda seat: choose, concurrency=2), 60
        )
        await asyncio.wait_for(asyncio.gather(*opponents), 30)
    finally:
        await me.close()
        await opponent.close()
    assert len(played) == games
    assert all(p.error is None and p.decisions == 3 for p in played)
    assert len({p.seat.game for p in played}) == games
    assert 1 <= most <= 2, most  # never more games at once than `concurrency`


TIMED_KINDS = [(k, 2, o) for k, _, o in KINDS]  # two seats: the clocks start once both are taken


@pytest.mark.parametrize(("kind", "seats", "options"), TIMED_KINDS, ids=[k[0] for k in TIMED_KINDS])
async def test_the_prompts_default_is_what_the_server_plays_when_the_clock_runs_out(
    inproc: InProcess, kind: str, seats: int, options: dict[str, str]
) -> None:
    """Nobody answers a 1 s clock: each action the server plays for a seat is the one its prompt
    at that version named (the action log says what was played, and after which version)."""
    clock = game_pb2.Clock(turn_seconds=1, max_timeouts=100)
    players = await _seated(inproc.gateways[0], kind, seats, options, clock=clock)
    prompts: dict[tuple[int, int], game_pb2.Prompt] = {}

    async def listen(client: FlotillaClient, seat: Seat) -> None:
        async for response in client.play(seat):
            if response.update.HasField("prompt"):
                prompts[(seat.seat, response.update.through_event_id)] = response.update.prompt

    listeners = [asyncio.create_task(listen(c, s)) for c, s in players]
    game_id = players[0][1].game.removeprefix("games/")
    host = host_for(kind)
    converter = GameConverter(host.rules)
    compared: list[tuple[object, object]] = []
    store = RedisStore.from_url(inproc.redis_url)

    async def timed_out_at_a_prompt() -> bool:
        compared.clear()
        records = await store.actions_log(game_id)
        for i, record in enumerate(records):
            prompt = prompts.get((record.seat, records[i - 1].version if i else 1))
            if record.by == CLOCK and prompt is not None:
                assert prompt.HasField("default_action_index")
                named = prompt.legal_actions[prompt.default_action_index]
                compared.append((host.codec.from_plain(record.action), converter.action_from_pb(getattr(named, kind))))
        return len(compared) >= 1

    try:
        await until(timed_out_at_a_prompt, 30, "a timeout of a seat whose prompt was received", every_s=0.1)
    finally:
        for task in listeners:
            task.cancel()
        await store.close()
        await _close(players)
    assert all(played == named for played, named in compared), compared


async def test_the_fallback_is_the_prompts_default_action() -> None:
    legal = [game_pb2.Action(counter=game_pb2.Action().counter) for _ in range(3)]
    for i, action in enumerate(legal):
        action.counter.add.n = i + 1
    prompt = game_pb2.Prompt(seat=0, legal_actions=legal, default_action_index=2)
    assert fallback(prompt) == legal[2]
    assert fallback(game_pb2.Prompt(legal_actions=legal)) == legal[0]  # a server that names no default
    assert fallback(game_pb2.Prompt(legal_actions=legal, default_action_index=9)) == legal[0]

    async def broken(view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
        raise RuntimeError("the bot's own bug")

    client = FlotillaClient("127.0.0.1:1")  # never called: a decision that fails at once needs no clock
    try:
        action, why = await decide(client, Seat("games/g", 0, ""), broken, game_pb2.GameView(), prompt)
    finally:
        await client.close()
    assert (action, why.split(":")[0]) == (legal[2], "raised RuntimeError")


async def test_a_slow_decision_in_a_private_rooms_game_reads_the_clock_with_the_seats_token(inproc: InProcess) -> None:
    """A decision slower than `QUICK_S` asks the game for its clock: a client with no session (a
    bot given only the seat's token) reads a private room's game with that token, as the seat may."""
    host = FlotillaClient(inproc.gateways[0])
    bot_client = FlotillaClient(inproc.gateways[0])  # never signed in: the seat token is all it holds
    try:
        await host.sign_in("host")
        room = await host.create_room("counter", 2, {"moves": "6"}, visibility=lb.ROOM_VISIBILITY_PRIVATE)
        await host.add_bot(room.name)
        await host.set_ready(room.name)
        started = await host.start_room(room.name)
        seat = Seat(started.room.game, 0, started.seat_token)
        views: list[g.GetViewResponse] = []

        async def prompted() -> bool:
            views.append(await bot_client.view(seat.game, seat))
            return bool(views[-1].prompt.legal_actions)

        await until(prompted, 20, "seat 0's first prompt")
        shown = views[-1]

        async def slow(view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
            await asyncio.sleep(0.2)  # past QUICK_S: decide asks for the clock
            return prompt.legal_actions[0]

        action, why = await decide(bot_client, seat, slow, shown.view, shown.prompt)
    finally:
        await host.close()
        await bot_client.close()
    assert (action, why) == (shown.prompt.legal_actions[0], "")
