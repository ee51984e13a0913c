"""Scenario builders for Port Royal tests (spec §6.4 test fixtures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flotilla.games.port_royal import RULES
from flotilla.games.port_royal.cards import (
    COMPETITIVE_CONTRACTS,
    CONTRACT_ORDER,
    COOP_ONLY_CONTRACTS,
    FIVE_PLAYER_EXPEDITION,
    ORDER,
    deck,
)
from flotilla.games.port_royal.config import Config, Mode
from flotilla.games.port_royal.events import Event
from flotilla.games.port_royal.state import Contract, Discover, Phase, Player, Repel, State
from flotilla.games.port_royal.tables import VP_TOKENS_FOR_COMPLETION
from flotilla.rules import Rng, Seat

A, B, C, D, E = (Seat(i) for i in range(5))


@dataclass(frozen=True, slots=True)
class ScriptedRng:
    """An Rng whose next `below()` answers come from `picks`, then from `fallback` (STYLE §4)."""

    picks: tuple[int, ...]
    fallback: Rng

    @property
    def seed(self) -> int:
        return self.fallback.seed

    def below(self, n: int) -> tuple[int, Any]:
        if self.picks:
            pick = self.picks[0]
            assert 0 <= pick < n
            rest = ScriptedRng(self.picks[1:], self.fallback)
            return pick, (rest if rest.picks else self.fallback)
        return self.fallback.below(n)


def next_draw(state: State, card: str, *, pile: str = "draw_pile") -> State:
    """`state` whose next draw from `pile` returns `card` (the card must be in that pile)."""
    cards: tuple[str, ...] = getattr(state, pile)
    return replace(state, rng=ScriptedRng((cards.index(card),), _plain(state.rng)))  # type: ignore[arg-type]


def _plain(rng: Any) -> Rng:
    return rng.fallback if isinstance(rng, ScriptedRng) else rng


def a_state(
    *,
    mode: Mode = Mode.BASE,
    seats: int = 3,
    active: Seat = A,
    start: Seat = A,
    phase: Phase | None = None,
    revealed: int = 1,
    turn: int = 1,
    harbor: Sequence[str] = (),
    expeditions: Sequence[str] | None = None,
    displays: Mapping[int, Sequence[str]] | None = None,
    coins: Mapping[int, int] | None = None,
    discard: Sequence[str] = (),
    contracts: Sequence[Contract] = (),
    collections: Mapping[int, Sequence[str]] | None = None,
    time_pile: Sequence[str] | None = None,
    victory_pile: Sequence[str] = (),
    base_allowance: int = 1,
    seed: int = 12345,
    difficulty: int = 0,
    keep: Sequence[str] = (),
) -> State:
    """A consistent state: named cards where given, every other card in the draw pile, coins filled
    with anonymous cards the scenario does not name."""
    config = Config(seats=seats, mode=mode, difficulty=difficulty)
    displays = displays or {}
    coins = coins or {}
    collections = collections or {}
    if expeditions is None:
        expeditions = (FIVE_PLAYER_EXPEDITION,) if seats == 5 else ()
    pool = list(deck(config.expansion))
    if seats == 5:
        pool.append(FIVE_PLAYER_EXPEDITION)
    named = [*harbor, *expeditions, *discard, *victory_pile, *(time_pile or ())]
    if isinstance(phase, Repel):
        named.append(phase.ship)
    for cards in (*displays.values(), *collections.values()):
        named.extend(cards)
    for card in named:
        pool.remove(card)
    # Coins: anonymous cards from the end of the canonical order (persons nobody names).
    pool.sort(key=ORDER.__getitem__)
    spare = [c for c in pool if c not in set(keep)]
    players = []
    for i in range(seats):
        k = coins.get(i, 0)
        stack = tuple(spare[-k:]) if k else ()
        for card in stack:
            spare.remove(card)
            pool.remove(card)
        completed = tuple(c.contract for c in contracts if Seat(i) in c.slots)
        tokens = sum(VP_TOKENS_FOR_COMPLETION[: len(completed) + 1])
        players.append(
            Player(
                display=tuple(displays.get(i, ())),
                coins=stack,
                completed=completed,
                tokens=tokens,
                collection=tuple(collections.get(i, ())),
            )
        )
    pile: tuple[str, ...] = ()
    spares: tuple[str, ...] = ()
    counters = 0
    if config.contracts:
        face_up = {c.contract for c in contracts}
        universe = CONTRACT_ORDER if config.coop else COMPETITIVE_CONTRACTS
        pile = tuple(c for c in universe if c not in face_up)
        spares = () if config.coop else COOP_ONLY_CONTRACTS
        used = sum(p.tokens for p in players)
        take = min(used, len(pile))
        pile, used = pile[: len(pile) - take], used - take
        take = min(used, len(spares))
        spares, used = spares[: len(spares) - take], used - take
        counters = used
    state = State(
        config=config,
        rng=Rng(seed),
        start=start,
        active=active,
        turn=turn,
        revealed=revealed,
        phase=phase if phase is not None else Discover(),
        draw_pile=tuple(pool),
        discard=tuple(discard),
        harbor=tuple(harbor),
        expeditions=tuple(expeditions),
        players=tuple(players),
        base_allowance=base_allowance,
        contracts=tuple(contracts),
        contract_pile=pile,
        spare_contracts=spares,
        token_counters=counters,
        time_pile=tuple(sorted(time_pile or (), key=ORDER.__getitem__)),
        victory_pile=tuple(sorted(victory_pile, key=ORDER.__getitem__)),
    )
    RULES.check_invariants(state)
    return state


def play(state: State, seat: Seat, *actions: Any) -> tuple[State, list[Event]]:
    """Apply actions by one seat in order; return the final state and all events."""
    events: list[Event] = []
    for action in actions:
        state, evs = RULES.apply(state, seat, action)
        events.extend(evs)
    return state, events


def coins_of(state: State) -> tuple[int, ...]:
    """Coin counts by seat."""
    return tuple(len(p.coins) for p in state.players)


def vp_of(state: State, seat: int) -> int:
    """VP of one seat."""
    return RULES.view(state, None).players[seat].vp
