"""What each seat may know (a whitelist), event redaction and determinization (§7)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from flotilla.rules import Rng, Seat
from flotilla.rules.evolve import evolve

from .common import base_cannon, base_sail, cap
from .events import PesoExchanged, PesosBuried, ResourcesSold
from .rules import to_act
from .scoring import categories, rank_points, result
from .state import (
    Adjusting,
    AfterSmuggle,
    Burying,
    Buying,
    Cargo,
    Collision,
    Finished,
    Fitted,
    HoldCheck,
    LosingCargo,
    NavyChoice,
    NavyFight,
    NavyPenalty,
    Phase,
    PirateAction,
    PirateMove,
    PlacedDie,
    Route,
    State,
    Supply,
    TakingLoot,
    active_seat,
)
from .tables import PILE_ORDER, Pile, track_space


class Step(enum.Enum):
    """The decision the game waits for."""

    PIRATE_MOVE = 1
    PIRATE_ACTION = 2
    TAKING_LOOT = 3
    AFTER_SMUGGLE = 4
    ADJUSTING = 5
    COLLISION = 6
    NAVY_CHOICE = 7
    NAVY_FIGHT = 8
    NAVY_PENALTY = 9
    LOSING_CARGO = 10
    BUYING = 11
    BURYING = 12
    HOLD_CHECK = 13
    FINISHED = 14


_STEPS: dict[type, Step] = {
    PirateMove: Step.PIRATE_MOVE,
    PirateAction: Step.PIRATE_ACTION,
    TakingLoot: Step.TAKING_LOOT,
    AfterSmuggle: Step.AFTER_SMUGGLE,
    Adjusting: Step.ADJUSTING,
    Collision: Step.COLLISION,
    NavyChoice: Step.NAVY_CHOICE,
    NavyFight: Step.NAVY_FIGHT,
    NavyPenalty: Step.NAVY_PENALTY,
    LosingCargo: Step.LOSING_CARGO,
    Buying: Step.BUYING,
    Burying: Step.BURYING,
    HoldCheck: Step.HOLD_CHECK,
    Finished: Step.FINISHED,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseView:
    """The pending decision. `index` is the go-round turn in step 2, else the position in `order`."""

    step: Step
    active: Seat | None
    order: tuple[Seat, ...]
    index: int
    boosts: tuple[str, ...]
    card: str | None  # the plundered merchant (loot) or the warship faced
    successes: int
    remaining: int
    notoriety_loss: int
    target: int
    passed: tuple[Seat, ...]
    fiddler: bool
    round_step: int = 0
    hold_before: Cargo | None = None  # the burying seat only
    face_down_before: tuple[str, ...] = ()  # the burying seat only


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    seat: Seat
    notoriety: int
    track_space: int
    space: int
    dice: tuple[int, ...]
    trail: tuple[PlacedDie, ...]
    hold: Cargo
    capacity: int
    chest: int | None  # the owner only, and everyone after the end
    hand: tuple[str, ...]
    sections: int
    fitted: tuple[Fitted, ...]
    face_down: tuple[str, ...]
    bought: tuple[str, ...]
    plundered: tuple[str, ...]
    raids: int
    plank: int
    wind_held: bool
    winds_spent: int
    base_sail: int
    base_cannon: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckView:
    zone: int
    size: int
    bottom: tuple[str, ...]  # publicly returned cards, in order, under the unknown part


@dataclass(frozen=True, slots=True, kw_only=True)
class PileView:
    pile: Pile
    size: int
    discard: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalScore:
    seat: Seat
    notoriety: int
    motley: int
    best_ship: int
    wealth: int
    points: int
    rank: int


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    viewer: Seat | None
    round: int
    phase: PhaseView
    to_act: tuple[Seat, ...]
    routes: tuple[Route, ...]
    decks: tuple[DeckView, ...]
    navy_size: int
    navy_bottom: tuple[str, ...]
    navy_display: tuple[str, ...]
    piles: tuple[PileView, ...]
    nassau_display: tuple[str, ...]
    supply: Supply
    sacked: tuple[int, ...]
    seats: tuple[SeatView, ...]
    final: tuple[FinalScore, ...]


def _phase_view(phase: Phase, viewer: Seat | None) -> PhaseView:
    order = getattr(phase, "order", ())
    burier = isinstance(phase, Burying) and viewer == active_seat(phase)
    index = getattr(phase, "turn", getattr(phase, "index", 0))
    return PhaseView(
        step=_STEPS[type(phase)],
        active=active_seat(phase),
        order=order,
        index=index,
        boosts=getattr(phase, "boosts", ()),
        card=getattr(phase, "card", None),
        successes=getattr(phase, "successes", 0),
        remaining=getattr(phase, "remaining", 0),
        notoriety_loss=getattr(phase, "notoriety_loss", 0),
        target=getattr(phase, "target", 0),
        passed=getattr(phase, "passed", ()),
        fiddler=getattr(phase, "fiddler", False),
        round_step=phase.step if isinstance(phase, Collision) else 0,
        hold_before=phase.hold_before if burier and isinstance(phase, Burying) else None,
        face_down_before=phase.face_down_before if burier and isinstance(phase, Burying) else (),
    )


def _seat_view(state: State, i: int, viewer: Seat | None, hold: Cargo, face_down: tuple[str, ...]) -> SeatView:
    """Seat `i` with the hold and face-down tokens `viewer` sees; its chest to itself or after the end."""
    p = state.players[i]
    return SeatView(
        seat=Seat(i),
        notoriety=p.notoriety,
        track_space=track_space(p.notoriety),
        space=p.space,
        dice=p.dice,
        trail=p.trail,
        hold=hold,
        capacity=cap(p),
        chest=p.chest if isinstance(state.phase, Finished) or viewer == i else None,
        hand=p.hand,
        sections=p.sections,
        fitted=p.fitted,
        face_down=face_down,
        bought=p.bought,
        plundered=p.plundered,
        raids=p.raids,
        plank=p.plank,
        wind_held=p.wind_held,
        winds_spent=p.winds_spent,
        base_sail=base_sail(p),
        base_cannon=base_cannon(p),
    )


def _seat_views(state: State, viewer: Seat | None) -> tuple[tuple[SeatView, ...], Supply]:
    """Every seat and the supply; a burial is secret, so others see the burying seat's hold and
    face-down tokens (and the supply) as they were before it began."""
    phase = state.phase
    secret_seat = active_seat(phase) if isinstance(phase, Burying) else None
    supply = state.supply
    seats = []
    for i, p in enumerate(state.players):
        hold, face_down = p.hold, p.face_down
        if isinstance(phase, Burying) and i == secret_seat and viewer != i:
            hold, face_down = phase.hold_before, phase.face_down_before
            supply = evolve(
                supply,
                gunpowder=supply.gunpowder + p.hold.gunpowder - hold.gunpowder,
                goods=supply.goods + p.hold.goods - hold.goods,
                rum=supply.rum + p.hold.rum - hold.rum,
            )
        seats.append(_seat_view(state, i, viewer, hold, face_down))
    return tuple(seats), supply


def _final_scores(state: State) -> tuple[FinalScore, ...]:
    """Each seat's scoring categories, points and rank once the game is over (else empty)."""
    res = result(state)
    if res is None:
        return ()
    return tuple(
        FinalScore(
            seat=Seat(i),
            notoriety=c.notoriety,
            motley=c.motley,
            best_ship=c.best_ship,
            wealth=c.wealth,
            points=res.scores[i],
            rank=res.ranks[i],
        )
        for i, c in enumerate(categories(p) for p in state.players)
    )


