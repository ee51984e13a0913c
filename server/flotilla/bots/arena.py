"""The arena: seat-rotated games between policies, in process through the rules API (or over gRPC
against a running server: `bots/remote_arena.py`), with win rates (Wilson 95% intervals), mean
scores, decisions per game and openskill ratings.

Game `g` is created with seed `seed + g` and seat `i` is played by policy `(i + g) % P`, so every
policy plays every seat equally often over a multiple of P games, and a run is reproducible.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from flotilla.bots.policy import Policy, Rules, decision_from_state, make
from flotilla.rules import Result, Seat
from flotilla.rules.options import config_from_options


@dataclass(frozen=True, slots=True)
class Entrant:
    """A policy by name, its difficulty and (for a search) its playout budget or seconds per
    decision (None: the default; seconds replace the playout budget)."""

    name: str
    difficulty: int = 1
    budget: int | None = None
    seconds: float | None = None

    @property
    def label(self) -> str:
        budget = f"/{self.budget}" if self.budget is not None else ""
        seconds = f"/{self.seconds:g}s" if self.seconds is not None else ""
        return f"{self.name}@{self.difficulty}{budget}{seconds}"


@dataclass(slots=True)
class Standing:
    """One entrant's totals over a run."""

    entrant: Entrant
    wins: float = 0.0
    games: int = 0
    score_total: float = 0.0
    seats_played: int = 0
    decisions: int = 0
    seconds: float = 0.0
    searches: int = 0
    """Decisions a search policy searched (more than one legal action) and its playouts in them."""
    playouts: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.seats_played if self.seats_played else 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def playouts_per_search(self) -> float:
        return self.playouts / self.searches if self.searches else 0.0


@dataclass(slots=True)
class Report:
    """A run's standings (in `--policies` order) and its games."""

    kind: str
    seats: int
    options: Mapping[str, str]
    standings: list[Standing]
    decisions: list[int] = field(default_factory=list)
    unfinished: int = 0
    cut: bool = False
    games: list[str] = field(default_factory=list)  # over gRPC: the server's names of the games, in order

    def lines(self) -> list[str]:
        """The report as text (one row per entrant)."""
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        n = len(self.decisions)
        mean = sum(self.decisions) / n if n else 0.0
        out = [
            f"{self.kind} {self.seats} seats {opts}: {n} games, {mean:.0f} decisions per game "
            f"(min {min(self.decisions, default=0)}, max {max(self.decisions, default=0)}), "
            f"{self.unfinished} unfinished{', time limit reached' if self.cut else ''}",
            f"{'policy':<22} {'win rate':>8} {'95% CI':>15} {'mean score':>10} {'ms/decision':>11} "
            f"{'openskill mu':>12} {'sigma':>6} {'playouts/search':>15}",
        ]
        for s in self.standings:
            low, high = s.interval
            out.append(
                f"{s.entrant.label:<22} {s.win_rate:>8.2f} {f'{low:.2f}-{high:.2f}':>15} {s.mean_score:>10.1f} "
                f"{s.ms_per_decision:>11.2f} {s.mu:>12.2f} {s.sigma:>6.2f} {s.playouts_per_search:>15.0f}"
            )
        return out


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) for no trials."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def build(entrant: Entrant, rules: Rules) -> Policy:
    """The entrant's policy; a search's budget (or seconds) replaces the difficulty's default."""
    policy = make(entrant.name, rules, entrant.difficulty)
    if entrant.budget is not None and hasattr(policy, "playouts"):
        policy.playouts = entrant.budget
    if entrant.seconds is not None and hasattr(policy, "seconds"):
        policy.seconds = entrant.seconds
    return policy


