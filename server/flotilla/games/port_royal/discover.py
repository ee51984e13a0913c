"""Phase 1 — Discover (spec §4.1-§4.5): reveal, repel, bust, tax increases."""

from __future__ import annotations

from flotilla.rules import Seat

from .cards import (
    CARDS,
    GAMESTER,
    JINX,
    PACK_OF_PIRATES,
    TAX_OFFICER,
    TINY_GAMESTER,
    CardId,
    Kind,
    Role,
    TaxBonus,
)
from .contracts import advance_prep, complete, is_eligible, prep_cube
from .events import (
    CardRevealed,
    CoinReason,
    ContractDeclined,
    HarborBusted,
    ShipDocked,
    ShipRepelled,
)
from .state import Discover, Gamester, Jinx, Repel, TaxOfficer, TimeCard
from .stats import count_role, harbor_colours, swords
from .tables import GAMESTER_COLOURS, TAX_THRESHOLD, TINY_GAMESTER_COLOURS
from .turns import end_turn
from .work import Work


def can_repel(w: Work, ship: CardId) -> bool:
    """The active player's swords reach the ship's number (never for a skull)."""
    need = CARDS[ship].repel
    return need is not None and swords(w.players[w.active].display) >= need


def would_bust(harbor: list[CardId] | tuple[CardId, ...], ship: CardId) -> bool:
    """A ship of this colour is already in the harbor display."""
    colour = CARDS[ship].colour
    return any(CARDS[c].kind is Kind.SHIP and CARDS[c].colour is colour for c in harbor)


def reveal(w: Work) -> None:
    """Reveal one card (spec §4.1) and resolve it; sets the next phase."""
    from_time = w.config.coop and w.revealed == 0
    if from_time:
        card: CardId | None = w.draw_from(w.time_pile)
    else:
        card = w.draw_card()
    if card is None:  # ruling R11: both piles empty, Phase 1 ends as if stopped
        from .trade import stop  # noqa: PLC0415 - trade imports this module

        stop(w)
        return
    w.revealed += 1
    w.emit(CardRevealed(w.active, card, from_time))
    info = CARDS[card]
    if info.kind is Kind.PERSON:
        w.harbor.append(card)
        w.phase = Discover()
    elif info.kind is Kind.EXPEDITION:
        w.expeditions.append(card)
        w.phase = Discover()
    elif info.kind is Kind.TAX:
        tax(w, card)
    elif can_repel(w, card):
        w.phase = Repel(card)
    else:
        admit(w, card)


def repel(w: Work, ship: CardId) -> None:
    """D2 = repel: to the discard pile or into a Pack-of-Pirates collection (spec §4.8.5)."""
    p = w.players[w.active]
    collected = False
    if is_eligible(w.contracts, p.completed, w.active, PACK_OF_PIRATES):
        colour = CARDS[ship].colour
        if all(CARDS[c].colour is not colour for c in p.collection):
            p.collection.append(ship)
            collected = True
    if not collected:
        w.discard.append(ship)
    w.emit(ShipRepelled(w.active, ship, collected))
    w.phase = Discover()


def admit(w: Work, ship: CardId) -> None:
    """An unrepelled ship: bust (spec §4.3) or dock with Gamester triggers (spec §4.8.4)."""
    if would_bust(w.harbor, ship):
        w.harbor.append(ship)
        w.emit(HarborBusted(w.active, ship))
        p = w.players[w.active]
        if is_eligible(w.contracts, p.completed, w.active, JINX):
            w.phase = Jinx()
        else:
            finish_bust(w)
        return
    before = harbor_colours(w.harbor)
    w.harbor.append(ship)
    w.emit(ShipDocked(w.active, ship))
    after = harbor_colours(w.harbor)
    queue: list[str] = []
    if w.config.contracts and after > before:
        seat = w.active
        for c in list(w.contracts):
            p = w.players[seat]
            if c.contract == TINY_GAMESTER and after >= TINY_GAMESTER_COLOURS:
                cube = prep_cube(w.contracts, TINY_GAMESTER, seat)
                if cube is not None:
                    if cube.turn < w.turn:
                        complete(w, seat, TINY_GAMESTER)
                elif is_eligible(w.contracts, p.completed, seat, TINY_GAMESTER):
                    queue.append(TINY_GAMESTER)
            elif (
                c.contract == GAMESTER
                and after >= GAMESTER_COLOURS
                and is_eligible(w.contracts, p.completed, seat, GAMESTER)
            ):
                queue.append(GAMESTER)
    w.phase = Gamester(tuple(queue)) if queue else Discover()


def gamester_answer(w: Work, contract: str, accept: bool) -> None:
    """D10 for the head of the Gamester queue."""
    assert isinstance(w.phase, Gamester)
    rest = w.phase.queue[1:]
    seat = w.active
    if accept:
        if contract == TINY_GAMESTER:
            advance_prep(w, seat, contract)
        else:
            complete(w, seat, contract)
    else:
        w.emit(ContractDeclined(seat, contract))
    p = w.players[seat]
    rest = tuple(c for c in rest if is_eligible(w.contracts, p.completed, seat, c))
    w.phase = Gamester(rest) if rest else Discover()


def jinx_answer(w: Work, accept: bool) -> None:
    """D9 at the bust, then the bust resolves."""
    if accept:
        complete(w, w.active, JINX)
    else:
        w.emit(ContractDeclined(w.active, JINX))
    finish_bust(w)


def finish_bust(w: Work) -> None:
    """Spec §4.3 steps 3-5: Jester coins for everybody, harbor to the discard pile, turn ends."""
    for seat in w.seats_from(w.active):
        w.gain(seat, count_role(w.players[seat].display, Role.JESTER), CoinReason.JESTER)
    end_turn(w)


def tax(w: Work, card: CardId) -> None:
    """Spec §4.4 steps 1-3: discard, halving, then Tax Officer decisions."""
    w.discard.append(card)
    taxed: list[Seat] = []
    for seat in w.seats_from(w.active):
        c = len(w.players[seat].coins)
        if c >= TAX_THRESHOLD:
            w.pay_bank(seat, c // 2, CoinReason.TAX)
            taxed.append(seat)
    queue = tuple(s for s in taxed if is_eligible(w.contracts, w.players[s].completed, s, TAX_OFFICER))
    if queue:
        w.phase = TaxOfficer(card, queue)
    else:
        finish_tax(w, card)


def tax_officer_answer(w: Work, seat: Seat, accept: bool) -> None:
    """D8 by the head of the queue."""
    assert isinstance(w.phase, TaxOfficer)
    phase = w.phase
    if accept:
        complete(w, seat, TAX_OFFICER)
    else:
        w.emit(ContractDeclined(seat, TAX_OFFICER))
    rest = tuple(s for s in phase.queue[1:] if is_eligible(w.contracts, w.players[s].completed, s, TAX_OFFICER))
    if rest:
        w.phase = TaxOfficer(phase.tax, rest)
    else:
        finish_tax(w, phase.tax)


def finish_tax(w: Work, card: CardId) -> None:
    """Spec §4.4 steps 4-5: bonus coin, then (co-op) the time-card decision."""
    order = w.seats_from(w.active)
    if CARDS[card].tax is TaxBonus.MOST_SWORDS:
        values = [swords(w.players[s].display) for s in order]
        best = max(values)
    else:
        values = [-w.players[s].vp for s in order]
        best = max(values)
    for seat, value in zip(order, values, strict=True):
        if value == best:
            w.gain(seat, 1, CoinReason.TAX_BONUS)
    w.phase = TimeCard() if w.config.coop and w.time_pile else Discover()
