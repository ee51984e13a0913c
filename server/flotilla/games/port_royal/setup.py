"""`new_game` (spec §3 and the RNG order of §6.2)."""

from __future__ import annotations

from flotilla.rules import Rng, Seat

from .cards import (
    COMPETITIVE_CONTRACTS,
    CONTRACT_ORDER,
    CONTRACTS,
    COOP_ONLY_CONTRACTS,
    FIVE_PLAYER_EXPEDITION,
    ORDER,
    deck,
)
from .config import Config
from .events import CoinReason
from .state import Contract, Discover, Player, State
from .tables import FACE_UP_COMPETITIVE, FACE_UP_COOP, STARTING_COINS, TIME_PILE_BASE
from .work import Work


def new_game(config: Config, seed: int) -> State:
    """The state before the start player's first reveal."""
    rng = Rng(seed)
    n = config.seats
    start_i, rng = rng.below(n)
    start = Seat(start_i)
    face_up: list[str] = []
    pile: list[str] = []
    spares: tuple[str, ...] = ()
    if config.contracts:
        pool = list(CONTRACT_ORDER if config.coop else COMPETITIVE_CONTRACTS)
        count = FACE_UP_COOP[n] if config.coop else FACE_UP_COMPETITIVE
        for _ in range(count):
            i, rng = rng.below(len(pool))
            face_up.append(pool.pop(i))
        pile = pool
        spares = () if config.coop else COOP_ONLY_CONTRACTS
    state = State(
        config=config,
        rng=rng,
        start=start,
        active=start,
        turn=1,
        revealed=0,
        phase=Discover(),
        draw_pile=deck(config.expansion),
        expeditions=(FIVE_PLAYER_EXPEDITION,) if n == 5 else (),
        players=tuple(Player() for _ in range(n)),
        contracts=tuple(Contract(c) for c in face_up),
        contract_pile=tuple(pile),
        spare_contracts=spares,
    )
    w = Work(state)
    for seat in w.seats_from(start):
        w.gain(seat, STARTING_COINS, CoinReason.STARTING)
    if config.coop:
        t = TIME_PILE_BASE + sum(CONTRACTS[c].seal_number for c in face_up)
        t += len({CONTRACTS[c].seal_letter for c in face_up})
        for _ in range(t):
            w.time_pile.append(w.draw_from(w.draw_pile))
        w.time_pile.sort(key=ORDER.__getitem__)
        for _ in range(config.difficulty):
            w.victory_pile.append(w.draw_from(w.time_pile))
        w.victory_pile.sort(key=ORDER.__getitem__)
    return w.freeze()
