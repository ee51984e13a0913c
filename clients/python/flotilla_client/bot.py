"""The bot framework: a bot is `choose(view, prompt) -> Action`, sync or async.

A bot is a function, or an object with a `choose` method, that takes the seat's `GameView` and the
`Prompt` and returns one of `prompt.legal_actions`. `run_bot(client, seat, bot)` plays one seat
with it over a Play stream (which reconnects and resumes by itself) until the game ends;
`run_bots(client, seats, make_bot)` plays many at once, at most `concurrency` at a time.

Per prompt the framework hands `choose` the seat's current view (the update's own when it carries
one, else GetView; a bot whose `needs_view` is False gets the last full view the stream delivered,
which may be older), runs it (an async one as a task, a sync one in a thread, so the stream stays
served) and submits its action with the prompt's etag. It answers before the seat's clock runs
out: once `choose` has taken `QUICK_S`, GetGame tells whether the game is timed and the seat's
deadline (`SeatInfo.deadline`: the view and the prompt carry no clock; a clock not started yet
counts from the prompt's arrival), and the bot gets until
`margin_s` before it (and never more than `think_s`, clock or not). When `choose` is too slow,
raises, or returns an action that is not legal, the framework submits the **fallback**
(`fallback`): the prompt's default action (`Prompt.default_action_index`, what the server plays
when the clock runs out), or the first legal action when the server names none. Losing a race (another seat moved
first: STALE_GAME_VERSION, NOT_YOUR_TURN) is expected and the next prompt decides again;
SEAT_ABSENT ends the seat's play (the server plays it from then on). Each decision is logged on
the `flotilla_client.bot` logger (stdlib `logging`: DEBUG per decision, INFO/WARNING per fallback).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client.client import FlotillaClient
from flotilla_client.errors import FlotillaError
from flotilla_client.seat import Seat

LOG = logging.getLogger("flotilla_client.bot")
SEAT_ABSENT = "ERROR_REASON_SEAT_ABSENT"  # timed out too often: the server plays the seat from now on
LOST_RACE = ("ERROR_REASON_STALE_GAME_VERSION", "ERROR_REASON_NOT_YOUR_TURN")  # someone moved first
QUICK_S = 0.05  # a decision faster than this never asks for the clock (no GetGame per move)
DEFAULT_MARGIN_S = 0.5  # answer this long before the seat's deadline

Choice = game_pb2.Action | Awaitable[game_pb2.Action]
ChooseFn = Callable[[game_pb2.GameView, game_pb2.Prompt], Choice]


@runtime_checkable
class Bot(Protocol):
    """A bot as a class: `choose` returns (or, when async, resolves to) one of `prompt.legal_actions`.
    An optional attribute `needs_view = False` spares a GetView per decision."""

    def choose(self, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> Choice: ...


BotLike = Bot | ChooseFn


def keep_playing(error: FlotillaError) -> bool:
    """After a refused move: False when the seat is absent (stop), True when another seat moved
    first (simultaneous seats: the next prompt decides); anything else is re-raised."""
    if error.reason == SEAT_ABSENT:
        return False
    if error.reason in LOST_RACE:
        return True
    raise error


@dataclass(slots=True)
class Played:
    """What `run_bot` did for one seat."""

    seat: Seat
    last: g.WatchGameResponse | None = None  # the last update received
    decisions: int = 0  # actions submitted
    fallbacks: int = 0  # of them, the fallback (choose too slow, raised, or not legal)
    lost_races: int = 0  # refused because another seat moved first
    absent: bool = False  # stopped because the seat is absent (the server plays it)
    error: FlotillaError | None = None  # run_bots only: why this seat stopped early
    think_ms: list[float] = field(default_factory=list)  # per decision, choose's time


def fallback(prompt: game_pb2.Prompt) -> game_pb2.Action:
    """The prompt's default action (what the server plays when the seat's clock runs out), else
    its first legal action (a server that names no default)."""
    index = prompt.default_action_index if prompt.HasField("default_action_index") else 0
    return prompt.legal_actions[index if 0 <= index < len(prompt.legal_actions) else 0]


def _chooser(bot: BotLike) -> ChooseFn:
    return bot.choose if isinstance(bot, Bot) else bot


def _start(choose: ChooseFn, view: game_pb2.GameView, prompt: game_pb2.Prompt) -> asyncio.Future[game_pb2.Action]:
    """`choose` running: a coroutine function as a task, anything else in a thread."""
    if inspect.iscoroutinefunction(choose):
        return asyncio.ensure_future(choose(view, prompt))

    async def threaded() -> game_pb2.Action:
        made = await asyncio.to_thread(choose, view, prompt)
        return await made if inspect.isawaitable(made) else made

    return asyncio.ensure_future(threaded())


async def _budget_s(client: FlotillaClient, seat: Seat, margin_s: float, received: float) -> float | None:
    """Seconds left before `seat` must have answered the prompt `received` (wall clock), less the
    margin; None when the game is not timed. A clock the worker has not started yet counts from
    the prompt's arrival (it can only start later)."""
    game = await client.get_game(seat.game, seat=seat)  # the seat's token: it reads a private game too
    info = game.seats[seat.seat]
    if info.HasField("deadline"):
        due = info.deadline.ToMilliseconds() / 1000
    elif game.clock.turn_seconds:
        due = received + game.clock.turn_seconds
    elif game.clock.bank_seconds:
        due = received + info.bank_ms / 1000
    else:
        return None
    return due - time.time() - margin_s


