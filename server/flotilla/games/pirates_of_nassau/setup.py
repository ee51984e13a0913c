"""new_game: decks, navy deck, token piles, the Nassau display and the first-round dice (§3)."""

from __future__ import annotations

from flotilla.rules import Rng, Seat, draw_many

from . import flow
from .common import draw_card
from .config import Config
from .state import Deck, NavyDeck, PirateMove, Player, Route, State, Supply, TokenPile
from .tables import MERCHANTS, PILE_ORDER, PILE_TOKENS, ZONE_ROUTES, navy_deck


def roll_dice(rng: Rng) -> tuple[tuple[int, ...], Rng]:
    dice = []
    for _ in range(3):
        d, rng = rng.below(6)
        dice.append(d + 1)
    return tuple(dice), rng


def new_game(config: Config, seed: int) -> State:
    rng = Rng(seed)
    n = config.seats
    size = config.display_size
    decks = []
    routes = []
    for zone, spaces in enumerate(ZONE_ROUTES, start=1):
        deck = Deck(tuple(sorted(c for c, m in MERCHANTS.items() if m.zone == zone)))
        for space in spaces:
            card, deck, rng = draw_card(deck, rng)
            if card is not None:
                routes.append(Route(space, card))
        decks.append(deck)
    phase1 = navy_deck(n, 1)
    phase2 = navy_deck(n, 2)
    shown, phase1, rng = draw_many(phase1, size, rng)
    piles = []
    display: list[str] = []
    for pile in PILE_ORDER:
        drawn, hidden, rng = draw_many(PILE_TOKENS[pile], size, rng)
        piles.append(TokenPile(hidden))
        display.extend(drawn)
    rolls = []
    for _ in range(n):
        dice, rng = roll_dice(rng)
        rolls.append(tuple(sorted(dice)))
    ranking = sorted(range(n), key=lambda i: (sum(rolls[i]), i))
    notoriety = {seat: place + 1 for place, seat in enumerate(ranking)}
    players = tuple(Player(notoriety=notoriety[i], dice=rolls[i]) for i in range(n))
    state = State(
        config=config,
        rng=rng,
        round=1,
        phase=PirateMove(order=tuple(Seat(i) for i in ranking), turn=0),
        players=players,
        routes=tuple(sorted(routes, key=lambda r: r.space)),
        decks=tuple(decks),
        navy=NavyDeck(phase1, phase2),
        navy_display=shown,
        piles=tuple(piles),
        display=tuple(display),
        supply=Supply(),
    )
    return flow.begin_pirate_phase(state, [])
