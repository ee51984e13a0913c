"""Moving from one decision to the next, running the automatic steps (1, 5.1, 6, 7, 8, 9) between."""

from __future__ import annotations

from flotilla.rules import Seat, draw
from flotilla.rules.evolve import evolve

from . import navy, notoriety
from .common import cap, default_loss, draw_card, first_usable, held_items, remove, seats_by_notoriety
from .events import (
    BoardCleared,
    BurialFinished,
    DiceRolled,
    GameEnded,
    MerchantDealt,
    MerchantMoved,
    MerchantSailedAway,
    NassauRestocked,
    NavyCardReturned,
    NavyCardRevealed,
    PileReshuffled,
    RoundStarted,
)
from .state import (
    Adjusting,
    Burying,
    Buying,
    Deck,
    Finished,
    HoldCheck,
    NavyChoice,
    PirateMove,
    Route,
    State,
    TokenPile,
    with_player,
)
from .tables import (
    END_CARD,
    MERCHANTS,
    PILE_ORDER,
    PURSER_SELL_RESOURCES,
    SELL_RESOURCES,
    TOKENS,
    ZONE_ROUTES,
)

Events = list[object]


# --- Step 1 and 2 ---------------------------------------------------------------------------
def begin_pirate_phase(state: State, events: Events) -> State:
    order = seats_by_notoriety(state, descending=False)
    events.append(RoundStarted(state.round, order))
    return evolve(state, phase=PirateMove(order=order, turn=0))


def end_pirate_turn(state: State, order: tuple[Seat, ...], turn: int, events: Events) -> State:
    if turn + 1 < 3 * len(order):
        return evolve(state, phase=PirateMove(order=order, turn=turn + 1))
    return run_step3(state, seats_by_notoriety(state, descending=True), 0, events)


# --- Step 3 ----------------------------------------------------------------------------------
def run_step3(state: State, order: tuple[Seat, ...], index: int, events: Events) -> State:
    while index < len(order):
        seat = order[index]
        if notoriety.needs_prompt(state, seat):
            return evolve(state, phase=Adjusting(order=order, index=index))
        state, waiting = notoriety.score(state, 3, order, index, cash_wind=False, fiddler=False, events=events)
        if waiting:
            return state
        index += 1
    return run_step4(state, seats_by_notoriety(state, descending=False), 0, events)


def after_collision(state: State, step: int, order: tuple[Seat, ...], index: int, events: Events) -> State:
    if step == 3:
        return run_step3(state, order, index + 1, events)
    return run_step4(state, order, index + 1, events)


# --- Step 4 ----------------------------------------------------------------------------------
def run_step4(state: State, order: tuple[Seat, ...], index: int, events: Events) -> State:
    while index < len(order) and state.navy_display:
        if len(state.navy_display) > 1:
            return evolve(state, phase=NavyChoice(order=order, index=index))
        state, waiting = navy.take(state, order, index, state.navy_display[0], events)
        if waiting:
            return state
        index += 1
    for card in state.navy_display:  # 2 players: the unchosen card goes under the chosen ones
        events.append(NavyCardReturned(card))
    state = evolve(
        state,
        navy_display=(),
        navy=evolve(state.navy, bottom=state.navy.bottom + state.navy_display),
    )
    return begin_step5(state, events)


# --- Step 5 ----------------------------------------------------------------------------------
def begin_step5(state: State, events: Events) -> State:
    players = tuple(evolve(p, trail=(), space=0) for p in state.players)
    state = evolve(state, players=players)
    order = seats_by_notoriety(state, descending=True)
    events.append(BoardCleared(order))
    return evolve(state, phase=Buying(order=order, index=0))


def next_buyer(state: State, order: tuple[Seat, ...], index: int, passed: tuple[Seat, ...], events: Events) -> State:
    n = len(order)
    for step in range(1, n + 1):
        i = (index + step) % n
        if order[i] not in passed:
            return evolve(state, phase=Buying(order=order, index=i, passed=passed))
    return run_burying(state, order, 0, events)


def run_burying(state: State, order: tuple[Seat, ...], index: int, events: Events) -> State:
    while index < len(order):
        p = state.players[order[index]]
        resources = p.hold.gunpowder + p.hold.goods + p.hold.rum
        purser = first_usable(p, "Purser") is not None
        if p.hold.pesos > 0 or resources >= SELL_RESOURCES or (purser and resources >= PURSER_SELL_RESOURCES):
            return evolve(
                state,
                phase=Burying(order=order, index=index, hold_before=p.hold, face_down_before=p.face_down),
            )
        events.append(BurialFinished(order[index], p.hold, p.face_down))
        index += 1
    over = tuple(s for s in order if state.players[s].hold.total > cap(state.players[s]))
    return run_hold_check(state, over, 0, events)


