"""Turn boundaries: clean-up, the end check (spec §8) and the start of the next turn."""

from __future__ import annotations

from flotilla.rules import Seat

from .events import EndTriggered, GameEnded, HarborCleared, TurnStarted
from .scoring import final_scores
from .state import Discover, Finished
from .tables import END_VP, MAX_TURNS
from .work import GameOver, Work


def end_turn(w: Work) -> None:
    """Clean-up, end check, then the next turn (or the end of the game)."""
    if w.harbor:
        cards = tuple(w.harbor)
        w.discard.extend(cards)
        w.harbor = []
        w.emit(HarborCleared(cards))
    if not w.config.coop:
        if not w.end_triggered:
            for seat in w.seats_from(w.active):
                vp = w.players[seat].vp
                if vp >= END_VP:
                    w.end_triggered = True
                    w.emit(EndTriggered(seat, vp))
                    break
        last = (w.start - 1) % w.n
        if w.active == last and (w.end_triggered or w.turn >= MAX_TURNS):
            w.phase = Finished()
            scores, winners = final_scores([p.vp for p in w.players], [len(p.coins) for p in w.players])
            w.emit(GameEnded(scores, winners, None, ""))
            raise GameOver
    next_seat = Seat((w.active + 1) % w.n)
    if w.config.coop and not w.time_pile:
        w.phase = Finished(coop_won=False)
        w.emit(GameEnded(tuple(0 for _ in range(w.n)), (), False, ""))
        raise GameOver
    w.active = next_seat
    w.turn += 1
    w.revealed = 0
    w.base_allowance = 1
    w.phase = Discover()
    w.emit(TurnStarted(next_seat, w.turn))