@dataclass(frozen=True, slots=True)
class Played:
    """One game: its result (None if cut at `max_decisions`), decisions and time by seat."""

    result: Result | None
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def play(
    rules: Rules, config: Any, seats: Sequence[Policy], seed: int, max_decisions: int, deadline: float | None = None
) -> Played | None:
    """One game; the lowest seat of those to act decides first (simultaneous seats in turn).
    None when the monotonic `deadline` passes before it ends."""
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    decisions = [0] * len(seats)
    seconds = [0.0] * len(seats)
    while rules.result(state) is None and sum(decisions) < max_decisions:
        if deadline is not None and time.monotonic() > deadline:
            return None
        seat = min(rules.to_act(state))
        started = time.perf_counter()
        action = seats[seat].choose(decision_from_state(rules, state, seat), random.Random(rng.getrandbits(64)))
        seconds[seat] += time.perf_counter() - started
        decisions[seat] += 1
        state = rules.apply(state, seat, action).state
    return Played(rules.result(state), tuple(decisions), tuple(seconds))


def rotation(game: int, seat_count: int, entrants: int) -> list[int]:
    """The entrant of each seat in game `game`: seat `i` is played by `(i + game) % entrants`."""
    return [(i + game) % entrants for i in range(seat_count)]


class Tally:
    """A run's totals, game by game (in process or over gRPC: one reporting path)."""

    def __init__(self, kind: str, seat_count: int, entrants: Sequence[Entrant], options: Mapping[str, str]) -> None:
        self.report = Report(kind, seat_count, dict(options), [Standing(e) for e in entrants])
        self.model = PlackettLuce()
        self.ratings = [self.model.rating() for _ in entrants]

    def add(self, who: Sequence[int], played: Played) -> None:
        """One game: `who[seat]` is the entrant that played `seat`."""
        standings = self.report.standings
        self.report.decisions.append(sum(played.decisions))
        for seat, w in enumerate(who):
            standings[w].decisions += played.decisions[seat]
            standings[w].seconds += played.seconds[seat]
        if played.result is None:
            self.report.unfinished += 1
            return
        _score(standings, who, played.result)
        present = sorted(set(who))
        if len(present) > 1 and played.result.ranks:
            best = [float(min(played.result.ranks[s] for s, w in enumerate(who) if w == p)) for p in present]
            rated = self.model.rate([[self.ratings[p]] for p in present], ranks=best)
            for p, team in zip(present, rated, strict=True):
                self.ratings[p] = team[0]

    def done(self) -> Report:
        """The report, with each entrant's openskill rating."""
        for s, r in zip(self.report.standings, self.ratings, strict=True):
            s.mu, s.sigma = r.mu, r.sigma
        return self.report


def run(
    rules: Rules,
    seat_count: int,
    entrants: Sequence[Entrant],
    games: int,
    *,
    options: Mapping[str, str] | None = None,
    seed: int = 0,
    max_decisions: int = 20_000,
    time_limit_s: float | None = None,
) -> Report:
    """Play `games` seat-rotated games and total them up; when `time_limit_s` runs out, the game
    in progress is dropped (`Report.cut`) and no other starts."""
    options = dict(options or {})
    config = config_from_options(rules.config_type, seat_count, options)
    policies = [build(e, rules) for e in entrants]
    tally = Tally(rules.name, seat_count, entrants, options)
    deadline = None if time_limit_s is None else time.monotonic() + time_limit_s
    for g in range(games):
        who = rotation(g, seat_count, len(entrants))
        played = play(rules, config, [policies[w] for w in who], seed + g, max_decisions, deadline)
        if played is None:
            tally.report.cut = True
            break
        tally.add(who, played)
    report = tally.done()
    for standing, policy in zip(report.standings, policies, strict=True):
        standing.searches, standing.playouts = getattr(policy, "searches", 0), getattr(policy, "playouts_done", 0)
    return report


def _score(standings: list[Standing], who: Sequence[int], result: Result) -> None:
    winners = result.winners
    for w in set(who):
        standings[w].games += 1
        mine = [Seat(s) for s, x in enumerate(who) if x == w]
        if winners:
            standings[w].wins += sum(1 for s in mine if s in winners) / len(winners)
        for s in mine:
            standings[w].score_total += result.scores[s]
            standings[w].seats_played += 1
