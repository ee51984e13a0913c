"""Turn clocks as pure functions: deadlines, banks, timeouts, absence and forfeits."""

from __future__ import annotations

from flotilla.app import clocks
from flotilla.app.clocks import ClockConfig, SeatClock
from flotilla.rules import Result, Seat

TURN = ClockConfig(turn_ms=30_000)
BANK = ClockConfig(bank_ms=60_000, increment_ms=5_000)


def test_a_seat_that_must_decide_gets_a_deadline_and_others_none() -> None:
    start = clocks.schedule(TURN, clocks.initial(TURN, 3), [1], None, 1_000, running=True)
    assert [c.deadline_ms for c in start] == [None, 31_000, None]


def test_no_clock_runs_while_seats_are_open_or_without_a_clock() -> None:
    assert clocks.schedule(TURN, clocks.initial(TURN, 2), [0], None, 0, running=False)[0].deadline_ms is None
    untimed = ClockConfig()
    assert clocks.schedule(untimed, clocks.initial(untimed, 2), [0], None, 0, running=True)[0].deadline_ms is None


def test_each_decision_of_a_seat_restarts_its_turn_time() -> None:
    first = clocks.schedule(TURN, clocks.initial(TURN, 2), [0], None, 0, running=True)
    again = clocks.schedule(TURN, first, [0], 0, 10_000, running=True)  # seat 0 acted and acts again
    assert again[0].deadline_ms == 40_000


def test_a_bank_is_charged_for_the_time_taken_and_credited_the_increment() -> None:
    start = clocks.schedule(BANK, clocks.initial(BANK, 2), [0], None, 0, running=True)
    assert start[0].deadline_ms == 60_000
    after = clocks.schedule(BANK, start, [1], 0, 20_000, running=True)
    assert after[0].bank_ms == 60_000 - 20_000 + 5_000
    assert after[0].deadline_ms is None
    assert after[1].deadline_ms == 80_000


def test_timeouts_in_a_row_make_a_seat_absent_and_a_voluntary_move_resets_them() -> None:
    config = ClockConfig(turn_ms=1_000, max_timeouts=2)
    seats = clocks.initial(config, 2)
    seats, absent = clocks.time_out(config, seats, 0)
    assert (seats[0].timeouts, absent) == (1, False)
    assert clocks.voluntary(seats, 0)[0].timeouts == 0
    seats, absent = clocks.time_out(config, seats, 0)
    assert absent
    assert seats[0].absent
    assert not seats[0].forfeited


def test_an_absent_seat_is_due_at_once() -> None:
    seats = clocks.leave(TURN, clocks.initial(TURN, 2), 1, 5_000)
    scheduled = clocks.schedule(TURN, seats, [1], None, 7_000, running=True)
    assert scheduled[1].deadline_ms == 7_000
    assert clocks.due(scheduled, [1], 7_000) == [1]


def test_a_forfeited_seat_ranks_last_and_never_wins() -> None:
    config = ClockConfig(policy=clocks.FORFEIT)
    seats = clocks.leave(config, clocks.initial(config, 3), 0, 0)
    result = Result(scores=(30, 20, 10), winners=frozenset({Seat(0)}), ranks=(1, 2, 3))
    adjusted = clocks.apply_forfeits(result, seats)
    assert adjusted.ranks == (3, 1, 2)
    assert adjusted.winners == {Seat(1)}
    assert adjusted.scores == result.scores


def test_clocks_survive_their_stored_form() -> None:
    seats = (SeatClock(5, 1, 2, 3, True, False), SeatClock())
    assert clocks.load(clocks.dump(seats), TURN, 2) == seats
