"""Scenario builders for Sail Away: states built directly, with every unused card in its pile."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from flotilla.games.sail_away import RULES
from flotilla.games.sail_away.cards import ISLAND_IDS, ISLANDS, OBJECTIVE_IDS, PIRATE_IDS, SHIP_IDS, SHIPS
from flotilla.games.sail_away.config import Config
from flotilla.games.sail_away.state import (
    Crate,
    Island,
    IslandSpace,
    LaunchedShip,
    Phase,
    PirateCard,
    PlayerState,
    Ship,
    State,
)
from flotilla.rules import Rng, Seat

P1, P2, P3, P4 = Seat(0), Seat(1), Seat(2), Seat(3)
SpaceSpec = IslandSpace | Crate | None


def std(seat: int) -> Crate:
    """A standard crate of `seat`."""
    return Crate(Seat(seat))


def pir(seat: int) -> Crate:
    """A pirate crate of `seat`."""
    return Crate(Seat(seat), pirate=True)


def covered(owner: int, pirate_owner: int) -> IslandSpace:
    """`owner`'s standard crate covered by `pirate_owner`'s pirate crate."""
    return IslandSpace(std(owner), Seat(pirate_owner))


def island(card: str, *spaces: SpaceSpec, post: int | None = None) -> Island:
    """An island with the given spaces (missing ones empty)."""
    cells = [s if isinstance(s, IslandSpace) else IslandSpace(s) for s in spaces]
    cells += [IslandSpace()] * (len(ISLANDS[card].spaces) - len(cells))
    return Island(card, tuple(cells), None if post is None else Seat(post))


def ship(card: str, *crates: Crate | None) -> Ship:
    """An unlaunched ship with the given crates (missing ones empty)."""
    cells = list(crates) + [None] * (len(SHIPS[card].spaces) - len(crates))
    return Ship(card, tuple(cells))


def launched(*cards: str, turn: int = 0) -> tuple[LaunchedShip, ...]:
    """Ships launched in slots 1, 2, ... before `turn` (ready abilities)."""
    return tuple(LaunchedShip(c, k if k <= 5 else 0, turn) for k, c in enumerate(cards, 1))


def a_state(
    *,
    seats: int = 3,
    active: int = 0,
    turn: int = 10,
    phase: Phase = Phase.PLACEMENT,
    islands: Sequence[Island | str] = ("IS01", "IS02", "IS03", "IS09"),
    pirate_cards: Sequence[PirateCard | str] = ("PA5", "PA6", "PA7"),
    market: Sequence[str | None] = ("SH30", "SH29", "SH28"),
    ships: Mapping[int, Sequence[Ship | str]] | None = None,
    launched_ships: Mapping[int, Sequence[LaunchedShip]] | None = None,
    coins: Mapping[int, int] | None = None,
    supply: Mapping[int, tuple[int, int]] | None = None,
    reserve: Mapping[int, tuple[int, int]] | None = None,
    objectives: Sequence[str] = ("OB1", "OB5", "OB2", "OB6"),
    public: str = "OB3",
    island_discard: Sequence[str] = (),
    **overrides: Any,
) -> State:
    """A running game; supplies default to every crate not on the board (conservation holds)."""
    ships = ships or {}
    launched_ships = launched_ships or {}
    row = tuple(island(i) if isinstance(i, str) else i for i in islands)
    cards = tuple(PirateCard(c, (None, None)) if isinstance(c, str) else c for c in pirate_cards)
    unlaunched = {
        seat: tuple(ship(s) if isinstance(s, str) else s for s in ships.get(seat, ())) for seat in range(seats)
    }
    on_board_std = [0] * seats
    on_board_pir = [0] * seats
    crates: list[Crate] = []
    for isl in row:
        for sp in isl.spaces:
            if sp.crate is not None:
                crates.append(sp.crate)
            if sp.cover is not None:
                crates.append(pir(sp.cover))
    for pc in cards:
        crates.extend(pir(o) for o in pc.spaces if o is not None)
    for seat_ships in unlaunched.values():
        for sh in seat_ships:
            crates.extend(c for c in sh.crates if c is not None)
    for c in crates:
        if c.pirate:
            on_board_pir[c.owner] += 1
        else:
            on_board_std[c.owner] += 1
    posts = [2] * seats
    for isl in row:
        if isl.post is not None:
            posts[isl.post] -= 1
    players = []
    for seat in range(seats):
        res = (reserve or {}).get(seat, (1, 1))
        sup = (supply or {}).get(seat, (7 - res[0] - on_board_std[seat], 3 - res[1] - on_board_pir[seat]))
        players.append(
            PlayerState(
                standard=sup[0],
                pirate=sup[1],
                reserve_standard=res[0],
                reserve_pirate=res[1],
                posts=posts[seat],
                coins=(coins or {}).get(seat, 4),
                objective=objectives[seat],
                ships=unlaunched[seat],
                launched=tuple(launched_ships.get(seat, ())),
                kept=tuple(s.card for s in unlaunched[seat]),
            )
        )
    used_ships = {s for seat in range(seats) for s in (*(x.card for x in unlaunched[seat]),)}
    used_ships |= {ls.card for seat in range(seats) for ls in launched_ships.get(seat, ())}
    used_ships |= {m for m in market if m is not None}
    used_islands = {i.card for i in row} | set(island_discard)
    state = State(
        config=Config(seats=seats),
        rng=Rng(12345),
        phase=phase,
        start_player=P1,
        active=Seat(active),
        turn=turn,
        players=tuple(players),
        islands=row,
        island_deck=tuple(i for i in ISLAND_IDS if i not in used_islands),
        island_discard=tuple(island_discard),
        pirate_cards=cards,
        pirate_box=tuple(p for p in PIRATE_IDS if p not in {c.card for c in cards}),
        market=tuple(market),
        ship_deck=tuple(s for s in SHIP_IDS if s not in used_ships),
        public_objective=public,
        objective_box=tuple(o for o in OBJECTIVE_IDS if o != public and o not in objectives[:seats]),
    )
    return dataclasses.replace(state, **overrides)


def act(state: State, seat: int, *actions: Any) -> tuple[State, list[Any]]:
    """Apply actions in order for `seat`; return the final state and every event."""
    events: list[Any] = []
    for action in actions:
        state, evs = RULES.apply(state, Seat(seat), action)
        events.extend(evs)
    return state, events


def play_defaults(state: State, limit: int = 500) -> tuple[State, list[Any]]:
    """Let every seat time out (default actions) until the game ends."""
    events: list[Any] = []
    for _ in range(limit):
        acting = RULES.to_act(state)
        if not acting:
            break
        seat = min(acting)
        state, evs = RULES.apply(state, seat, RULES.default_action(state, seat))
        events.extend(evs)
    return state, events
