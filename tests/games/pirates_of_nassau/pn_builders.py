"""Scenario builders: consistent states (conservation holds) with the parts a test cares about."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from flotilla.games.pirates_of_nassau import RULES, Config
from flotilla.games.pirates_of_nassau.actions import Action
from flotilla.games.pirates_of_nassau.state import (
    Cargo,
    Deck,
    Fitted,
    NavyDeck,
    Phase,
    Player,
    Route,
    State,
    Supply,
    TokenPile,
)
from flotilla.games.pirates_of_nassau.tables import (
    END_CARD,
    HOSTAGE_SUPPLY,
    MERCHANTS,
    PILE_ORDER,
    PILE_TOKENS,
    RESOURCE_SUPPLY,
    SLOT_ORDER,
    TRADE_WIND_SUPPLY,
    navy_cards_for,
)
from flotilla.rules import Seat

ALL_CARDS = ("C12", "C21", "C22", "C33")


def hold(p: int = 0, w: int = 0, g: int = 0, r: int = 0, h: int = 0) -> Cargo:
    return Cargo(p, w, g, r, h)


def a_player(notoriety: int, *, fitted: Mapping[str, str] | None = None, **kw: object) -> Player:
    """A player; `fitted` maps slot id -> token id."""
    tokens = tuple(sorted((Fitted(s, t) for s, t in (fitted or {}).items()), key=lambda f: SLOT_ORDER[f.slot]))
    return dataclasses.replace(Player(notoriety=notoriety, fitted=tokens), **kw)  # type: ignore[arg-type]


def a_state(
    players: Sequence[Player],
    phase: Phase,
    *,
    seats: int | None = None,
    routes: Mapping[int, str] | None = None,
    deck_tops: Mapping[int, Sequence[str]] | None = None,
    navy_display: Sequence[str] | None = None,
    navy_top: Sequence[str] | None = None,
    display: Sequence[str] = (),
    sacked: Sequence[int] = (),
    round_: int = 2,
    seed: int = 1,
) -> State:
    """A state built from scratch; every card and token not placed goes to its deck or pile."""
    n = seats or len(players)
    config = Config(seats=n)
    base = RULES.new_game(config, seed)
    routes = dict(routes or {})
    used = set(routes.values()) | {c for p in players for c in p.plundered}
    decks = []
    for zone in (1, 2, 3):
        tops = tuple((deck_tops or {}).get(zone, ()))
        used |= set(tops)
        rest = tuple(sorted(c for c, m in MERCHANTS.items() if m.zone == zone and c not in used))
        decks.append(Deck(rest, ()) if not tops else Deck((), (*tops, *rest)))
    if navy_display is None:
        navy_display = navy_cards_for(n, 1)[: config.display_size]
    all_navy = (*navy_cards_for(n, 1), *navy_cards_for(n, 2), END_CARD)
    if navy_top is not None:
        rest = tuple(c for c in all_navy if c not in navy_top and c not in navy_display)
        navy = NavyDeck((), (), (*navy_top, *rest))
    else:
        p1 = tuple(c for c in navy_cards_for(n, 1) if c not in navy_display)
        p2 = tuple(sorted(c for c in (*navy_cards_for(n, 2), END_CARD) if c not in navy_display))
        navy = NavyDeck(p1, p2)
    fitted = {f.token for p in players for f in p.fitted}
    piles = tuple(
        TokenPile(tuple(t for t in PILE_TOKENS[k] if t not in fitted and t not in display)) for k in PILE_ORDER
    )
    held = [sum(getattr(p.hold, name) for p in players) for name in ("gunpowder", "goods", "rum")]
    hostages = sum(p.hold.hostages + p.plank for p in players)
    winds = sum(int(p.wind_held) + p.winds_spent for p in players)
    supply = Supply(
        RESOURCE_SUPPLY - held[0],
        RESOURCE_SUPPLY - held[1],
        RESOURCE_SUPPLY - held[2],
        HOSTAGE_SUPPLY - hostages,
        TRADE_WIND_SUPPLY - winds,
    )
    return dataclasses.replace(
        base,
        round=round_,
        phase=phase,
        players=tuple(players),
        routes=tuple(Route(s, c) for s, c in sorted(routes.items())),
        decks=tuple(decks),
        navy=navy,
        navy_display=tuple(navy_display),
        piles=piles,
        display=tuple(display),
        supply=supply,
        sacked=tuple(sorted(sacked)),
        pesos_issued=sum(p.hold.pesos + p.chest for p in players),
    )


def play(state: State, *moves: tuple[int, Action]) -> tuple[State, list[object]]:
    """Apply (seat, action) pairs; returns the final state and all events."""
    events: list[object] = []
    for seat, action in moves:
        state, evs = RULES.apply(state, Seat(seat), action)
        RULES.check_invariants(state)
        events.extend(evs)
    return state, events


def order(*seats: int) -> tuple[Seat, ...]:
    return tuple(Seat(s) for s in seats)
