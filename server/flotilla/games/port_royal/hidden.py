"""`determinize`: re-deal what nobody can see (spec §7); `from_view`: the same from a seat's view."""

from __future__ import annotations

from flotilla.rules import Rng, Seat, shuffled
from flotilla.rules.cards import unseen
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


class _Dealer:
    """Deals consecutive hands off one shuffled pool (a scratch object, local to one call)."""

    def __init__(self, pool: tuple[CardId, ...]) -> None:
        self._pool = pool
        self._at = 0

    def take(self, k: int, *, ordered: bool) -> tuple[CardId, ...]:
        """The next `k` cards; `ordered`: sorted in deck order (a face-down pile), else as dealt (a coin stack)."""
        out = self._pool[self._at : self._at + k]
        self._at += k
        return tuple(sorted(out, key=ORDER.__getitem__)) if ordered else out


def determinize(s: State, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell apart from `s`: every face-down card (draw pile, all coin
    stacks, time and victory piles — nobody sees any of them) is re-dealt at random. The pool is
    sorted first, so the result depends on the view and `rng` only, never on where the hidden
    cards were (a policy sampling worlds cannot tell `s` from any determinization of it)."""
    del seat
    players = s.players
    pool = [*s.draw_pile, *(c for p in players for c in p.coins), *s.time_pile, *s.victory_pile]
    pool.sort(key=ORDER.__getitem__)
    mixed, _ = shuffled(pool, rng.fork(1))
    deal = _Dealer(mixed)
    draw_pile = deal.take(len(s.draw_pile), ordered=True)
    new_players = tuple(evolve(p, coins=deal.take(len(p.coins), ordered=False)) for p in players)
    time_pile = deal.take(len(s.time_pile), ordered=True)
    victory_pile = deal.take(len(s.victory_pile), ordered=True)
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


def _unseen_cards(v: View, config: Config) -> tuple[CardId, ...]:
    """The deck (with the 5-seat expedition) minus every face-up card, in deck order."""
    seen = [*v.harbor, *v.discard, *v.expeditions]
    for p in v.players:
        seen.extend(p.display)
        seen.extend(p.collection)
    if v.phase.ship is not None and v.phase.kind is PhaseKind.REPEL:
        seen.append(v.phase.ship)
    deck_cards = [*deck(config.expansion), *((FIVE_PLAYER_EXPEDITION,) if config.seats == 5 else ())]
    return unseen(deck_cards, seen, key=ORDER.__getitem__)


def _contracts(v: View, config: Config) -> tuple[tuple[ContractId, ...], tuple[ContractId, ...], int]:
    """The face-down contract pile (the mode's contracts not face up, in order), the spare co-op
    contracts and the token counters, so that contracts are conserved (invariants.py): face up +
    pile + spares + tokens - counters = all contracts."""
    if not config.contracts:
        return (), (), 0
    face_up = {c.contract for c in v.contracts}
    pool_of_mode = CONTRACT_ORDER if config.coop else COMPETITIVE_CONTRACTS
    contract_pile = tuple(c for c in pool_of_mode if c not in face_up)[: v.contract_pile_size]
    left = len(CONTRACTS) - len(v.contracts) - len(contract_pile) - sum(p.vp_tokens for p in v.players)
    initial = () if config.coop else COOP_ONLY_CONTRACTS
    return contract_pile, initial[: max(left, 0)], max(-left, 0)


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
    pool, rng = shuffled(_unseen_cards(v, config), rng.fork(1))
    deal = _Dealer(pool)
    draw_pile = deal.take(v.draw_pile_size, ordered=True)
    players = tuple(
        Player(
            display=p.display,
            coins=deal.take(p.coin_count, ordered=False),
            completed=p.completed,
            tokens=p.vp_tokens,
            collection=p.collection,
        )
        for p in v.players
    )
    time_pile = deal.take(v.time_pile_size, ordered=True)
    victory_pile = deal.take(v.victory_pile_size, ordered=True)
    contract_pile, spares, counters = _contracts(v, config)
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
