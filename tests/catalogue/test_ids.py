"""Every id a view or an event of a played game carries is in its game's catalogue.

Random games (a few seeds per game and mode, every seat count in turn) are played with the engines;
every string in every event and in every seat's view (and the spectator's) is collected, and each
must be an id of the catalogue, or one of the two kinds of text views carry: Port Royal's co-op titles
and Sail Away's pirate card names, each of which the catalogue lists.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.message import Message

from flotilla.games import REGISTRY
from flotilla.gateway import catalog_servicer as catalogue
from flotilla.rules import Seat
from flotilla.rules.options import config_from_options

GAMES = ("port_royal", "sail_away", "pirates_of_nassau", "navegador")
SEEDS = 3


def strings(value: Any) -> Iterator[str]:
    """Every string inside a rules value (dataclasses, tuples, mappings)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)


def ids(message: Message) -> set[str]:
    """The values of every string field called `id`, anywhere in `message`."""
    out: set[str] = set()
    for field, value in message.ListFields():
        items = value if field.is_repeated else [value]
        for item in items:
            if isinstance(item, Message):
                out |= ids(item)
            elif field.name == "id" and isinstance(item, str):
                out.add(item)
    return out


def played(kind: str) -> Iterator[str]:
    """Every string of every event and view of a few random games of `kind`."""
    rules = REGISTRY[kind]
    modes = next(m for m in catalogue.kinds_response().kinds if m.kind == kind).modes
    for mode in modes:
        for seed in range(SEEDS):
            seats = mode.seat_counts[seed % len(mode.seat_counts)]
            config = config_from_options(rules.config_type, seats, {"mode": mode.name} if mode.name else {})
            state = rules.new_game(config, 1000 + seed)
            driver = random.Random(seed)
            viewers = [None, *(Seat(i) for i in range(seats))]
            while acting := rules.to_act(state):
                seat = driver.choice(sorted(acting))
                transition = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat)))
                state = transition.state
                for event in transition.events:
                    yield from strings(event)
                yield from strings(rules.view(state, driver.choice(viewers)))


@pytest.mark.parametrize("kind", GAMES)
def test_every_id_in_views_and_events_is_in_the_catalogue(kind: str) -> None:
    catalog = getattr(catalogue.catalog(kind), kind)
    known = ids(catalog)
    if kind == "port_royal":
        known |= {t.title for t in catalog.rank_titles}
    if kind == "sail_away":
        known |= {p.name for p in catalog.pirate_actions}
    seen = set(played(kind)) - {""}
    assert seen, "the games carried no ids"
    assert seen - known == set()
