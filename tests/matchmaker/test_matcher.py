"""The pure matcher: windows widen with waiting, parties stay whole, bots fill late, tickets expire."""

from __future__ import annotations

import random
import time

from flotilla.matchmaker.matcher import Match, Policy, Ticket, expired, propose_matches, window

POLICY = Policy(base_window=2.0, widen_per_s=1.0, max_window=20.0, bot_fill_after_s=30.0, expire_after_s=300.0)
NOW = 1_000_000


def a_ticket(
    tid: str, rating: float = 25.0, *, party: int = 1, seats: tuple[int, ...] = (2,), waited_s: float = 0.0
) -> Ticket:
    return Ticket(tid, rating, party, seats, NOW - int(waited_s * 1000))


class TestWindow:
    def test_the_window_widens_with_waiting_up_to_the_cap(self) -> None:
        assert window(a_ticket("a"), NOW, POLICY) == 2.0
        assert window(a_ticket("a", waited_s=5), NOW, POLICY) == 7.0
        assert window(a_ticket("a", waited_s=500), NOW, POLICY) == 20.0


class TestProposeMatches:
    def test_two_close_players_make_a_two_seat_game(self) -> None:
        matches = propose_matches([a_ticket("a", 25), a_ticket("b", 26)], NOW, POLICY)
        assert matches == [Match(("a", "b"), 2)]

    def test_distant_ratings_wait_until_the_window_reaches(self) -> None:
        tickets = [a_ticket("a", 10), a_ticket("b", 20)]
        assert propose_matches(tickets, NOW, POLICY) == []
        later = NOW + 8_000
        assert propose_matches(tickets, later, POLICY) == [Match(("a", "b"), 2)]

    def test_the_closest_rating_is_chosen(self) -> None:
        tickets = [a_ticket("a", 25, waited_s=1), a_ticket("far", 27), a_ticket("near", 25.5)]
        assert propose_matches(tickets, NOW, POLICY) == [Match(("a", "near"), 2)]

    def test_a_party_is_never_split(self) -> None:
        tickets = [
            a_ticket("pair", party=2, seats=(3,), waited_s=1),
            a_ticket("solo", seats=(3,)),
            a_ticket("x", seats=(3,)),
        ]
        matches = propose_matches(tickets, NOW, POLICY)
        assert matches == [Match(("pair", "solo"), 3)]

    def test_a_party_that_fills_a_table_plays_alone(self) -> None:
        assert propose_matches([a_ticket("pair", party=2)], NOW, POLICY) == [Match(("pair",), 2)]

    def test_seat_counts_must_agree(self) -> None:
        tickets = [a_ticket("a", seats=(2,)), a_ticket("b", seats=(3,))]
        assert propose_matches(tickets, NOW, POLICY) == []

    def test_larger_tables_are_tried_first(self) -> None:
        tickets = [a_ticket(t, seats=(2, 3), waited_s=1 if t == "a" else 0) for t in "abc"]
        assert propose_matches(tickets, NOW, POLICY) == [Match(("a", "b", "c"), 3)]

    def test_bots_fill_the_seats_after_the_configured_wait(self) -> None:
        lonely = [a_ticket("a", seats=(3,), waited_s=10)]
        assert propose_matches(lonely, NOW, POLICY) == []
        assert propose_matches(lonely, NOW + 20_000, POLICY) == [Match(("a",), 3, bots=2)]

    def test_no_bots_when_the_policy_forbids_them(self) -> None:
        policy = Policy(bots_allowed=False, bot_fill_after_s=0)
        assert propose_matches([a_ticket("a", waited_s=100)], NOW, policy) == []

    def test_expired_tickets_are_not_matched_and_are_listed(self) -> None:
        tickets = [a_ticket("old", waited_s=301), a_ticket("b"), a_ticket("c")]
        assert propose_matches(tickets, NOW, POLICY) == [Match(("b", "c"), 2)]
        assert expired(tickets, NOW, POLICY) == ["old"]

    def test_matches_are_disjoint_and_deterministic_on_many_tickets(self) -> None:
        rng = random.Random(5)
        tickets = [
            a_ticket(
                f"t{i}",
                rng.gauss(25, 8),
                party=rng.choice((1, 1, 1, 2)),
                seats=rng.choice(((2,), (3,), (2, 3, 4))),
                waited_s=rng.uniform(0, 60),
            )
            for i in range(3000)
        ]
        started = time.perf_counter()
        matches = propose_matches(tickets, NOW, POLICY)
        assert time.perf_counter() - started < 5
        assert matches == propose_matches(list(reversed(tickets)), NOW, POLICY)
        seen = [t for m in matches for t in m.ticket_ids]
        assert len(seen) == len(set(seen))
        by_id = {t.ticket_id: t for t in tickets}
        for match in matches:
            members = [by_id[t] for t in match.ticket_ids]
            assert sum(t.party_size for t in members) + match.bots == match.seat_count
            assert all(match.seat_count in t.seat_counts for t in members)
        assert len(seen) > 2000
