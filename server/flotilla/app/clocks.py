"""Turn clocks: per-decision time or a time bank with increment, timeouts and absent seats.

Pure functions over plain values; the worker stores the result in the game's hash (field
`seatclock`, written by the same commit as the move) and keeps a wake-up index of the next
deadline of every game (`flotilla:timers`), so any worker can fire any game's timeout.

A seat whose clock runs out gets the game's `default_action`. After `max_timeouts` in a row,
or when its player leaves, the seat is absent: a bot (the default action, at once) plays it
(policy BOT), the game is aborted (ABORT), or a bot plays it and it ranks last (FORFEIT).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from flotilla.rules import Result, Seat

BOT = "bot"
ABORT = "abort"
FORFEIT = "forfeit"
POLICIES = (BOT, ABORT, FORFEIT)
DEFAULT_MAX_TIMEOUTS = 3


@dataclass(frozen=True, slots=True)
class ClockConfig:
    """How a game is timed. Neither `turn_ms` nor `bank_ms`: untimed (absent seats still get bots)."""

    turn_ms: int = 0
    bank_ms: int = 0
    increment_ms: int = 0
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    policy: str = BOT

    @property
    def timed(self) -> bool:
        return self.turn_ms > 0 or self.bank_ms > 0

    def plain(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_plain(cls, raw: dict[str, Any] | None) -> ClockConfig:
        return cls(**raw) if raw else cls()


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock: its pending deadline, bank, timeouts in a row and absence.

    Stored in the game hash's `seatclock` (JSON, one array per seat, `dumps`) as the fields in
    this order; a later field needs a default, so that shorter arrays stored before still load."""

    deadline_ms: int | None = None
    started_ms: int | None = None
    bank_ms: int = 0
    timeouts: int = 0
    absent: bool = False
    forfeited: bool = False

    def plain(self) -> list[Any]:
        return [self.deadline_ms, self.started_ms, self.bank_ms, self.timeouts, self.absent, self.forfeited]

    @classmethod
    def from_plain(cls, raw: Sequence[Any]) -> SeatClock:
        return cls(*raw)


def initial(config: ClockConfig, seats: int) -> tuple[SeatClock, ...]:
    return tuple(SeatClock(bank_ms=config.bank_ms) for _ in range(seats))


def load(raw: Iterable[Sequence[Any]] | None, config: ClockConfig, seats: int) -> tuple[SeatClock, ...]:
    clocks = tuple(SeatClock.from_plain(c) for c in raw or ())
    return clocks if len(clocks) == seats else initial(config, seats)


def dump(clocks: Sequence[SeatClock]) -> list[list[Any]]:
    return [c.plain() for c in clocks]


def dumps(clocks: Sequence[SeatClock]) -> bytes:
    """The game hash's `seatclock` field (the commit script compares these bytes)."""
    return orjson.dumps(dump(clocks))


def schedule(
    config: ClockConfig,
    clocks: Sequence[SeatClock],
    to_act: Iterable[int],
    actor: int | None,
    now_ms: int,
    *,
    running: bool,
) -> tuple[SeatClock, ...]:
    """The clocks after `actor` decided (None: nobody) and `to_act` must decide next.

    Every seat that starts a new decision gets a deadline; the actor's bank is charged for
    the time it took and credited its increment. `running` is False while seats are open.
    """
    acting = set(to_act)
    out = list(clocks)
    if actor is not None:
        mine = out[actor]
        bank = mine.bank_ms
        if config.bank_ms and mine.started_ms is not None:
            bank = max(0, bank - (now_ms - mine.started_ms)) + config.increment_ms
        out[actor] = dataclasses.replace(mine, bank_ms=bank, started_ms=None, deadline_ms=None)
    for seat, clock in enumerate(out):
        if seat not in acting or not running:
            out[seat] = dataclasses.replace(clock, deadline_ms=None, started_ms=None)
        elif clock.deadline_ms is None:
            out[seat] = dataclasses.replace(clock, started_ms=now_ms, deadline_ms=deadline(config, clock, now_ms))
    return tuple(out)


def deadline(config: ClockConfig, clock: SeatClock, now_ms: int) -> int | None:
    """When a decision started now must be made (at once for an absent seat)."""
    if clock.absent:
        return now_ms
    if config.turn_ms:
        return now_ms + config.turn_ms
    if config.bank_ms:
        return now_ms + clock.bank_ms
    return None


def next_deadline(clocks: Iterable[SeatClock]) -> int | None:
    pending = [c.deadline_ms for c in clocks if c.deadline_ms is not None]
    return min(pending) if pending else None


def due(clocks: Sequence[SeatClock], to_act: Iterable[int], now_ms: int) -> list[int]:
    """Seats that must decide now and whose time is up, in seat order."""
    acting = set(to_act)
    return [
        seat
        for seat, clock in enumerate(clocks)
        if seat in acting and clock.deadline_ms is not None and clock.deadline_ms <= now_ms
    ]


def time_out(config: ClockConfig, clocks: Sequence[SeatClock], seat: int) -> tuple[tuple[SeatClock, ...], bool]:
    """Count a timeout of `seat` (not for a seat already absent). True when it now becomes absent."""
    clock = clocks[seat]
    if clock.absent:
        return tuple(clocks), False
    timeouts = clock.timeouts + 1
    absent = timeouts >= config.max_timeouts
    updated = dataclasses.replace(
        clock, timeouts=timeouts, absent=absent, forfeited=absent and config.policy == FORFEIT
    )
    return (*clocks[:seat], updated, *clocks[seat + 1 :]), absent


def leave(config: ClockConfig, clocks: Sequence[SeatClock], seat: int, now_ms: int) -> tuple[SeatClock, ...]:
    """The player of `seat` left: the seat is absent (and a pending decision is due at once)."""
    clock = clocks[seat]
    updated = dataclasses.replace(
        clock,
        absent=True,
        forfeited=config.policy == FORFEIT,
        deadline_ms=now_ms if clock.deadline_ms is not None else None,
    )
    return (*clocks[:seat], updated, *clocks[seat + 1 :])


def voluntary(clocks: Sequence[SeatClock], seat: int) -> tuple[SeatClock, ...]:
    """A decision the seat made itself resets its timeouts in a row."""
    return (*clocks[:seat], dataclasses.replace(clocks[seat], timeouts=0), *clocks[seat + 1 :])


def apply_forfeits(result: Result, clocks: Sequence[SeatClock]) -> Result:
    """Forfeited seats rank after every other seat and never win, whatever their score."""
    lost = {seat for seat, clock in enumerate(clocks) if clock.forfeited}
    if not lost or not result.ranks:
        return result
    keys = [(seat not in lost, -result.ranks[seat]) for seat in range(len(result.ranks))]
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        same = position and keys[seat] == keys[order[position - 1]]
        ranks[seat] = ranks[order[position - 1]] if same else position + 1
    winners = frozenset(Seat(s) for s in range(len(ranks)) if ranks[s] == 1 and s not in lost)
    return dataclasses.replace(result, ranks=tuple(ranks), winners=winners)
