"""`determinize`: re-deal what nobody can see (spec §7); `from_view`: the same from a seat's view."""

from __future__ import annotations

from collections import Counter

from flotilla.rules import Rng, Seat, shuffled
from flotilla.rules.evolve import evolve

from .cards import (
    COMPETITIVE_CONTRACTS,
    CONTRACT_ORDER,
    CONTRACTS,
    COOP_ONLY_CONTRACTS,
    FIVE_PLAYER_EXPEDITION,
    ORDER,
    CardId,
    ContractId,
    deck,
)
from .config import Config
from .state import (
    Discover,
    Finished,
    Gamester,
    Jinx,
    Phase,
    Player,
    Repel,
    State,
    TaxOfficer,
    TimeCard,
    Window,
)
from .views import PhaseKind, PhaseView, View


def determinize(s: State, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell apart from `s`: every face-down card (draw pile, all coin
    stacks, time and victory piles — nobody sees any of them) is re-dealt at random."""
    del seat
    players = s.players
    pool = [*s.draw_pile, *(c for p in players for c in p.coins), *s.time_pile, *s.victory_pile]
    mixed, _ = shuffled(pool, rng.fork(1))
    at = 0

    def take(k: int) -> tuple[str, ...]:
        nonlocal at
        out = mixed[at : at + k]
        at += k
        return out

    draw_pile = tuple(sorted(take(len(s.draw_pile)), key=ORDER.__getitem__))
    new_players = tuple(evolve(p, coins=take(len(p.coins))) for p in players)
    time_pile = tuple(sorted(take(len(s.time_pile)), key=ORDER.__getitem__))
    victory_pile = tuple(sorted(take(len(s.victory_pile)), key=ORDER.__getitem__))
    return evolve(s, rng=rng, draw_pile=draw_pile, players=new_players, time_pile=time_pile, victory_pile=victory_pile)


def _phase(v: PhaseView) -> Phase:
    """The pending decision of a view as the state's phase."""
    kind = v.kind
    if kind is PhaseKind.DISCOVER:
        return Discover()
    if kind is PhaseKind.REPEL:
        assert v.ship is not None
        return Repel(v.ship)
    if kind is PhaseKind.GAMESTER:
        return Gamester(v.contract_queue)
    if kind is PhaseKind.JINX:
        return Jinx()
    if kind is PhaseKind.TAX_OFFICER:
        assert v.tax is not None
        return TaxOfficer(v.tax, v.queue)
    if kind is PhaseKind.TIME_CARD:
        return TimeCard()
    if kind is PhaseKind.WINDOW:
        assert v.seat is not None
        return Window(v.seat, v.allowance)
    return Finished()  # coop_won is set by from_view, which sees the whole view


def from_view(v: View, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell from the one `v` was taken from: every face-up card, count and
    decision from the view; the face-down cards (draw pile, every coin stack, time and victory
    piles) dealt at random from the deck minus every face-up card. The face-down contract pile
    (only ever used up from its end as VP tokens) is the mode's contracts not face up, in order.
    The co-op difficulty only shaped the setup (the victory pile's size carries it): it is 0."""
    del seat
    config = Config(seats=len(v.players), mode=v.mode)
    phase = _phase(v.phase)
    if isinstance(phase, Finished):
        phase = Finished(v.coop_won)
    seen = [*v.harbor, *v.discard, *v.expeditions]
    for p in v.players:
        seen.extend(p.display)
        seen.extend(p.collection)
    if v.phase.ship is not None and v.phase.kind is PhaseKind.REPEL:
        seen.append(v.phase.ship)
    deck_cards = [*deck(config.expansion), *((FIVE_PLAYER_EXPEDITION,) if config.seats == 5 else ())]
    unseen = Counter(deck_cards) - Counter(seen)
    pool, rng = shuffled(sorted(unseen.elements(), key=ORDER.__getitem__), rng.fork(1))
    at = 0

    def take(k: int, ordered: bool) -> tuple[CardId, ...]:
        nonlocal at
        out = pool[at : at + k]
        at += k
        return tuple(sorted(out, key=ORDER.__getitem__)) if ordered else out

    draw_pile = take(v.draw_pile_size, True)
    players = tuple(
        Player(
            display=p.display,
            coins=take(p.coin_count, False),
            completed=p.completed,
            tokens=p.vp_tokens,
            collection=p.collection,
        )
        for p in v.players
    )
    time_pile = take(v.time_pile_size, True)
    victory_pile = take(v.victory_pile_size, True)
    contract_pile: tuple[ContractId, ...] = ()
    spares: tuple[ContractId, ...] = ()
    counters = 0
    if config.contracts:
        face_up = {c.contract for c in v.contracts}
        pool_of_mode = CONTRACT_ORDER if config.coop else COMPETITIVE_CONTRACTS
        contract_pile = tuple(c for c in pool_of_mode if c not in face_up)[: v.contract_pile_size]
        # conservation (invariants.py): face up + pile + spares + tokens - counters = all contracts
        left = len(CONTRACTS) - len(v.contracts) - len(contract_pile) - sum(p.vp_tokens for p in v.players)
        initial = () if config.coop else COOP_ONLY_CONTRACTS
        spares = initial[: max(left, 0)]
        counters = max(-left, 0)
    return State(
        config=config,
        rng=rng,
        start=v.start_player,
        active=v.active,
        turn=v.turn,
        revealed=v.revealed,
        phase=phase,
        draw_pile=draw_pile,
        discard=v.discard,
        harbor=v.harbor,
        expeditions=v.expeditions,
        players=players,
        base_allowance=v.base_allowance,
        end_triggered=v.end_triggered,
        contracts=v.contracts,
        contract_pile=contract_pile,
        spare_contracts=spares,
        token_counters=counters,
        time_pile=time_pile,
        victory_pile=victory_pile,
        reshuffled=v.reshuffled,
    )
