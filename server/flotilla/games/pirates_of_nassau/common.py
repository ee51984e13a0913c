"""Helpers shared by the mechanics: ship stats, usable tokens, holds, supply, decks, the track."""

from __future__ import annotations

from collections.abc import Iterable

from flotilla.rules import Rng, Seat, draw
from flotilla.rules.evolve import evolve

from .state import Cargo, Deck, Player, State, Supply, with_player
from .tables import (
    BASE_CANNON,
    BASE_SAIL,
    LOSS_ORDER,
    TOKENS,
    Fight,
    Item,
    TokenKind,
    capacity,
    track_space,
)


def fitted_kinds(p: Player) -> Iterable[tuple[str, TokenKind]]:
    for f in p.fitted:
        yield f.token, TOKENS[f.token]


def base_sail(p: Player) -> int:
    return BASE_SAIL + sum(k.sail for _, k in fitted_kinds(p))


def base_cannon(p: Player) -> int:
    return BASE_CANNON + sum(k.cannon for _, k in fitted_kinds(p))


def fight_base(p: Player, fight: Fight) -> tuple[int, int]:
    """The player's (sail, cannon) before captain card and boosts in this kind of fight."""
    sail, cannon = base_sail(p), base_cannon(p)
    if fight is Fight.RAID:
        cannon += sum(k.raid_cannon for _, k in fitted_kinds(p))
    if fight is Fight.NAVY:
        sail += sum(k.navy_sail for _, k in fitted_kinds(p))
    return sail, cannon


def is_usable(p: Player, token: str) -> bool:
    """A fitted one-shot token that is face up and was not bought this round (R14)."""
    kind = TOKENS.get(token)
    return (
        kind is not None
        and kind.one_shot
        and token not in p.face_down
        and token not in p.bought
        and any(f.token == token for f in p.fitted)
    )


def usable_of(p: Player, name: str) -> tuple[str, ...]:
    """Usable one-shot tokens of one kind, lowest id first."""
    return tuple(sorted(t for t, k in fitted_kinds(p) if k.name == name and is_usable(p, t)))


def first_usable(p: Player, name: str) -> str | None:
    found = usable_of(p, name)
    return found[0] if found else None


def flip(p: Player, *tokens: str) -> Player:
    return evolve(p, face_down=tuple(sorted({*p.face_down, *tokens})))


def boost_totals(p: Player, fight: Fight, boosts: Iterable[str]) -> tuple[int, int, bool]:
    sail = cannon = 0
    tie = False
    for t in boosts:
        k = TOKENS[t]
        sail += k.boost_sail
        cannon += k.boost_cannon
        tie = tie or k.jolly_roger
    return sail, cannon, tie


def boost_options(p: Player, fight: Fight, staged: tuple[str, ...]) -> tuple[str, ...]:
    """Tokens that may still be staged as boosts for a fight of this kind."""
    return tuple(
        t for t, k in sorted(fitted_kinds(p)) if fight in k.boost_fights and t not in staged and is_usable(p, t)
    )


def cap(p: Player) -> int:
    return capacity(p.sections)


def room(p: Player) -> int:
    return max(0, cap(p) - p.hold.total)


def player(state: State, seat: int) -> Player:
    return state.players[seat]


def give(state: State, seat: int, item: Item, n: int) -> tuple[State, int]:
    """Move up to n items of one kind from the supply to a hold (supply-limited; room is the caller's)."""
    n = min(n, state.supply.get(item))
    if n <= 0:
        return state, 0
    p = state.players[seat]
    state = with_player(state, seat, evolve(p, hold=p.hold.add(item, n)))
    state = evolve(state, supply=state.supply.add(item, -n))
    if item is Item.PESO:
        state = evolve(state, pesos_issued=state.pesos_issued + n)
    return state, n


def remove(state: State, seat: int, item: Item, n: int = 1) -> State:
    """Return n items of one kind from a hold to the supply."""
    p = state.players[seat]
    state = with_player(state, seat, evolve(p, hold=p.hold.add(item, -n)))
    state = evolve(state, supply=state.supply.add(item, n))
    if item is Item.PESO:
        state = evolve(state, pesos_issued=state.pesos_issued - n)
    return state


_ITEMS = tuple(Item)


def held_items(hold: Cargo) -> tuple[Item, ...]:
    counts = (hold.pesos, hold.gunpowder, hold.goods, hold.rum, hold.hostages)
    return tuple(item for item, n in zip(_ITEMS, counts, strict=True) if n > 0)


def default_loss(hold: Cargo) -> Item:
    return next(i for i in LOSS_ORDER if hold.get(i) > 0)


def draw_card(deck: Deck, rng: Rng) -> tuple[str | None, Deck, Rng]:
    """The top card of a deck: from the shuffled part first, then the known bottom."""
    if deck.hidden:
        card, hidden, rng = draw(deck.hidden, rng)
        return card, Deck(hidden, deck.bottom), rng
    if deck.bottom:
        return deck.bottom[0], Deck((), deck.bottom[1:]), rng
    return None, deck, rng


def occupied(state: State, seat: int) -> frozenset[int]:
    """Track spaces of the other markers (the mover's marker is lifted, R34)."""
    return frozenset(track_space(p.notoriety) for i, p in enumerate(state.players) if i != seat)


def search_up(occ: frozenset[int], target: int) -> int:
    v = target + 1
    while track_space(v) in occ:
        v += 1
    return v


def search_down(occ: frozenset[int], target: int) -> int | None:
    v = target - 1
    while v >= 1 and track_space(v) in occ:
        v -= 1
    return v if v >= 1 else None


def seats_by_notoriety(state: State, *, descending: bool) -> tuple[Seat, ...]:
    return tuple(
        Seat(i) for i in sorted(range(len(state.players)), key=lambda i: state.players[i].notoriety, reverse=descending)
    )


def replace_supply(state: State, **changes: int) -> State:
    return evolve(state, supply=evolve(state.supply, **changes))


def supply_of(state: State) -> Supply:
    return state.supply