async def decide(
    client: FlotillaClient,
    seat: Seat,
    choose: ChooseFn,
    view: game_pb2.GameView,
    prompt: game_pb2.Prompt,
    *,
    margin_s: float = DEFAULT_MARGIN_S,
    think_s: float | None = None,
    received: float | None = None,
) -> tuple[game_pb2.Action, str]:
    """The action to submit for `prompt` (which arrived at wall-clock time `received`, default now)
    and "" (the bot's), or the fallback and why."""
    started, received = time.monotonic(), received or time.time()
    task = _start(choose, view, prompt)
    why = ""
    try:
        quick = QUICK_S if think_s is None else min(QUICK_S, think_s)
        done, _ = await asyncio.wait({task}, timeout=quick)
        if not done:
            limits = [await _budget_s(client, seat, margin_s, received)]  # from now
            if think_s is not None:
                limits.append(think_s - (time.monotonic() - started))
            known = [limit for limit in limits if limit is not None]
            done, _ = await asyncio.wait({task}, timeout=max(0.0, min(known)) if known else None)
        if not done:
            why = "too slow"
        elif task.exception() is not None:
            why = f"raised {type(task.exception()).__name__}: {str(task.exception())[:80]}"
        elif task.result() not in prompt.legal_actions:
            why = "not a legal action"
        else:
            return task.result(), ""
    finally:
        task.cancel()  # a sync choose in its thread runs on; its answer is dropped
    return fallback(prompt), why


async def run_bot(
    client: FlotillaClient,
    seat: Seat,
    bot: BotLike,
    *,
    margin_s: float = DEFAULT_MARGIN_S,
    think_s: float | None = None,
) -> Played:
    """Play `seat` with `bot` until the game ends (or the seat is absent); see the module doc."""
    choose, needs_view = _chooser(bot), getattr(bot, "needs_view", True)
    played = Played(seat)
    view = game_pb2.GameView()
    answered = ""  # the etag of the last prompt answered (a resume repeats it: the stream resends)
    stream = client.play(seat)
    async for response in stream:
        if played.absent:  # cancelled: drain what was on its way until the stream ends
            continue
        if response.HasField("outcome"):
            if response.outcome.status.code == 0:  # applied (answered from an earlier attempt of its request id)
                continue
            if not keep_playing(FlotillaError.from_status(response.outcome.status)):
                played.absent = True
                stream.cancel()
            else:
                played.lost_races += 1
            continue
        update, received = response.update, time.time()
        played.last = update
        if update.HasField("view"):
            view = update.view
        prompt = update.prompt
        if not update.HasField("prompt") or not prompt.legal_actions or prompt.etag == answered:
            continue
        if needs_view and not (update.HasField("view") and update.view.etag == prompt.etag):
            view = (await client.view(seat.game, seat)).view
        started = time.monotonic()
        action, why = await decide(
            client, seat, choose, view, prompt, margin_s=margin_s, think_s=think_s, received=received
        )
        played.think_ms.append((time.monotonic() - started) * 1000)
        _log(seat, prompt, action, why, played.think_ms[-1])
        stream.send(action, etag=prompt.etag)
        answered = prompt.etag
        played.decisions += 1
        played.fallbacks += bool(why)
    return played


def _log(seat: Seat, prompt: game_pb2.Prompt, action: game_pb2.Action, why: str, ms: float) -> None:
    index = list(prompt.legal_actions).index(action)
    label = prompt.legal_action_texts[index].label if index < len(prompt.legal_action_texts) else str(index)
    if not why:
        LOG.debug("%s seat %d at %s: %s (%.1f ms)", seat.game, seat.seat, prompt.etag, label, ms)
    else:
        level = logging.WARNING if why.startswith("raised") else logging.INFO
        LOG.log(level, "%s seat %d at %s: fallback %s (%s, %.1f ms)", seat.game, seat.seat, prompt.etag, label, why, ms)


async def run_bots(
    client: FlotillaClient,
    seats: Iterable[Seat | Awaitable[Seat]],
    make_bot: Callable[[Seat], BotLike | Awaitable[BotLike]],
    *,
    concurrency: int = 16,
    margin_s: float = DEFAULT_MARGIN_S,
    think_s: float | None = None,
) -> list[Played]:
    """Play every seat (or seat to come: an awaitable, e.g. a matchmaking ticket, awaited in its
    turn) with its own bot, at most `concurrency` at a time; one `Played` per seat, in order (a
    seat that failed has `error` set and `seat` empty while it had none)."""
    gate = asyncio.Semaphore(concurrency)

    async def one(item: Seat | Awaitable[Seat]) -> Played:
        async with gate:
            seat = Seat("", -1, "")
            try:
                seat = item if isinstance(item, Seat) else await item
                made = make_bot(seat)
                bot = await made if inspect.isawaitable(made) else made
                return await run_bot(client, seat, bot, margin_s=margin_s, think_s=think_s)
            except FlotillaError as error:
                LOG.warning("%s seat %d: stopped: %s", seat.game, seat.seat, error)
                return Played(seat, error=error)

    return list(await asyncio.gather(*(one(item) for item in seats)))
