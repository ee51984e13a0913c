"""`from_view`: a full state from one seat's view (§7): the face-down piles are the catalogue
minus what lies face up, the other seats' chests are drawn."""

from __future__ import annotations

from collections.abc import Callable

from flotilla.rules import Rng, Seat
from flotilla.rules.cards import unseen

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


def _players(v: View, seat: Seat, rng: Rng) -> tuple[tuple[Player, ...], Rng]:
    """Every seat's board from the view; a chest not shown is drawn from 0 to twice the seat's own."""
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
    return tuple(players), rng


def _decks(v: View, players: tuple[Player, ...]) -> tuple[Deck, ...]:
    """Each merchant deck: its zone's cards not on a route, a deck bottom or plundered."""
    seen = [*(r.card for r in v.routes), *(c for d in v.decks for c in d.bottom)]
    seen += [c for p in players for c in p.plundered]
    return tuple(Deck(unseen((c for c, m in MERCHANTS.items() if m.zone == d.zone), seen), d.bottom) for d in v.decks)


def _navy(v: View) -> NavyDeck:
    """The navy phase decks: each phase's cards (the End card in phase 2 while the game runs) not
    on display or at the bottom."""
    n = len(v.seats)
    seen = [*v.navy_display, *v.navy_bottom]
    phase2 = navy_cards_for(n, 2) if v.phase.step is Step.FINISHED else (*navy_cards_for(n, 2), END_CARD)
    return NavyDeck(unseen(navy_cards_for(n, 1), seen), unseen(phase2, seen), v.navy_bottom)


def _piles(v: View, players: tuple[Player, ...]) -> tuple[TokenPile, ...]:
    """Each token pile: its tokens not in Nassau, discarded or fitted."""
    seen = [*v.nassau_display, *(f.token for p in players for f in p.fitted)]
    seen += [t for pv in v.piles for t in pv.discard]
    return tuple(
        TokenPile(unseen(PILE_TOKENS[kind], seen), pv.discard) for kind, pv in zip(PILE_ORDER, v.piles, strict=True)
    )


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
    phase = _burying(v, seat) if v.phase.step is Step.BURYING else _PHASES[v.phase.step](v.phase)
    players, rng = _players(v, seat, rng)
    return State(
        config=Config(seats=len(v.seats)),
        rng=rng,
        round=v.round,
        phase=phase,
        players=players,
        routes=v.routes,
        decks=_decks(v, players),
        navy=_navy(v),
        navy_display=v.navy_display,
        piles=_piles(v, players),
        display=v.nassau_display,
        supply=v.supply,
        sacked=v.sacked,
        pesos_issued=sum(p.hold.pesos + p.chest for p in players),
    )
