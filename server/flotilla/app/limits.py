"""Rate limits and quotas shared by every gateway: the one table of limits, and the checks.

Each row of `LIMITS` is a setting: its name (the ErrorInfo metadata `limit`, the metric label and
the key of an override in FLOTILLA_LIMITS), what it limits, per what (a user, a client address or
a connection; a seat of a game; a bot account, whose `_per_bot` rows replace its `_per_user`
and `_per_address` ones) and its amount:

* a **rate limit** lets `burst` calls through at once and then `rate` calls per second (GCRA: one
  Redis key per bucket holding its theoretical arrival time; store/limits_store.py). A call over
  it is refused with RateLimited, whose RetryInfo delay is when the next call would pass;
* a **quota** (`rate` 0) bounds what a subject holds at once (`burst` of them): open games and
  rooms a user created, waiting matchmaking tickets and the queues an address opened, streams a
  user (or an anonymous address) or a connection has open.
  A call over it is refused with QuotaExceeded (no RetryInfo: it frees only when the caller
  finishes, closes or ends something).

A refused call does nothing else. `FLOTILLA_LIMITS` changes rows: a comma-separated list of
`name=RATE/UNIT[:BURST]` (UNIT s, m or h), `name=N` (a quota), `name=off`, or just `off` for all.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from flotilla import metrics
from flotilla.app.errors import QuotaExceeded, RateLimited, WrongJoinCode
from flotilla.store import keys
from flotilla.store.limits_store import Bucket, LimitStore

USER, ADDRESS, CONNECTION, SEAT, BOT = "user", "address", "connection", "seat", "bot"


@dataclass(frozen=True, slots=True)
class Limit:
    """One row of the table: see the module docstring."""

    name: str
    what: str
    per: str
    rate: float  # calls per second; 0: a quota
    burst: int  # calls at once (rate limits) or most held at once (quotas)

    @property
    def is_quota(self) -> bool:
        return self.rate == 0

    def bucket(self, subject: str) -> Bucket:
        return Bucket(keys.limit_bucket(self.name, subject), 1000 / self.rate, self.burst)


_GUESSES = "wrong join codes (a locked subject's every code is refused: docs/security.md)"
_WAITING = "matchmaking tickets created that still wait (not matched, cancelled or expired)"
_NEW_QUEUES = "matchmaking queues opened (a setting nobody waited in) that are still in use"

# The production defaults. Rate limits are named <call>_per_<user|address>; a call checks both.
LIMITS: tuple[Limit, ...] = (
    Limit("sign_in_per_address", "sign-ins (SignInAsGuest, SignInWithApiKey)", ADDRESS, 0.5, 20),
    Limit("refresh_per_user", "RefreshToken calls", USER, 1, 30),
    Limit("create_game_per_user", "CreateGame calls", USER, 0.5, 10),
    Limit("create_game_per_address", "CreateGame calls", ADDRESS, 2, 40),
    Limit("create_room_per_user", "CreateRoom calls", USER, 0.2, 5),
    Limit("create_room_per_address", "CreateRoom calls", ADDRESS, 1, 20),
    Limit("join_per_user", "JoinGame and JoinRoom calls", USER, 2, 20),
    Limit("join_per_address", "JoinGame and JoinRoom calls", ADDRESS, 10, 100),
    Limit("join_per_bot", "JoinGame and JoinRoom calls of a bot account (API key)", BOT, 10, 200),
    Limit("ticket_per_user", "CreateTicket calls", USER, 0.5, 10),
    Limit("ticket_per_address", "CreateTicket calls", ADDRESS, 5, 50),
    Limit("submit_per_user", "SubmitAction calls, Play submits and LeaveGame calls", USER, 20, 60),
    Limit("submit_per_address", "SubmitAction calls, Play submits and LeaveGame calls", ADDRESS, 100, 300),
    Limit("submit_per_seat", "moves (SubmitAction, Play submits, LeaveGame) of one seat of one game", SEAT, 20, 60),
    Limit("submit_per_bot", "moves of a bot account (API key) over all its games", BOT, 200, 600),
    Limit("party_per_user", "party changes (create, invite, accept, decline, leave)", USER, 0.5, 20),
    Limit("party_per_address", "party changes (create, invite, accept, decline, leave)", ADDRESS, 5, 100),
    Limit("view_at_per_user", "GetViewAt calls (each may replay a finished game)", USER, 5, 60),
    Limit("view_at_per_address", "GetViewAt calls (each may replay a finished game)", ADDRESS, 20, 200),
    Limit("stream_open_per_user", "WatchGame, Play, WatchRoom and WatchTicket opens", USER, 2, 30),
    Limit("stream_open_per_address", "WatchGame, Play, WatchRoom and WatchTicket opens", ADDRESS, 10, 100),
    Limit("stream_open_per_bot", "stream opens of a bot account (API key)", BOT, 10, 200),
    Limit("code_guess_per_user", _GUESSES, USER, 10 / 3600, 10),
    Limit("code_guess_per_address", _GUESSES, ADDRESS, 10 / 3600, 20),
    Limit("open_games_per_user", "games a user created that have not finished or expired", USER, 0, 20),
    Limit("open_rooms_per_user", "rooms a user created that are open or whose game is not over", USER, 0, 5),
    Limit("bot_cost_per_user", "cost of the server bots in those rooms (see BOT_COSTS)", USER, 0, 40),
    Limit("waiting_tickets_per_user", _WAITING, USER, 0, 8),
    Limit("waiting_tickets_per_address", _WAITING, ADDRESS, 0, 16),
    Limit(
        "waiting_tickets_per_bot", "matchmaking tickets a bot account (API key) created that still wait", BOT, 0, 100
    ),
    Limit("new_queues_per_address", _NEW_QUEUES, ADDRESS, 0, 8),
    Limit("new_queues_per_bot", "matchmaking queues a bot account (API key) opened that are still in use", BOT, 0, 16),
    Limit("streams_per_user", "open streams of a signed-in user, over every gateway", USER, 0, 64),
    Limit("streams_per_bot", "open streams of a bot account (API key), over every gateway", BOT, 0, 400),
    Limit("anonymous_streams_per_address", "open streams without a token, per client address", ADDRESS, 0, 64),
    Limit(
        "streams_per_address", "open streams of signed-in users (not bot accounts), per client address", ADDRESS, 0, 128
    ),
    Limit("streams_per_connection", "open streams of one connection (this gateway)", CONNECTION, 0, 100),
)
# What one server bot seat costs against bot_cost_per_user, by policy and difficulty (the last
# entry for any higher one), after its CPU per decision: ISMCTS runs 60, 300, 800 playouts.
BOT_COSTS: dict[str, tuple[int, ...]] = {"random": (1,), "heuristic": (1, 2, 3), "ismcts": (2, 8, 20)}
BOT_COST_DEFAULT_DIFFICULTY = 1  # a bot without a difficulty plays at the runner's default (FLOTILLA_BOT_DIFFICULTY)


def bot_cost(policy: str, difficulty: int | None) -> int:
    """The cost of one server bot seat (a policy not in BOT_COSTS costs as much as the dearest)."""
    costs = BOT_COSTS.get(policy or "random", (max(c[-1] for c in BOT_COSTS.values()),))
    level = BOT_COST_DEFAULT_DIFFICULTY if difficulty is None else difficulty
    return costs[min(max(level, 0), len(costs) - 1)]


# Calls whose bot accounts (API keys) take their `_per_bot` row instead of `_per_user` and `_per_address`.
BOT_CALLS = frozenset(limit.name.removesuffix("_per_bot") for limit in LIMITS if limit.per == BOT)
_UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0}
_RATE = re.compile(r"(?P<n>[0-9]+(?:\.[0-9]+)?)/(?P<unit>[smh])(?::(?P<burst>[0-9]+))?")


def parse_limits(text: str, table: Sequence[Limit] = LIMITS) -> dict[str, Limit]:
    """The table with FLOTILLA_LIMITS applied (rows turned off are left out); ValueError when malformed."""
    rows = {limit.name: limit for limit in table}
    for item in filter(None, (part.strip() for part in text.split(","))):
        if item == "off":
            rows.clear()
            continue
        name, _, value = item.partition("=")
        name, value = name.strip(), value.strip()
        base = next((limit for limit in table if limit.name == name), None)
        if base is None:
            msg = f"FLOTILLA_LIMITS: no limit named {name!r} (see docs/security.md)"
            raise ValueError(msg)
        if value == "off":
            rows.pop(name, None)
        elif base.is_quota and value.isdigit():
            rows[name] = replace(base, burst=int(value))
        elif not base.is_quota and (match := _RATE.fullmatch(value)) and float(match["n"]) > 0:
            burst = int(match["burst"]) if match["burst"] else base.burst
            rows[name] = replace(base, rate=float(match["n"]) / _UNITS[match["unit"]], burst=max(burst, 1))
        else:
            shape = "N (a quota)" if base.is_quota else "RATE/UNIT[:BURST], e.g. 30/m:10"
            msg = f"FLOTILLA_LIMITS: {name}={value!r} is not {shape} or off"
            raise ValueError(msg)
    return rows


@dataclass(frozen=True, slots=True)
class Gate:
    """The buckets one call takes from, and what to answer when one of them refuses."""

    limits: tuple[Limit, ...] = ()
    buckets: tuple[Bucket, ...] = ()

    def refused(self, refusal: tuple[int, int]) -> RateLimited:
        index, retry_ms = refusal
        return rate_limited(self.limits[index], retry_ms / 1000)


def rate_limited(limit: Limit, retry_after_s: float) -> RateLimited:
    """The error of a call over a rate limit (counted in flotilla_limit_refusals_total)."""
    metrics.LIMIT_REFUSALS.labels(limit.name).inc()
    error = RateLimited(
        f"too many {limit.what} from this {limit.per}; retry in {retry_after_s:.1f} s", limit=limit.name
    )
    error.retry_after_s = retry_after_s
    return error


def quota_exceeded(limit: Limit, detail: str) -> QuotaExceeded:
    """The error of a call over a quota (counted in flotilla_limit_refusals_total)."""
    metrics.LIMIT_REFUSALS.labels(limit.name).inc()
    return QuotaExceeded(f"at most {limit.burst} {limit.what}; {detail}", limit=limit.name)


StillOpen = Callable[[list[str]], Awaitable[list[bool]]]


class Limiter:
    """Checks calls against the table's rate limits and holds quotas of open games and rooms."""

    def __init__(self, store: LimitStore, rows: Mapping[str, Limit], *, held_ttl_s: int) -> None:
        self.store = store
        self.rows = dict(rows)
        self.held_ttl_ms = max(held_ttl_s, 24 * 3600) * 1000

    def gate(
        self, call: str, user: str | None, address: str | None, *, bot: bool = False, seat: str | None = None
    ) -> Gate:
        """The buckets of `call` (e.g. "submit") for this user and address (None: not known).

        `bot`: the user is a bot account (an API key's): its `_per_bot` row replaces the user's
        and the address's, where the call has one (bots play many games at once; the operator
        minted the key, so signing in again cannot multiply it). `seat`: the game and seat acted
        for (`<game>:<seat>`), counted in the call's `_per_seat` row."""
        rows = self._rows(call, user, address, bot, seat)
        return Gate(tuple(limit for limit, _ in rows), tuple(limit.bucket(subject) for limit, subject in rows))

    def _rows(
        self, call: str, user: str | None, address: str | None, bot: bool, seat: str | None = None
    ) -> list[tuple[Limit, str]]:
        """The rows of `call` that count this caller, each with its subject (see `gate`)."""
        people = ((BOT, user),) if bot and call in BOT_CALLS else ((USER, user), (ADDRESS, address))
        out = []
        for per, subject in (*people, (SEAT, seat)):
            limit = self.rows.get(f"{call}_per_{per}")
            if limit is not None and subject:
                out.append((limit, subject))
        by_user = next((limit for limit, subject in out if limit.per == USER), None)
        if by_user is not None and seat:
            # A seat's moves are a part of its one holder's: a user bucket at least as strict as the
            # seat's refuses first, so the seat's bucket would only cost a Redis read and write.
            out = [
                (limit, subject)
                for limit, subject in out
                if not (limit.per == SEAT and by_user.rate <= limit.rate and by_user.burst <= limit.burst)
            ]
        return out

    async def check(self, call: str, user: str | None, address: str | None, *, bot: bool = False) -> None:
        """Take one `call` from the user's and the address's buckets (a bot's: see `gate`), or raise
        RateLimited."""
        gate = self.gate(call, user, address, bot=bot)
        refusal = await self.store.take(gate.buckets)
        if refusal is not None:
            raise gate.refused(refusal)

    @contextlib.asynccontextmanager
    async def guessing(self, user: str | None, address: str | None) -> AsyncIterator[None]:
        """A join code is checked in the block: one failure is taken from the `code_guess` buckets
        first (RateLimited when one is empty: the subject is locked, whatever its code) and given
        back unless the block raises WrongJoinCode."""
        gate = self.gate("code_guess", user, address)
        refusal = await self.store.take(gate.buckets)
        if refusal is not None:
            raise gate.refused(refusal)
        try:
            yield
        except WrongJoinCode:
            metrics.WRONG_JOIN_CODES.inc()
            raise
        except BaseException:
            await self.store.give_back(gate.buckets)
            raise
        await self.store.give_back(gate.buckets)

    async def hold(self, what: str, user: str, member: str, still_open: StillOpen) -> None:
        """Count `member` (a game or room id) among the open `what` ("games", "rooms") `user` created,
        or raise QuotaExceeded. When full, those no longer open are dropped first."""
        limit = self.rows.get(f"open_{what}_per_user")
        if limit is not None:
            detail = f"finish or leave one of yours first (you have {limit.burst} open)"
            await self._hold(limit, keys.held(user, what), member, still_open, detail)

    async def hold_each(
        self,
        quota: str,
        user: str,
        address: str | None,
        member: str,
        still_open: StillOpen,
        *,
        bot: bool = False,
        detail: str,
    ) -> Callable[[], Awaitable[None]]:
        """Count `member` in every row of `quota` (e.g. "waiting_tickets": `_per_user` and
        `_per_address`, a bot account's `_per_bot` instead; a row missing is not counted), or raise
        QuotaExceeded holding it in none. When a row is full, members no longer open are dropped
        first. Returns what stops counting `member` again (its creation failed after all)."""
        held: list[str] = []

        async def release() -> None:
            for key in held:
                await self.store.release(key, member)

        try:
            for limit, subject in self._rows(quota, user, address, bot):
                key = keys.held(f"address:{subject}" if limit.per == ADDRESS else subject, quota)
                await self._hold(limit, key, member, still_open, f"this {limit.per} holds that many; {detail}")
                held.append(key)
        except QuotaExceeded:
            await release()
            raise
        return release

    async def _hold(self, limit: Limit, key: str, member: str, still_open: StillOpen, detail: str) -> None:
        """Count `member` in the quota at `key` or raise QuotaExceeded; when it is full, the members
        `still_open` says are not open any more are dropped first (once)."""
        for reconciled in (False, True):
            if await self.store.hold(key, member, limit.burst, self.held_ttl_ms) == 0:
                return
            if reconciled:
                break
            members = await self.store.held(key)
            closed = [m for m, is_open in zip(members, await still_open(members), strict=True) if not is_open]
            if not closed:
                break
            await self.store.release(key, *closed)
        raise quota_exceeded(limit, detail)

    async def bot_budget(
        self, user: str, room: str, cost: int, *, spent: Callable[[list[str]], Awaitable[int]]
    ) -> None:
        """Refuse (QuotaExceeded) a server bot of `cost` in `room` when the bots of the rooms `user`
        holds (`spent`: their cost, counting only rooms still open or playing) would pass
        bot_cost_per_user."""
        limit = self.rows.get("bot_cost_per_user")
        if limit is None:
            return
        rooms = sorted({*await self.store.held(keys.held(user, "rooms")), room})
        used = await spent(rooms)
        if used + cost > limit.burst:
            raise quota_exceeded(limit, f"this bot costs {cost} and your rooms' bots {used}: finish a game first")

    async def release(self, what: str, user: str, member: str) -> None:
        """Stop counting `member` (its creation failed after it was counted)."""
        await self.store.release(keys.held(user, what), member)
