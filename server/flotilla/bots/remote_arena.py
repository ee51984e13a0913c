"""The arena over gRPC: the same seat-rotated games and report as `bots/arena.py`, played on a
running server.

Each game is created on the server (its seed is the server's: `seed` only seeds the policies'
generators), every seat is taken and played through the SDK's bot framework (`run_bots` with
`PolicyBot`, the policy built for the game's rules version), and once the bots are done GetGame's
result (scores, winners, ranks) goes into the same `Tally`. Guests sign in one per seat index
(`NAME-0`, `NAME-1`, ...; per-user rate limits apply per seat); with an API key one user holds
every seat. `concurrency` games run at once. When `time_limit_s` runs out the games in progress
are dropped from the report (`Report.cut`) and their seats left (the server's absence policy
plays them out); no other starts.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping, Sequence

from flotilla.api.game.v1 import game_pb2
from flotilla.app.host import host_for
from flotilla.bots.arena import Entrant, Played, Report, Tally, build, rotation
from flotilla.bots.policy import require
from flotilla.bots.remote import PolicyBot
from flotilla.rules import Result, Seat
from flotilla_client import FlotillaClient, FlotillaError, Tls, run_bots
from flotilla_client import Played as Seated
from flotilla_client import Seat as SeatToken


def result_of(game: game_pb2.Game) -> Result | None:
    """A finished game's result as the rules' `Result` (None unless it finished)."""
    if game.state != game_pb2.GAME_STATE_FINISHED or not game.HasField("result"):
        return None
    r = game.result
    return Result(tuple(r.scores), frozenset(Seat(w) for w in r.winners), tuple(r.ranks), dict(r.detail))


async def _signed_in(target: str, tls: Tls | None, api_key: str, name: str, count: int) -> list[FlotillaClient]:
    clients = []
    try:
        for i in range(1 if api_key else count):
            client = FlotillaClient(target, tls=tls)
            clients.append(client)
            if api_key:
                await client.sign_in_with_api_key(api_key)
            else:
                await client.sign_in(f"{name}-{i}")
    except BaseException:
        for client in clients:
            await client.close()
        raise
    return clients


async def run_remote(
    target: str,
    kind: str,
    seat_count: int,
    entrants: Sequence[Entrant],
    games: int,
    *,
    tls: Tls | None = None,
    api_key: str = "",
    name: str = "arena",
    options: Mapping[str, str] | None = None,
    seed: int = 0,
    concurrency: int = 1,
    think_s: float | None = None,
    time_limit_s: float | None = None,
) -> Report:
    """Play `games` seat-rotated games of `kind` on the server at `target` and total them up
    (ValueError for an unknown policy; the server's FlotillaError for what it refuses)."""
    for entrant in entrants:
        require(entrant.name)
    if api_key and seat_count > 1:
        msg = "an API key is one user, and a user holds one seat of a game: run the arena as guests (no API key)"
        raise ValueError(msg)
    options = dict(options or {})
    host_for(kind).config(seat_count, options)  # InvalidConfig here rather than from the server
    tally = Tally(kind, seat_count, entrants, options)
    rng = random.Random(seed)
    deadline = None if time_limit_s is None else time.monotonic() + time_limit_s
    clients = await _signed_in(target, tls, api_key, name, seat_count)
    try:
        for start in range(0, games, max(1, concurrency)):
            chunk = range(start, min(games, start + max(1, concurrency)))
            seated = [await _seat(clients, kind, seat_count, options) for _ in chunk]
            bots = _bots(kind, entrants, chunk, seated, rng)
            every = [seat for _, seats in seated for seat in seats]
            by_client = [[s for s in every if s.seat % len(clients) == c] for c in range(len(clients))]
            playing = asyncio.gather(
                *(
                    run_bots(client, mine, _picker(bots), concurrency=len(mine), think_s=think_s)
                    for client, mine in zip(clients, by_client, strict=True)
                )
            )
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                results = await asyncio.wait_for(playing, left)
            except TimeoutError:
                tally.report.cut = True
                await _leave(clients, every)
                break
            played = {(p.seat.game, p.seat.seat): p for per_client in results for p in per_client}
            await _count(tally, clients[0], len(entrants), chunk, seated, played)
    finally:
        for client in clients:
            await client.close()
    return tally.done()


def _bots(
    kind: str,
    entrants: Sequence[Entrant],
    chunk: range,
    seated: Sequence[tuple[game_pb2.Game, list[SeatToken]]],
    rng: random.Random,
) -> dict[tuple[str, int], PolicyBot]:
    """The bot of each seat of the games `chunk` numbers: the entrant the seat rotation puts there."""
    bots: dict[tuple[str, int], PolicyBot] = {}
    for g, (game, seats) in zip(chunk, seated, strict=True):
        rules = host_for(kind, game.rules_version).rules
        for seat, w in zip(seats, rotation(g, len(seats), len(entrants)), strict=True):
            policy = build(entrants[w], rules)
            bots[(seat.game, seat.seat)] = PolicyBot(rules, policy, random.Random(rng.getrandbits(64)))
    return bots


async def _count(
    tally: Tally,
    client: FlotillaClient,
    entrant_count: int,
    chunk: range,
    seated: Sequence[tuple[game_pb2.Game, list[SeatToken]]],
    played: Mapping[tuple[str, int], Seated],
) -> None:
    """Add the games `chunk` numbers, as they ended on the server, to `tally`."""
    for g, (game, seats) in zip(chunk, seated, strict=True):
        final = await client.get_game(game.name)
        mine = [played[(s.game, s.seat)] for s in seats]
        tally.add(rotation(g, len(seats), entrant_count), _played(final, mine))
        tally.report.games.append(game.name)


async def _seat(
    clients: Sequence[FlotillaClient], kind: str, seat_count: int, options: Mapping[str, str]
) -> tuple[game_pb2.Game, list[SeatToken]]:
    """A new game and every seat of it, seat `i` held by client `i` (or the one client)."""
    game = await clients[0].create_game(kind, seat_count, dict(options))
    seats = [await clients[i % len(clients)].join(game.name, i) for i in range(seat_count)]
    return game, seats


def _picker(bots: Mapping[tuple[str, int], PolicyBot]) -> Callable[[SeatToken], PolicyBot]:
    return lambda seat: bots[(seat.game, seat.seat)]


def _played(final: game_pb2.Game, seats: Sequence[Seated]) -> Played:
    return Played(
        result_of(final),
        tuple(p.decisions for p in seats),
        tuple(sum(p.think_ms) / 1000 for p in seats),
    )


async def _leave(clients: Sequence[FlotillaClient], seats: Sequence[SeatToken]) -> None:
    """Leave the seats of games dropped at the time limit (best effort)."""
    for seat in seats:
        try:
            await clients[seat.seat % len(clients)].leave(seat)
        except FlotillaError:
            continue
