"""`flotilla bot` (its flags: cli/bot.py): a server-side policy (`flotilla.bots.make`) plays seats over RPC.

Where it sits: `--game-id` (one seat of an existing game), `--room` (joins the room, gets ready and
plays the room's game once the host starts it), `--queue KIND` (a matchmaking ticket per game) or
`--kind KIND` (creates each game and plays every seat of it itself). `--games N` games, at most
`--concurrency` at once (1: in a row).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when run: `flotilla --help` stays quick
    from flotilla_client import FlotillaClient, Played, Seat, Tls


async def _ticket_seat(client: FlotillaClient, args: argparse.Namespace, options: dict[str, str]) -> Seat:
    from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm  # noqa: PLC0415
    from flotilla_client import Seat  # noqa: PLC0415

    ticket = await client.create_ticket(args.queue, [args.seats], options)
    async for update in client.watch_ticket(ticket.name):
        if update.ticket.state == mm.TICKET_STATE_MATCHED:
            return Seat(update.ticket.game, update.ticket.seat, update.ticket.seat_token)
        if update.ticket.state in (mm.TICKET_STATE_EXPIRED, mm.TICKET_STATE_CANCELLED):
            break
    msg = f"ticket {ticket.name} ended unmatched"
    raise RuntimeError(msg)


async def _room_seat(client: FlotillaClient, args: argparse.Namespace) -> Seat:
    room = args.room if args.room.startswith("rooms/") else f"rooms/{args.room}"
    await client.join_room(room, join_code=args.join_code)
    await client.set_ready(room)
    async for update in client.watch_room(room, join_code=args.join_code):
        if update.room.game:
            return await client.join(update.room.game)  # the start seated us: our seat again
    msg = f"{room} closed before its game started"
    raise RuntimeError(msg)


def known_policy(name: str) -> bool:
    """Whether `name` is a bot policy; if not, print the known ones."""
    from flotilla.bots.policy import require  # noqa: PLC0415

    try:
        require(name)
    except ValueError as refused:
        print(refused)
        return False
    return True


async def run(args: argparse.Namespace, tls: Tls | None) -> int:
    """Play the games; print one line per game played; 0 when every game ended."""
    if not known_policy(args.policy):
        return 2
    session = _Session(args, tls)
    try:
        first = await session.signed_in()
        results = await asyncio.gather(*(session.one_game(find) for find in session.finders(first)))
        return await _report(args, first, results)
    finally:
        for client in session.clients:
            await client.close()


Seated = list[tuple["FlotillaClient", "Seat"]]
"""The seats a bot plays in one game, each with the client holding it."""


class _Session:
    """One `flotilla bot` run: its clients, and where each of its games comes from (`finders`)."""

    def __init__(self, args: argparse.Namespace, tls: Tls | None) -> None:
        self.args, self.tls = args, tls
        self.options = dict(o.split("=", 1) for o in args.option)
        self.rng = random.Random(args.seed)
        self.gate = asyncio.Semaphore(max(1, args.concurrency))
        self.clients: list[FlotillaClient] = []

    async def signed_in(self, suffix: str = "") -> FlotillaClient:
        """A new client, signed in with the API key, else as the guest `--name` + `suffix`."""
        from flotilla_client import FlotillaClient  # noqa: PLC0415

        client = FlotillaClient(self.args.target, tls=self.tls)
        self.clients.append(client)
        if self.args.api_key:
            await client.sign_in_with_api_key(self.args.api_key)
        else:
            await client.sign_in(f"{self.args.name}{suffix}")
        return client

    async def one_game(self, find: Callable[[], Awaitable[Seated]]) -> list[Played]:
        """Find the seats of one game (at most `--concurrency` at once), then play them all."""
        async with self.gate:
            seated = await find()
            return list(await asyncio.gather(*(self._play(c, s) for c, s in seated)))

    async def _play(self, client: FlotillaClient, seat: Seat) -> Played:
        from flotilla.bots.remote import policy_bot  # noqa: PLC0415
        from flotilla_client import run_bot  # noqa: PLC0415

        args = self.args
        bot = await policy_bot(client, seat, args.policy, args.difficulty, random.Random(self.rng.random()))
        return await run_bot(client, seat, bot, think_s=args.think)

    def finders(self, first: FlotillaClient) -> list[Callable[[], Awaitable[Seated]]]:
        """One finder per game: `--game-id`, `--room`, `--queue` (a ticket each) or `--kind` (created)."""
        args = self.args
        if args.game_id:
            game = args.game_id if args.game_id.startswith("games/") else f"games/{args.game_id}"

            async def existing() -> Seated:
                seat = await first.join(game, args.seat)
                print(f"{args.name} sits at seat {seat.seat} of {game}", flush=True)
                return [(first, seat)]

            return [existing]
        if args.room:

            async def in_room() -> Seated:
                return [(first, await _room_seat(first, args))]

            return [in_room]
        if args.queue:
            return [self._queued] * args.games
        return [self._own_game] * args.games

    async def _queued(self) -> Seated:
        client = await self.signed_in(f"-{len(self.clients)}")  # one ticket per user at a time
        return [(client, await _ticket_seat(client, self.args, self.options))]

    async def _own_game(self) -> Seated:
        args = self.args
        players = [await self.signed_in(f"-{i}") for i in range(args.seats)]
        game = await players[0].create_game(args.kind, args.seats, self.options)
        return [(p, await p.join(game.name)) for p in players]


async def _report(args: argparse.Namespace, first: FlotillaClient, results: list[list[Played]]) -> int:
    """One line per game played and a summary; 0 when every game ended."""
    from flotilla.api.game.v1 import game_pb2  # noqa: PLC0415

    ended = 0
    for played in results:
        game_name = played[0].seat.game
        final = await first.get_game(game_name)
        over = final.state in (game_pb2.GAME_STATE_FINISHED, game_pb2.GAME_STATE_ABANDONED)
        ended += over
        scores = list(final.result.scores)
        moves = sum(p.decisions for p in played)
        fallbacks = sum(p.fallbacks for p in played)
        state = str(game_pb2.GameState.Name(final.state)).removeprefix("GAME_STATE_").lower()
        outcome = "game over" if over else "stopped"
        print(f"{game_name}: {outcome} ({state}), scores {scores}, {moves} decisions, {fallbacks} fallbacks")
    print(f"{args.policy} (difficulty {args.difficulty}): {ended} of {len(results)} games over", flush=True)
    return 0 if ended == len(results) else 1