def run_hold_check(state: State, order: tuple[Seat, ...], index: int, events: Events) -> State:
    from .events import ItemDiscarded  # noqa: PLC0415 - local to keep the import list short

    while index < len(order):
        seat = order[index]
        p = state.players[seat]
        while p.hold.total > cap(p) and len(held_items(p.hold)) == 1:
            item = default_loss(p.hold)
            state = remove(state, seat, item)
            events.append(ItemDiscarded(seat, item))
            p = state.players[seat]
        if p.hold.total > cap(p):
            return evolve(state, phase=HoldCheck(order=order, index=index))
        index += 1
    return end_of_round(state, events)


# --- Steps 6 to 9, then step 1 ------------------------------------------------------------
def end_of_round(state: State, events: Events) -> State:
    state = reveal_navy(state, events)
    if isinstance(state.phase, Finished):
        return state
    state = move_merchants(state, events)
    state = restock_nassau(state, events)
    players = tuple(evolve(p, face_down=(), bought=(), hand=("C12", "C21", "C22", "C33")) for p in state.players)
    state = evolve(state, players=players, round=state.round + 1)
    return start_round(state, events)


def start_round(state: State, events: Events) -> State:
    from .setup import roll_dice  # noqa: PLC0415 - setup imports flow

    rng = state.rng
    for seat in range(len(state.players)):
        dice, rng = roll_dice(rng)
        state = with_player(state, seat, evolve(state.players[seat], dice=tuple(sorted(dice))))
        events.append(DiceRolled(Seat(seat), dice))
    state = evolve(state, rng=rng)
    return begin_pirate_phase(state, events)


def reveal_navy(state: State, events: Events) -> State:
    deck = state.navy
    rng = state.rng
    shown = list(state.navy_display)
    for _ in range(state.config.display_size):
        if deck.phase1:
            card, rest, rng = draw(deck.phase1, rng)
            deck = evolve(deck, phase1=rest)
        elif deck.phase2:
            card, rest, rng = draw(deck.phase2, rng)
            deck = evolve(deck, phase2=rest)
        elif deck.bottom:
            card, deck = deck.bottom[0], evolve(deck, bottom=deck.bottom[1:])
        else:
            break
        events.append(NavyCardRevealed(card))
        if card == END_CARD:
            state = evolve(state, navy=deck, rng=rng, navy_display=tuple(shown), phase=Finished())
            from .scoring import result  # noqa: PLC0415 - scoring imports state only

            final = result(state)
            assert final is not None
            events.append(GameEnded(final.scores, tuple(sorted(final.winners))))
            return state
        shown.append(card)
    return evolve(state, navy=deck, rng=rng, navy_display=tuple(shown))


def move_merchants(state: State, events: Events) -> State:
    on = {r.space: r.card for r in state.routes}
    decks = list(state.decks)
    for space in ZONE_ROUTES[0]:
        card = on.pop(space, None)
        if card is not None:
            zone = MERCHANTS[card].zone
            decks[zone - 1] = Deck(decks[zone - 1].hidden, (*decks[zone - 1].bottom, card))
            events.append(MerchantSailedAway(card, space))
    for src, dst in ((1, 0), (2, 1)):
        for space in sorted(ZONE_ROUTES[src], reverse=True):
            card = on.pop(space, None)
            if card is None:
                continue
            empty = [s for s in sorted(ZONE_ROUTES[dst], reverse=True) if s not in on]
            if not empty:  # R27: cannot happen on this board
                zone = MERCHANTS[card].zone
                decks[zone - 1] = Deck(decks[zone - 1].hidden, (*decks[zone - 1].bottom, card))
                continue
            on[empty[0]] = card
            events.append(MerchantMoved(card, space, empty[0]))
    rng = state.rng
    for zone, spaces in enumerate(ZONE_ROUTES):
        for space in sorted(spaces, reverse=True):
            if space in on:
                continue
            card, decks[zone], rng = draw_card(decks[zone], rng)
            if card is not None:
                on[space] = card
                events.append(MerchantDealt(card, space))
    routes = tuple(Route(s, on[s]) for s in sorted(on))
    return evolve(state, routes=routes, decks=tuple(decks), rng=rng)


def restock_nassau(state: State, events: Events) -> State:
    piles = list(state.piles)
    discarded = state.display
    for t in discarded:
        i = PILE_ORDER.index(TOKENS[t].pile)
        piles[i] = TokenPile(piles[i].hidden, tuple(sorted((*piles[i].discard, t))))
    rng = state.rng
    drawn: list[str] = []
    for i, pile_kind in enumerate(PILE_ORDER):
        for _ in range(state.config.display_size):
            pile = piles[i]
            if not pile.hidden:
                if not pile.discard:
                    break
                pile = TokenPile(pile.discard, ())
                events.append(PileReshuffled(pile_kind))
            token, hidden, rng = draw(pile.hidden, rng)
            piles[i] = TokenPile(hidden, pile.discard)
            drawn.append(token)
    events.append(NassauRestocked(discarded, tuple(drawn)))
    return evolve(state, piles=tuple(piles), display=tuple(drawn), rng=rng)
