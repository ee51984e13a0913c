"""`from_view`: a full state from one seat's view (§7): the face-down piles are the catalogue
minus what lies face up, the other seats' chests are drawn."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from flotilla.rules import Rng, Seat

from .config import Config
from .state import (
    Adjusting,
    AfterSmuggle,
    Burying,
    Buying,
    Collision,
    Deck,
    Finished,
    HoldCheck,
    LosingCargo,
    NavyChoice,
    NavyDeck,
    NavyFight,
    NavyPenalty,
    Phase,
    PirateAction,
    PirateMove,
    Player,
    State,
    TakingLoot,
    TokenPile,
)
from .tables import END_CARD, MERCHANTS, PILE_ORDER, PILE_TOKENS, TOKENS, navy_cards_for
from .views import PhaseView, Step, View

_PHASES: dict[Step, Callable[[PhaseView], Phase]] = {
    Step.PIRATE_MOVE: lambda v: PirateMove(order=v.order, turn=v.index),
    Step.PIRATE_ACTION: lambda v: PirateAction(order=v.order, turn=v.index, boosts=v.boosts),
    Step.TAKING_LOOT: lambda v: TakingLoot(order=v.order, turn=v.index, card=v.card or ""),
    Step.AFTER_SMUGGLE: lambda v: AfterSmuggle(order=v.order, turn=v.index),
    Step.ADJUSTING: lambda v: Adjusting(order=v.order, index=v.index, fiddler=v.fiddler),
    Step.COLLISION: lambda v: Collision(step=v.round_step, order=v.order, index=v.index, target=v.target),
    Step.NAVY_CHOICE: lambda v: NavyChoice(order=v.order, index=v.index),
    Step.NAVY_FIGHT: lambda v: NavyFight(order=v.order, index=v.index, card=v.card or "", boosts=v.boosts),
    Step.NAVY_PENALTY: lambda v: NavyPenalty(order=v.order, index=v.index, card=v.card or "", successes=v.successes),
    Step.LOSING_CARGO: lambda v: LosingCargo(
        order=v.order, index=v.index, remaining=v.remaining, notoriety_loss=v.notoriety_loss
    ),
    Step.BUYING: lambda v: Buying(order=v.order, index=v.index, passed=v.passed),
    Step.HOLD_CHECK: lambda v: HoldCheck(order=v.order, index=v.index),
    Step.FINISHED: lambda v: Finished(),
}


def _unseen(cards: Iterable[str], seen: Counter[str]) -> tuple[str, ...]:
    """`cards` (a sorted multiset) without those in `seen`, still sorted."""
    return tuple(sorted((Counter(cards) - seen).elements()))


def _burying(v: View, seat: Seat) -> Burying:
    """Step 5.3. The burying seat's view carries its hold and tokens from before the burial; another
    seat's view shows them as they were then, which is as good a world as any: nothing buried yet."""
    ph = v.phase
    assert ph.active is not None
    burier = v.seats[ph.active]
    if seat == ph.active and ph.hold_before is not None:
        hold, face_down = ph.hold_before, ph.face_down_before
    else:
        hold, face_down = burier.hold, burier.face_down
    flipped = set(burier.face_down) - set(face_down)
    purser = any(TOKENS[t].name == "Purser" for t in flipped)
    return Burying(order=ph.order, index=ph.index, hold_before=hold, face_down_before=face_down, purser_used=purser)


def from_view(v: View, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell from the one `v` was taken from.

    Face up from the view: routes, displays, every seat's board, dice and cargo, the known deck
    bottoms, the pending decision. Face down (each a sorted multiset the rules draw from uniformly,
    so its contents are all there is): each merchant deck is its zone's cards not on a route, a
    deck bottom or plundered; the navy phase decks are each phase's cards (and the End card) not on
    display or at the bottom; each token pile its tokens not in Nassau, discarded or fitted. The
    other seats' chests are not in the view (a seat could only have followed them from the peso
    flow): while the game runs each is drawn uniformly from 0 to twice the seat's own chest.
    """
    n = len(v.seats)
    finished = v.phase.step is Step.FINISHED
    phase = _burying(v, seat) if v.phase.step is Step.BURYING else _PHASES[v.phase.step](v.phase)
    own = v.seats[seat].chest or 0
    players = []
    for sv in v.seats:
        chest = sv.chest
        if chest is None:
            chest, rng = rng.below(2 * own + 1)
        players.append(
            Player(
                notoriety=sv.notoriety,
                dice=sv.dice,
                trail=sv.trail,
                space=sv.space,
                hold=sv.hold,
                chest=chest,
                hand=sv.hand,
                sections=sv.sections,
                fitted=sv.fitted,
                face_down=sv.face_down,
                bought=sv.bought,
                plundered=sv.plundered,
                raids=sv.raids,
                plank=sv.plank,
                wind_held=sv.wind_held,
                winds_spent=sv.winds_spent,
            )
        )
    seen_merchants = Counter([*(r.card for r in v.routes), *(c for d in v.decks for c in d.bottom)])
    seen_merchants.update(c for p in players for c in p.plundered)
    decks = tuple(
        Deck(_unseen((c for c, m in MERCHANTS.items() if m.zone == d.zone), seen_merchants), d.bottom) for d in v.decks
    )
    seen_navy = Counter([*v.navy_display, *v.navy_bottom])
    phase2 = navy_cards_for(n, 2) if finished else (*navy_cards_for(n, 2), END_CARD)
    navy = NavyDeck(_unseen(navy_cards_for(n, 1), seen_navy), _unseen(phase2, seen_navy), v.navy_bottom)
    seen_tokens = Counter([*v.nassau_display, *(f.token for p in players for f in p.fitted)])
    seen_tokens.update(t for pv in v.piles for t in pv.discard)
    piles = tuple(
        TokenPile(_unseen(PILE_TOKENS[kind], seen_tokens), pv.discard)
        for kind, pv in zip(PILE_ORDER, v.piles, strict=True)
    )
    return State(
        config=Config(seats=n),
        rng=rng,
        round=v.round,
        phase=phase,
        players=tuple(players),
        routes=v.routes,
        decks=decks,
        navy=navy,
        navy_display=v.navy_display,
        piles=piles,
        display=v.nassau_display,
        supply=v.supply,
        sacked=v.sacked,
        pesos_issued=sum(p.hold.pesos + p.chest for p in players),
    )