def view(state: State, viewer: Seat | None) -> View:
    """What `viewer` (None = spectator) may know: everything but chests and a burial in progress."""
    seats, supply = _seat_views(state, viewer)
    return View(
        viewer=viewer,
        round=state.round,
        phase=_phase_view(state.phase, viewer),
        to_act=tuple(sorted(to_act(state))),
        routes=state.routes,
        decks=tuple(DeckView(zone=z + 1, size=d.size, bottom=d.bottom) for z, d in enumerate(state.decks)),
        navy_size=state.navy.size,
        navy_bottom=state.navy.bottom,
        navy_display=state.navy_display,
        piles=tuple(
            PileView(pile=k, size=len(p.hidden), discard=p.discard)
            for k, p in zip(PILE_ORDER, state.piles, strict=True)
        ),
        nassau_display=state.display,
        supply=supply,
        sacked=state.sacked,
        seats=seats,
        final=_final_scores(state),
    )


def redact(event: object, viewer: Seat | None) -> object | None:
    """Burial is secret: its events go to the burying seat only."""
    if isinstance(event, PesosBuried | ResourcesSold) or (isinstance(event, PesoExchanged) and event.secret):
        return event if viewer == event.seat else None
    return event


def determinize(state: State, seat: Seat, rng: Rng) -> State:
    """Every face-down pile is a multiset drawn at random, so a fresh RNG re-deals them all.

    Other seats' chests are kept: their value is deducible from the public peso flow (§7).
    """
    del seat
    return evolve(state, rng=rng)


__all__ = ["PhaseView", "SeatView", "View", "determinize", "rank_points", "redact", "view"]
