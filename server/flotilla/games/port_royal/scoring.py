"""Final scores (spec §8): most VP, then most coins, then a shared victory; co-op by victory pile."""

from __future__ import annotations

from flotilla.rules import Result, Seat
from flotilla.rules.scoring import ranked_result

from .state import Finished, State
from .stats import display_vp
from .tables import rank_title


def final_scores(vps: list[int], coins: list[int]) -> tuple[tuple[int, ...], tuple[Seat, ...]]:
    """Scores (VP) and winners by (VP, coins)."""
    r = ranked_result(vps, [(v, c) for v, c in zip(vps, coins, strict=True)])
    return r.scores, tuple(sorted(r.winners))


def result(s: State) -> Result | None:
    """The result once the game is over."""
    if not isinstance(s.phase, Finished):
        return None
    n = len(s.players)
    if s.config.coop:
        won = bool(s.phase.coop_won)
        score = len(s.victory_pile) if won else 0
        return Result(
            scores=tuple(score for _ in range(n)),
            winners=frozenset(Seat(i) for i in range(n)) if won else frozenset(),
            ranks=tuple(1 for _ in range(n)),
            detail={"outcome": "won" if won else "lost", "title": rank_title(score) if won else ""},
        )
    vps = [display_vp(p.display) + p.tokens for p in s.players]
    coins = [len(p.coins) for p in s.players]
    return ranked_result(vps, [(v, c) for v, c in zip(vps, coins, strict=True)])
